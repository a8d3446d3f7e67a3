#!/usr/bin/env python3
"""Transport variants crafted with scapy, for what the kernel here cannot send (no sctp or dccp
module loads in this sandbox) or sends only on failure (MPTCP's MP_FAIL). Called by
scripts/capture-transport.sh (`crafted`); writes Corpus/captures/<name>.pcap for each (or for the
names given as arguments) and its oracle (see common.py).

    mptcp-crafted  MPTCP options the real capture (mptcp.pcap) lacks: MP_CAPABLE version 0 and with
                   data-level length and checksum, MP_JOIN's three forms over IPv6, DSS with 4-byte
                   numbers and a checksum, ADD_ADDR for IPv4 and IPv6 with port and HMAC and as an
                   echo, REMOVE_ADDR of two ids, MP_PRIO with an address id, MP_FAIL, MP_FASTCLOSE,
                   MP_TCPRST with the transient flag and a reason.
    sctp-chunks    SCTP chunks and parameters beyond sctp.pcap: INIT with IPv4/IPv6 addresses, cookie
                   preservative, host name, supported address types and extensions, ECN, forward TSN,
                   random, chunk list, requested HMACs, adaptation layer; INIT ACK; SACK with gap
                   blocks and duplicate TSNs; DATA with flags; HEARTBEAT; ERROR and ABORT with causes;
                   SHUTDOWN; FORWARD-TSN with streams; ASCONF and ASCONF-ACK; RE-CONFIG; AUTH; I-DATA;
                   PAD; ECNE and CWR.
    ipv6-ext-full  IPv6 extension headers: hop-by-hop with jumbo payload, router alert and PadN;
                   routing types 0, 2 and 4 (segment routing header with its TLVs); destination
                   options with a home address; a fragment header; the chain of them all.
    mip6           the Mobility header: binding update with options, binding acknowledgement, binding
                   refresh request, home test init, care-of test init, home test, binding error.
    dccp           DCCP (IP protocol 33): request, response, ack, data, dataack, closereq, close,
                   reset, sync, syncack, with options (change, confirm, timestamp, NDP count).
    pgm            PGM (IP protocol 113): SPM, ODATA, RDATA, NAK and NCF, with options.

    cd scripts/corpus && python3 transport_variants.py [mptcp-crafted ...]
"""
import struct
import sys

from scapy.all import IP, TCP, Ether, IPv6, Raw, raw, UDP, ICMPv6EchoRequest
from scapy.layers.inet6 import (IPv6ExtHdrDestOpt, IPv6ExtHdrFragment, IPv6ExtHdrHopByHop, IPv6ExtHdrRouting,
                                IPv6ExtHdrSegmentRouting, IPv6ExtHdrSegmentRoutingTLVIngressNode,
                                IPv6ExtHdrSegmentRoutingTLVPadN, HAO, Jumbo, PadN, RouterAlert,
                                MIP6MH_BA, MIP6MH_BE, MIP6MH_BRR, MIP6MH_BU, MIP6MH_CoTI, MIP6MH_HoT, MIP6MH_HoTI,
                                MIP6OptAltCoA, MIP6OptBRAdvice, MIP6OptNonceIndices, MIP6OptBindingAuthData)
from scapy.layers.sctp import (SCTP, SCTPChunkAbort, SCTPChunkAddressConf, SCTPChunkAddressConfAck,
                               SCTPChunkAuthentication, SCTPChunkData, SCTPChunkError, SCTPChunkForwardTSN,
                               SCTPChunkHeartbeatReq, SCTPChunkIData, SCTPChunkInit, SCTPChunkInitAck,
                               SCTPChunkPad, SCTPChunkParamAdaptationLayer, SCTPChunkParamAddIPAddr,
                               SCTPChunkParamChunkList, SCTPChunkParamCookiePreservative, SCTPChunkParamDelIPAddr,
                               SCTPChunkParamECNCapable, SCTPChunkParamFwdTSN, SCTPChunkParamHeartbeatInfo,
                               SCTPChunkParamHostname, SCTPChunkParamIPv4Addr, SCTPChunkParamIPv6Addr,
                               SCTPChunkParamOutSSNResetReq, SCTPChunkParamRandom, SCTPChunkParamReConfigRes,
                               SCTPChunkParamRequestedHMACFunctions, SCTPChunkParamSetPrimaryAddr,
                               SCTPChunkParamStateCookie, SCTPChunkParamSuccessIndication,
                               SCTPChunkParamSupportedAddrTypes, SCTPChunkParamSupportedExtensions, SCTPChunkReConfig,
                               SCTPChunkSACK, SCTPChunkShutdown, SCTPForwardSkip)

from common import write_capture

MAC_A, MAC_B = "00:11:22:33:44:55", "00:11:22:33:44:66"
A4, B4 = "192.0.2.1", "192.0.2.2"
A6, B6 = "2001:db8::1", "2001:db8::2"


def eth():
    return Ether(dst=MAC_B, src=MAC_A)


def internet_checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def pseudo4(src, dst, proto, length):
    import socket
    return socket.inet_aton(src) + socket.inet_aton(dst) + struct.pack("!BBH", 0, proto, length)


# MPTCP (RFC 8684): each option is (30, data after kind and length). NOPs fill each option list to
# a multiple of 4 bytes, so that scapy adds no EOL padding (which tshark reads as more EOLs).
def mp_capable(version, flags, *keys, data_len=None, checksum=None):
    data = bytes([version, flags]) + b"".join(struct.pack("!Q", k) for k in keys)
    if data_len is not None:
        data += struct.pack("!H", data_len)
    if checksum is not None:
        data += struct.pack("!H", checksum)
    return (30, data)


def mptcp_crafted():
    def seg(ident, flags, options, seq=1000, ack=2000, data=b"", v6=False, sport=40000, dport=5000):
        ip = IPv6(src=A6, dst=B6) if v6 else IP(src=A4, dst=B4, id=ident)
        return eth() / ip / TCP(sport=sport, dport=dport, flags=flags, seq=seq, ack=ack, window=502,
                                options=options) / (Raw(data) if data else b"")
    frames = [
        # MP_CAPABLE version 0 (RFC 6824) on a SYN, and its third ACK with both keys.
        seg(1, "S", [mp_capable(0x00, 0x81, 0x1122334455667788)], ack=0),
        seg(2, "A", [mp_capable(0x00, 0x81, 0x1122334455667788, 0x99AABBCCDDEEFF00)]),
        # Version 1 with data: both keys, data-level length and checksum (A flag set).
        seg(3, "PA", [mp_capable(0x01, 0x81, 0x1122334455667788, 0x99AABBCCDDEEFF00, data_len=5, checksum=0xBEEF)],
            data=b"hello"),
        # MP_JOIN over IPv6: SYN (backup, address id, token, nonce), SYN/ACK (truncated HMAC, nonce),
        # ACK (full HMAC).
        seg(4, "S", [(30, bytes([0x11, 0x05]) + struct.pack("!II", 0xA1B2C3D4, 0x01020304))], ack=0, v6=True),
        seg(5, "SA", [(30, bytes([0x10, 0x07]) + struct.pack("!QI", 0x0102030405060708, 0x0A0B0C0D))], v6=True,
            sport=5000, dport=40000),
        seg(6, "A", [(30, bytes([0x10, 0x00]) + bytes(range(20)))], v6=True),
        # DSS: 4-byte data ACK, 4-byte DSN with mapping and checksum; DATA_FIN alone.
        seg(7, "PA", [(30, bytes([0x20, 0x05]) + struct.pack("!IIIHH", 0x01000000, 0x02000000, 1, 4, 0x1234))],
            data=b"data"),
        seg(8, "A", [(30, bytes([0x20, 0x1C]) + struct.pack("!QIH", 0x0203040506070809, 0, 1) + b"\0\0")]),
        # ADD_ADDR: IPv4 with port and HMAC; IPv6 with HMAC; IPv4 echo; IPv6 echo with port.
        seg(9, "A", [(30, bytes([0x30, 0x04]) + bytes([198, 51, 100, 7]) + struct.pack("!H", 8080)
                      + bytes(range(8))), (1, b""), (1, b"")]),
        seg(10, "A", [(30, bytes([0x30, 0x05]) + bytes.fromhex("20010db8000000000000000000000007") + bytes(range(8)))],
            v6=True),
        seg(11, "A", [(30, bytes([0x31, 0x06]) + bytes([198, 51, 100, 8]))]),
        seg(12, "A", [(30, bytes([0x31, 0x09]) + bytes.fromhex("20010db8000000000000000000000009")
                       + struct.pack("!H", 443)), (1, b""), (1, b"")], v6=True),
        # REMOVE_ADDR of two ids; MP_PRIO with and without an address id.
        seg(13, "A", [(30, bytes([0x40, 0x04, 0x05])), (1, b""), (1, b""), (1, b"")]),
        seg(14, "A", [(30, bytes([0x51, 0x03]))]),
        seg(15, "A", [(30, bytes([0x50])), (1, b"")]),
        # MP_FAIL with the DSN; MP_FASTCLOSE with the receiver's key; MP_TCPRST (transient, reason 5).
        seg(16, "A", [(30, bytes([0x60, 0x00]) + struct.pack("!Q", 0x0102030405060708))]),
        seg(17, "RA", [(30, bytes([0x70, 0x00]) + struct.pack("!Q", 0x99AABBCCDDEEFF00)),
                       (30, bytes([0x81, 0x05]))]),
        # An MP_EXPERIMENTAL subtype.
        seg(18, "A", [(30, bytes([0xF0, 0x00]))]),
    ]
    write_capture("mptcp-crafted", 1, frames)


def sctp_chunks():
    def pkt(ident, chunks, tag=0x1234ABCD, sport=40000, dport=40001, v6=False):
        ip = IPv6(src=A6, dst=B6) if v6 else IP(src=A4, dst=B4, id=ident)
        return eth() / ip / SCTP(sport=sport, dport=dport, tag=tag) / chunks

    def back(ident, chunks):
        return eth() / IP(src=B4, dst=A4, id=ident) / SCTP(sport=40001, dport=40000, tag=0x11111111) / chunks
    random = bytes(range(32))
    frames = [
        pkt(1, SCTPChunkInit(init_tag=0x11111111, a_rwnd=106496, n_out_streams=10, n_in_streams=65535,
                             init_tsn=0x20000000,
                             params=[SCTPChunkParamIPv4Addr(addr=A4), SCTPChunkParamIPv6Addr(addr=A6),
                                     SCTPChunkParamCookiePreservative(sug_cookie_inc=30000),
                                     SCTPChunkParamHostname(hostname=b"peer-a.example"),
                                     SCTPChunkParamSupportedAddrTypes(addr_type_list=[5, 6]),
                                     SCTPChunkParamECNCapable(), SCTPChunkParamFwdTSN(),
                                     SCTPChunkParamSupportedExtensions(supported_extensions=[0xC0, 0x82, 0x0F, 0xC1, 0x80, 0x40]),
                                     SCTPChunkParamRandom(random=random),
                                     SCTPChunkParamChunkList(chunk_list=[0xC1, 0x80]),
                                     SCTPChunkParamRequestedHMACFunctions(HMAC_functions_list=[1, 3]),
                                     SCTPChunkParamAdaptationLayer(indication=0x01020304)]), tag=0),
        back(2, SCTPChunkInitAck(init_tag=0x22222222, a_rwnd=106496, n_out_streams=10, n_in_streams=10,
                                 init_tsn=0x30000000,
                                 params=[SCTPChunkParamStateCookie(cookie=b"state-cookie-0123456789"),
                                         SCTPChunkParamIPv4Addr(addr=B4), SCTPChunkParamECNCapable(),
                                         SCTPChunkParamFwdTSN(),
                                         SCTPChunkParamSupportedExtensions(supported_extensions=[0xC0, 0x82, 0x0F])])),
        pkt(3, SCTPChunkData(beginning=1, ending=1, unordered=1, delay_sack=1, tsn=0x20000000, stream_id=2,
                             stream_seq=0, proto_id=46, data=b"unordered data")),
        pkt(4, SCTPChunkData(beginning=1, ending=0, tsn=0x20000001, stream_id=1, stream_seq=7, proto_id=0,
                             data=b"first fragment") / SCTPChunkData(beginning=0, ending=1, tsn=0x20000002,
                                                                      stream_id=1, stream_seq=7, data=b"last")),
        back(5, SCTPChunkSACK(cumul_tsn_ack=0x20000000, a_rwnd=100000, n_gap_ack=2, n_dup_tsn=2,
                              gap_ack_list=["2:3", "5:9"], dup_tsn_list=[0x1FFFFFFF, 0x20000000])),
        pkt(6, SCTPChunkHeartbeatReq(params=[SCTPChunkParamHeartbeatInfo(data=b"hb-info-0123")])),
        back(7, SCTPChunkError(error_causes=bytes.fromhex("0001000800020000") + bytes.fromhex("000300080000ea60")
                               + bytes.fromhex("00060008c1000004") + bytes.fromhex("000900080000abcd")
                               + bytes.fromhex("000d000841424344"))),
        pkt(8, SCTPChunkForwardTSN(new_tsn=0x20000010, skips=[SCTPForwardSkip(stream_id=1, stream_seq=7),
                                                               SCTPForwardSkip(stream_id=2, stream_seq=3)])),
        pkt(9, SCTPChunkAddressConf(seq=1, params=[SCTPChunkParamIPv4Addr(addr=A4),
                                                   SCTPChunkParamAddIPAddr(correlation_id=1,
                                                                           addr_type=5, addr_len=8, addr="198.51.100.1"),
                                                   SCTPChunkParamDelIPAddr(correlation_id=2,
                                                                           addr_type=5, addr_len=8, addr="198.51.100.2"),
                                                   SCTPChunkParamSetPrimaryAddr(correlation_id=3,
                                                                                addr_type=5, addr_len=8, addr=A4)])),
        back(10, SCTPChunkAddressConfAck(seq=1, params=[SCTPChunkParamSuccessIndication(correlation_id=1),
                                                        SCTPChunkParamSuccessIndication(correlation_id=2)])),
        pkt(11, SCTPChunkReConfig(params=[SCTPChunkParamOutSSNResetReq(re_conf_req_seq_num=1, re_conf_res_seq_num=0,
                                                                       tsn=0x20000010, stream_num_list=[1, 2])])),
        # A RE-CONFIG response with both next TSNs (raw: scapy leaves them out of the length).
        back(12, Raw(bytes.fromhex("82000018") + struct.pack("!HHIIII", 0x10, 20, 1, 1, 0x30000005, 0x20000013))),
        pkt(13, SCTPChunkAuthentication(shared_key_id=0, HMAC_function=1, HMAC=bytes(range(20)))
            / SCTPChunkData(beginning=1, ending=1, tsn=0x20000011, stream_id=0, stream_seq=1, proto_id=51, data=b"auth")),
        pkt(14, SCTPChunkIData(beginning=1, ending=1, tsn=0x20000012, stream_id=3, message_id=9, ppid_fsn=51,
                               data=b"i-data")),
        pkt(15, SCTPChunkPad(len=16, padding=b"\0" * 12) / SCTPChunkHeartbeatReq(
            params=[SCTPChunkParamHeartbeatInfo(data=b"pmtu")])),
        back(16, Raw(bytes.fromhex("0c000008") + struct.pack("!I", 0x20000005))),  # ECNE
        pkt(17, Raw(bytes.fromhex("0d000008") + struct.pack("!I", 0x20000005))),   # CWR
        pkt(18, SCTPChunkShutdown(cumul_tsn_ack=0x30000004)),
        back(19, SCTPChunkAbort(TCB=1, error_causes=bytes.fromhex("000c000c") + b"goodbye!")),
        pkt(20, SCTPChunkAbort(error_causes=bytes.fromhex("0007000400080004")), v6=True),
    ]
    write_capture("sctp-chunks", 1, frames)


def ipv6_ext_full():
    echo = ICMPv6EchoRequest(id=0x77, seq=1, data=b"ext headers")
    big = b"J" * 16
    frames = [
        # Hop-by-hop with router alert and PadN, before a UDP datagram.
        eth() / IPv6(src=A6, dst=B6) / IPv6ExtHdrHopByHop(options=[RouterAlert(value=0), PadN(optdata=b"\0\0")])
        / UDP(sport=5000, dport=5001) / Raw(b"hop by hop"),
        # Jumbo payload option (RFC 2675), in a datagram short enough to keep its payload length (tshark
        # cannot read a jumbogram under 65536 bytes, and one over that would not keep the capture small).
        eth() / IPv6(src=A6, dst=B6) / IPv6ExtHdrHopByHop(nh=59, options=[Jumbo(jumboplen=8 + len(big))])
        / Raw(big),
        # Routing type 0 (deprecated) with two addresses.
        eth() / IPv6(src=A6, dst=B6) / IPv6ExtHdrRouting(type=0, segleft=2, addresses=["2001:db8::10", "2001:db8::11"])
        / echo,
        # Routing type 2 (Mobile IPv6) with the home address.
        eth() / IPv6(src=A6, dst=B6) / IPv6ExtHdrRouting(type=2, segleft=1, addresses=["2001:db8:1::99"]) / echo,
        # Segment routing header (type 4) with three segments, a tag and TLVs.
        eth() / IPv6(src=A6, dst="2001:db8::20") / IPv6ExtHdrSegmentRouting(
            addresses=["2001:db8::22", "2001:db8::21", "2001:db8::20"], segleft=2, lastentry=2, tag=0x0102,
            tlv_objects=[IPv6ExtHdrSegmentRoutingTLVIngressNode(ingress_node="2001:db8::1"),
                         IPv6ExtHdrSegmentRoutingTLVPadN(padding=b"\0\0\0\0")]) / echo,
        # Destination options with a home address (Mobile IPv6).
        eth() / IPv6(src=A6, dst=B6) / IPv6ExtHdrDestOpt(options=[HAO(hoa="2001:db8:1::99")]) / echo,
        # A first fragment (alone: tshark would reassemble a whole set, dissect does not).
        eth() / IPv6(src=A6, dst=B6) / IPv6ExtHdrFragment(id=0xABCD, m=1, offset=0, nh=17) / raw(
            UDP(sport=5000, dport=5001, len=8 + 32) / Raw(b"F" * 32))[:24],
        # The chain: hop-by-hop, destination options, routing, fragment, destination options, TCP.
        eth() / IPv6(src=A6, dst=B6) / IPv6ExtHdrHopByHop(options=[RouterAlert(value=2)])
        / IPv6ExtHdrDestOpt(options=[PadN(optdata=b"\0\0\0\0")])
        / IPv6ExtHdrRouting(type=0, segleft=0, addresses=["2001:db8::30"])
        / IPv6ExtHdrFragment(id=1, m=0, offset=0) / IPv6ExtHdrDestOpt(options=[PadN(optdata=b"\0\0\0\0")])
        / TCP(sport=40000, dport=80, flags="S", seq=1),
    ]
    write_capture("ipv6-ext-full", 1, frames)


def mip6():
    mn, ha, cn = "2001:db8:2::5", "2001:db8:1::1", "2001:db8:3::9"
    frames = [
        eth() / IPv6(src=mn, dst=ha) / IPv6ExtHdrDestOpt(options=[HAO(hoa="2001:db8:1::99")])
        / MIP6MH_BU(seq=17, flags=0x3C, mhtime=600, options=[MIP6OptAltCoA(acoa=mn)]),
        eth() / IPv6(src=ha, dst=mn) / IPv6ExtHdrRouting(type=2, segleft=1, addresses=["2001:db8:1::99"])
        / MIP6MH_BA(status=0, flags=0x80, seq=17, mhtime=600,
                    options=[MIP6OptBRAdvice(rinter=300)]),
        eth() / IPv6(src=cn, dst=mn) / MIP6MH_BRR(),
        eth() / IPv6(src=mn, dst=cn) / MIP6MH_HoTI(cookie=b"\x01\x02\x03\x04\x05\x06\x07\x08"),
        eth() / IPv6(src=mn, dst=cn) / MIP6MH_CoTI(cookie=b"\x11\x12\x13\x14\x15\x16\x17\x18"),
        eth() / IPv6(src=cn, dst=mn) / MIP6MH_HoT(index=3, cookie=b"\x01\x02\x03\x04\x05\x06\x07\x08",
                                               token=b"\xaa" * 8),
        eth() / IPv6(src=mn, dst=cn) / MIP6MH_BU(seq=18, flags=0x00, mhtime=120,
                                              options=[MIP6OptNonceIndices(olen=4, hni=3, coni=4),
                                                       MIP6OptBindingAuthData(olen=12, authenticator=0x555555555555555555555555)]),
        eth() / IPv6(src=cn, dst=mn) / MIP6MH_BE(status=1, ha="2001:db8:1::99"),
    ]
    write_capture("mip6", 1, frames)


def dccp_packet(src, dst, sport, dport, ptype, seq, ack=None, extra=b"", options=b"", data=b"", x=1, cscov=0, ccval=0):
    if x:
        seq_part = struct.pack("!BB", 0, 0) + struct.pack("!Q", seq)[2:]
    else:
        seq_part = struct.pack("!I", seq)[1:]
    ack_part = b""
    if ack is not None:
        ack_part = (struct.pack("!H", 0) + struct.pack("!Q", ack)[2:]) if x else (b"\0" + struct.pack("!I", ack)[1:])
    if options and len(options) % 4:
        options += b"\0" * (4 - len(options) % 4)
    first = struct.pack("!HHBBHB", sport, dport, 0, (ccval << 4) | cscov, 0, (ptype << 1) | x)
    header = first + (seq_part[1:] if x else seq_part) + ack_part + extra + options
    header = header[:4] + bytes([len(header) // 4]) + header[5:]
    packet = header + data
    covered = packet if cscov == 0 else packet[:len(header) + (cscov - 1) * 4]
    checksum = internet_checksum(pseudo4(src, dst, 33, len(packet)) + covered)
    packet = packet[:6] + struct.pack("!H", checksum) + packet[8:]
    return eth() / IP(src=src, dst=dst, proto=33) / Raw(packet)


def dccp():
    c, s = (A4, B4), (B4, A4)
    service = struct.pack("!I", 0x70657266)  # "perf"
    # Options: Change L (CCID 2), Confirm R, NDP count, Timestamp, Timestamp Echo, Padding.
    change = bytes([32, 4, 1, 2])
    confirm = bytes([35, 4, 1, 2])
    timestamp = bytes([41, 6]) + struct.pack("!I", 0x01020304)
    echo = bytes([42, 6]) + struct.pack("!I", 0x01020304)
    ndp = bytes([37, 3, 1])
    frames = [
        dccp_packet(*c, 40000, 5001, 0, 100, extra=service, options=change + timestamp),
        dccp_packet(*s, 5001, 40000, 1, 500, ack=100, extra=service, options=confirm + echo),
        dccp_packet(*c, 40000, 5001, 3, 101, ack=500),
        dccp_packet(*c, 40000, 5001, 2, 102, data=b"dccp data one"),
        dccp_packet(*c, 40000, 5001, 4, 103, ack=500, data=b"dccp data two", options=ndp, ccval=3),
        dccp_packet(*s, 5001, 40000, 3, 501, ack=103, cscov=1),
        dccp_packet(*c, 40000, 5001, 2, 0x123, data=b"short", x=0),
        dccp_packet(*c, 40000, 5001, 8, 104, ack=501),
        dccp_packet(*s, 5001, 40000, 9, 502, ack=104),
        dccp_packet(*s, 5001, 40000, 5, 503, ack=104),
        dccp_packet(*c, 40000, 5001, 6, 105, ack=503),
        dccp_packet(*s, 5001, 40000, 7, 504, ack=105, extra=bytes([1, 0, 0, 0])),
    ]
    write_capture("dccp", 1, frames)


def pgm_packet(ptype, body, options=b"", tsdu=0, sport=7500, dport=7500, src=A4, dst="239.1.2.3"):
    gsi = bytes.fromhex("0a0b0c0d0e0f")
    flags = 0x01 if options else 0
    header = struct.pack("!HHBBH", sport, dport, ptype, flags, 0) + gsi + struct.pack("!H", tsdu)
    packet = header + body[0] + options + body[1]
    checksum = internet_checksum(packet)
    packet = packet[:6] + struct.pack("!H", checksum) + packet[8:]
    return eth() / IP(src=src, dst=dst, proto=113, ttl=16) / Raw(packet)


def pgm():
    import socket
    a4, g4 = socket.inet_aton(A4), socket.inet_aton("239.1.2.3")

    def opt_block(*options):
        body = b"".join(options[:-1]) + bytes([options[-1][0] | 0x80]) + options[-1][1:]
        return bytes([0x00, 4]) + struct.pack("!H", 4 + len(body)) + body
    spm = struct.pack("!III", 10, 1, 9) + struct.pack("!HH", 1, 0) + a4
    data = b"pgm payload"
    # OPT_FRAGMENT (1): reserved, first sqn, offset, length; OPT_JOIN (3): reserved, min sqn.
    fragment = bytes([0x01, 16, 0, 0]) + struct.pack("!III", 5, 0, 100)
    join = bytes([0x03, 8, 0, 0]) + struct.pack("!I", 2)
    nak_list = bytes([0x02, 12, 0, 0]) + struct.pack("!II", 6, 7)
    nak = struct.pack("!I", 5) + struct.pack("!HH", 1, 0) + a4 + struct.pack("!HH", 1, 0) + g4
    frames = [
        pgm_packet(0x00, (spm, b"")),
        pgm_packet(0x04, (struct.pack("!II", 5, 1), data), tsdu=len(data)),
        pgm_packet(0x04, (struct.pack("!II", 6, 1), data), options=opt_block(fragment, join), tsdu=len(data)),
        pgm_packet(0x08, (nak, b""), src=B4, dst=A4),
        pgm_packet(0x08, (nak, b""), options=opt_block(nak_list), src=B4, dst=A4),
        pgm_packet(0x0A, (nak, b"")),
        pgm_packet(0x05, (struct.pack("!II", 5, 1), data), tsdu=len(data)),
    ]
    write_capture("pgm", 1, frames)


CAPTURES = {"mptcp-crafted": mptcp_crafted, "sctp-chunks": sctp_chunks, "ipv6-ext-full": ipv6_ext_full,
            "mip6": mip6, "dccp": dccp, "pgm": pgm}

if __name__ == "__main__":
    for name in sys.argv[1:] or CAPTURES:
        CAPTURES[name]()
