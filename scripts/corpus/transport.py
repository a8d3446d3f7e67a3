#!/usr/bin/python3
"""Transport-layer protocols crafted with scapy: SCTP (DATA, INIT, INIT ACK, SACK, HEARTBEAT and
its ACK, ABORT, SHUTDOWN, SHUTDOWN ACK, SHUTDOWN COMPLETE, COOKIE ECHO, COOKIE ACK, ERROR and
an unknown chunk type), DNS over TCP (a query and its answer, each whole in one segment) and
LLMNR (a query and its answer), and TCP segments with every flag tcpdump prints (tcp-flags). Writes Corpus/captures/<name>.pcap for each (or for the names given as
arguments) and its oracle (see common.py).

    cd scripts/corpus && /usr/bin/python3 transport.py [sctp ...]
"""
import sys

from scapy.all import DNS, DNSQR, DNSRR, IP, TCP, UDP, Ether, Raw
from scapy.layers.sctp import (SCTP, SCTPChunkAbort, SCTPChunkCookieAck, SCTPChunkCookieEcho, SCTPChunkData,
                               SCTPChunkError, SCTPChunkHeartbeatAck, SCTPChunkHeartbeatReq, SCTPChunkInit,
                               SCTPChunkInitAck, SCTPChunkParamStateCookie, SCTPChunkParamHeartbeatInfo,
                               SCTPChunkParamIPv4Addr, SCTPChunkParamSupportedAddrTypes, SCTPChunkSACK,
                               SCTPChunkShutdown, SCTPChunkShutdownAck, SCTPChunkShutdownComplete)

from common import write_capture

MAC_A, MAC_B = "00:11:22:33:44:55", "00:11:22:33:44:66"


def eth():
    return Ether(dst=MAC_B, src=MAC_A)


def sctp_ip(ident, sport=40000, dport=40001, tag=0x1234abcd):
    return eth() / IP(src="192.0.2.1", dst="192.0.2.2", id=ident) / SCTP(sport=sport, dport=dport, tag=tag)


def sctp():
    frames = [
        sctp_ip(1, tag=0) / SCTPChunkInit(init_tag=0x11111111, a_rwnd=65535, n_out_streams=10, n_in_streams=10,
                                          init_tsn=100, params=[SCTPChunkParamIPv4Addr(addr="192.0.2.1"),
                                                                SCTPChunkParamSupportedAddrTypes(addr_type_list=[5, 6])]),
        sctp_ip(2, sport=40001, dport=40000, tag=0x11111111)
        / SCTPChunkInitAck(init_tag=0x22222222, a_rwnd=32768, n_out_streams=5, n_in_streams=5, init_tsn=200,
                           params=[SCTPChunkParamStateCookie(cookie=b"cookie-bytes")]),
        sctp_ip(3) / SCTPChunkCookieEcho(cookie=b"cookie-bytes"),
        sctp_ip(4, sport=40001, dport=40000) / SCTPChunkCookieAck(),
        # Two DATA chunks, the first padded (5 bytes of user data).
        sctp_ip(5) / SCTPChunkData(tsn=100, stream_id=1, stream_seq=0, proto_id=0, beginning=1, ending=1, data=b"hello")
        / SCTPChunkData(tsn=101, stream_id=2, stream_seq=3, proto_id=0, unordered=1, beginning=1, ending=1,
                        data=b"abcdefgh"),
        sctp_ip(6, sport=40001, dport=40000)
        / SCTPChunkSACK(cumul_tsn_ack=101, a_rwnd=32000, n_gap_ack=2, n_dup_tsn=1,
                        gap_ack_list=["2:3", "5:6"], dup_tsn_list=[99]),
        sctp_ip(7) / SCTPChunkHeartbeatReq(params=[SCTPChunkParamHeartbeatInfo(data=b"hbinfo!!")]),
        sctp_ip(8, sport=40001, dport=40000) / SCTPChunkHeartbeatAck(params=[SCTPChunkParamHeartbeatInfo(data=b"hbinfo!!")]),
        sctp_ip(9) / SCTPChunkShutdown(cumul_tsn_ack=101),
        sctp_ip(10, sport=40001, dport=40000) / SCTPChunkShutdownAck(),
        sctp_ip(11) / SCTPChunkShutdownComplete(),
        # ABORT with an error cause (user-initiated abort, code 12).
        sctp_ip(12) / SCTPChunkAbort(error_causes=b"\x00\x0c\x00\x08bye!"),
        # ERROR: invalid stream identifier (code 1).
        sctp_ip(13) / SCTPChunkError(error_causes=b"\x00\x01\x00\x08\x00\x07\x00\x00"),
        # An unknown chunk type (0x3f) with a 3-byte value, padded.
        sctp_ip(14) / Raw(b"\x3f\x00\x00\x07xyz\x00"),
    ]
    write_capture("sctp", 1, frames)


def dns_tcp():
    def segment(ident, sport, dport, seq, ack, message):
        payload = len(message).to_bytes(2, "big") + bytes(message)
        return eth() / IP(src="192.0.2.1" if dport == 53 else "192.0.2.53", dst="192.0.2.53" if dport == 53 else "192.0.2.1",
                          id=ident) / TCP(sport=sport, dport=dport, flags="PA", seq=seq, ack=ack) / payload
    query = DNS(id=0x1111, rd=1, qd=DNSQR(qname="example.com", qtype="A"))
    answer = DNS(id=0x1111, qr=1, rd=1, ra=1, qd=DNSQR(qname="example.com", qtype="A"),
                 an=DNSRR(rrname="example.com", type="A", ttl=300, rdata="93.184.216.34"))
    frames = [
        segment(1, 40000, 53, 1000, 2000, query),
        segment(2, 53, 40000, 2000, 1000 + 2 + len(query), answer),
    ]
    write_capture("dns-tcp", 1, frames)


def llmnr():
    query = DNS(id=0x2222, qd=DNSQR(qname="host1", qtype="A"))
    answer = DNS(id=0x2222, qr=1, qd=DNSQR(qname="host1", qtype="A"),
                 an=DNSRR(rrname="host1", type="A", ttl=30, rdata="192.0.2.7"))
    frames = [
        eth() / IP(src="192.0.2.1", dst="224.0.0.252", id=1, ttl=1) / UDP(sport=50000, dport=5355) / query,
        eth() / IP(src="192.0.2.7", dst="192.0.2.1", id=2) / UDP(sport=5355, dport=50000) / answer,
    ]
    write_capture("llmnr", 1, frames)


def tcp_flags():
    """Every flag tcpdump prints (F S R P . U E W), alone and together, some segments with data
    (tcpdump's seq ranges, one wrapping past 2^32), on ports no protocol claims: the summary
    view's `[S.]` and `seq a:b` are checked against tcpdump's output (Corpus/tcpdump)."""
    def segment(ident, flags, seq, ack=0, data=b""):
        return (eth() / IP(src="192.0.2.1", dst="192.0.2.2", id=ident)
                / TCP(sport=40000, dport=40001, flags=flags, seq=seq, ack=ack, urgptr=0) / Raw(data))
    cases = [("S", 1000, 0, b""), ("SA", 5000, 1001, b""), ("A", 1001, 5001, b""), ("PA", 1001, 5001, b"x" * 88),
             ("FA", 1089, 5001, b""), ("FPA", 1089, 5001, b"y" * 4), ("R", 1093, 0, b""), ("RA", 1093, 5001, b""),
             ("SEC", 2000, 0, b""), ("SAE", 6000, 2001, b""), ("PAU", 4294967290, 7, b"z" * 10), ("", 3000, 0, b""),
             ("FSRPAUEC", 3000, 9, b"w")]
    frames = [segment(number + 1, flags, seq, ack, data) for number, (flags, seq, ack, data) in enumerate(cases)]
    write_capture("tcp-flags", 1, frames)


CAPTURES = {"sctp": sctp, "dns-tcp": dns_tcp, "llmnr": llmnr, "tcp-flags": tcp_flags}

if __name__ == "__main__":
    for name in sys.argv[1:] or CAPTURES:
        CAPTURES[name]()
