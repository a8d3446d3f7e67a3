#!/usr/bin/python3
"""ICMP and ICMPv6 errors quoting the offending datagram's IP header and first transport bytes
(UDP, TCP, ICMP echo), MLDv1/MLDv2 messages, first and last IP fragments, an IPv6 jumbogram.
Writes Corpus/captures/{icmp-errors,mld,fragments,jumbogram}.pcap and their oracles (see
common.py). `icmp.py --tso-ipv4 FILE` also writes an IPv4 segment with total length 0 to FILE
(not in the corpus: see below)."""
import sys

from scapy.all import (ICMP, IP, IPv6, TCP, UDP, Ether, ICMPv6DestUnreach, ICMPv6EchoRequest,
                       ICMPv6PacketTooBig, ICMPv6ParamProblem, ICMPv6TimeExceeded, raw)

from common import write_capture

MAC = dict(dst="00:11:22:33:44:66", src="00:11:22:33:44:55")


def quote(packet, transport_bytes=8):
    """The offending datagram cut after its IP header and `transport_bytes` bytes."""
    data = raw(packet)
    header = (data[0] & 0x0F) * 4 if data[0] >> 4 == 4 else 40
    return data[:header + transport_bytes]


udp4 = IP(src="10.0.0.2", dst="10.0.0.9", id=7, ttl=1) / UDP(sport=33434, dport=33435) / (b"x" * 24)
tcp4 = IP(src="10.0.0.2", dst="10.0.0.9", id=8, ttl=1) / TCP(sport=40000, dport=80, seq=123456789, flags="S")
echo4 = IP(src="10.0.0.2", dst="10.0.0.9", id=9) / ICMP(type=8, id=0x1234, seq=5) / (b"p" * 16)
opts4 = IP(src="10.0.0.2", dst="10.0.0.9", id=10, options=b"\x94\x04\x00\x00") / UDP(sport=5000, dport=53) / (b"q" * 12)
udp6 = IPv6(src="2001:db8::2", dst="2001:db8::9", hlim=1) / UDP(sport=33434, dport=33435) / (b"x" * 24)
tcp6 = IPv6(src="2001:db8::2", dst="2001:db8::9") / TCP(sport=40000, dport=443, seq=987654321, flags="PA") / (b"y" * 1400)
echo6 = IPv6(src="2001:db8::2", dst="2001:db8::9", hlim=1) / ICMPv6EchoRequest(id=0x4321, seq=6) / (b"p" * 16)

out4 = dict(src="10.0.0.1", dst="10.0.0.2")
out6 = dict(src="2001:db8::1", dst="2001:db8::2")
frames = [
    Ether(**MAC) / IP(**out4, id=100) / ICMP(type=3, code=3) / quote(udp4),
    Ether(**MAC) / IP(**out4, id=101) / ICMP(type=11, code=0) / quote(tcp4),
    Ether(**MAC) / IP(**out4, id=102) / ICMP(type=4, code=0) / quote(echo4),
    Ether(**MAC) / IP(**out4, id=103) / ICMP(type=12, code=0, ptr=20) / quote(opts4),
    Ether(**MAC) / IP(**out4, id=104) / ICMP(type=5, code=1, gw="10.0.0.254") / quote(udp4),
    Ether(**MAC) / IP(**out4, id=105) / ICMP(type=3, code=1) / quote(udp4, 32),
    Ether(**MAC) / IPv6(**out6) / ICMPv6DestUnreach(code=4) / quote(udp6),
    Ether(**MAC) / IPv6(**out6) / ICMPv6PacketTooBig(mtu=1280) / quote(tcp6),
    Ether(**MAC) / IPv6(**out6) / ICMPv6TimeExceeded(code=0) / quote(echo6),
    Ether(**MAC) / IPv6(**out6) / ICMPv6ParamProblem(code=0, ptr=6) / quote(udp6, 32),
]
write_capture("icmp-errors", 1, [raw(frame) for frame in frames])

# MLDv1 query, report and done; MLDv2 query with sources and report with records (RFC 2710, 3810).
from scapy.all import (IPv6ExtHdrHopByHop, RouterAlert, ICMPv6MLQuery, ICMPv6MLReport, ICMPv6MLDone,
                       ICMPv6MLQuery2, ICMPv6MLReport2, ICMPv6MLDMultAddrRec)

mld = dict(src="fe80::1", hlim=1)
hbh = IPv6ExtHdrHopByHop(options=[RouterAlert(value=0)])
frames = [
    Ether(**MAC) / IPv6(**mld, dst="ff02::1") / hbh / ICMPv6MLQuery(mrd=10000, mladdr="::"),
    Ether(**MAC) / IPv6(**mld, dst="ff02::1:3") / hbh / ICMPv6MLReport(mladdr="ff02::1:3"),
    Ether(**MAC) / IPv6(**mld, dst="ff02::2") / hbh / ICMPv6MLDone(mladdr="ff02::1:3"),
    Ether(**MAC) / IPv6(**mld, dst="ff02::1") / hbh / ICMPv6MLQuery2(mrd=1000, mladdr="ff05::1:3", S=1, QRV=2, QQIC=125,
                                                                    sources=["2001:db8::5", "2001:db8::6"]),
    Ether(**MAC) / IPv6(**mld, dst="ff02::16") / hbh / ICMPv6MLReport2(records=[
        ICMPv6MLDMultAddrRec(rtype=1, dst="ff05::1:3", sources=["2001:db8::5"]),
        ICMPv6MLDMultAddrRec(rtype=4, dst="ff05::2:3", sources=[], auxdata_len=1, auxdata=b"\x01\x02\x03\x04"),
    ]),
]
write_capture("mld", 1, [raw(frame) for frame in frames])

# A UDP datagram and a TCP segment in IPv4 fragments, a UDP datagram in IPv6 fragments: the
# first fragment holds the transport header, the later ones only data. The middle fragment of
# each is left out: the oracle is tshark's with reassembly on, which would otherwise show the
# reassembled datagram in the last fragment.
from scapy.all import IPv6ExtHdrFragment, fragment, fragment6

udp = IP(src="10.0.0.1", dst="10.0.0.2", id=0x4242) / UDP(sport=5000, dport=6000) / (b"u" * 100)
tcp = IP(src="10.0.0.1", dst="10.0.0.2", id=0x4343) / TCP(sport=40001, dport=40002, seq=1000, flags="PA") / (b"t" * 100)
echo = IP(src="10.0.0.1", dst="10.0.0.2", id=0x4545) / ICMP(type=8, id=7, seq=1) / (b"e" * 100)
udp6 = (IPv6(src="2001:db8::1", dst="2001:db8::2") / IPv6ExtHdrFragment(id=0x4444) / UDP(sport=5002, dport=6002)
        / (b"v" * 100))
frames = []
for fragments in (fragment(udp, fragsize=48), fragment(tcp, fragsize=48), fragment(echo, fragsize=48),
                  fragment6(udp6, 100)):
    assert len(fragments) == 3
    frames += [Ether(**MAC) / fragments[0], Ether(**MAC) / fragments[2]]
write_capture("fragments", 1, [raw(frame) for frame in frames])

# Lengths larger than the IP length fields hold: an IPv6 jumbogram (RFC 2675, payload length 0
# and a hop-by-hop Jumbo Payload option), its capture cut after 200 bytes. (An IPv4 total length
# of 0, as captured on the sending host before TCP segmentation offload, decodes too, but tshark
# shows ip.len as the length it assumes, not the 0 in the packet; see tso_ipv4() below, left out
# of the corpus.)
from scapy.all import Jumbo

jumbo_payload = 70000
jumbo = raw(Ether(**MAC) / IPv6(src="2001:db8::1", dst="2001:db8::2", plen=0)
            / IPv6ExtHdrHopByHop(options=[Jumbo(jumboplen=8 + 20 + jumbo_payload)])
            / TCP(sport=40005, dport=40006, seq=7000, flags="A") / (b"j" * jumbo_payload))
write_capture("jumbogram", 1, [(jumbo[:200], len(jumbo))])


def tso_ipv4():
    """An IPv4 TCP segment with total length 0 (the checksums right)."""
    packet = IP(raw(IP(src="10.0.0.1", dst="10.0.0.2", id=0x4646, flags="DF")
                    / TCP(sport=40003, dport=40004, seq=5000, flags="A") / (b"s" * 1600)))
    packet.len = 0
    del packet.chksum
    return raw(Ether(**MAC) / packet)


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "--tso-ipv4":
    from common import write_pcap
    write_pcap(sys.argv[2], 1, [tso_ipv4()])
