#!/usr/bin/python3
"""EIGRP messages FRR 8.4's eigrpd does not send (scripts/capture-igp.sh captures the ones it does),
crafted with scapy's contrib layer: an update with IPv4 external routes (static and OSPF origins),
IPv6 internal and external routes over IPv6, a hello with MD5 authentication, a stub hello, a
sequence TLV with a next multicast sequence, a query and a reply. Writes
Corpus/captures/igp-eigrp-crafted.pcap and its oracle (see common.py).

    cd scripts/corpus && /usr/bin/python3 igp_crafted.py
"""
from scapy.all import IP, Ether, IPv6, raw
from scapy.contrib.eigrp import (EIGRP, EIGRPAuthData, EIGRPExtRoute, EIGRPIntRoute, EIGRPNms, EIGRPParam, EIGRPSeq,
                                 EIGRPStub, EIGRPSwVer, EIGRPv6ExtRoute, EIGRPv6IntRoute)

from common import write_capture

MAC_A, MAC_B, MCAST4, MCAST6 = "02:00:00:00:00:01", "02:00:00:00:00:02", "01:00:5e:00:00:0a", "33:33:00:00:00:0a"


def v4(dst="224.0.0.10", mac=MCAST4):
    return Ether(src=MAC_A, dst=mac) / IP(src="10.30.12.1", dst=dst, ttl=2, id=7)


def v6(dst="ff02::a", mac=MCAST6):
    return Ether(src=MAC_A, dst=mac) / IPv6(src="fe80::1", dst=dst, hlim=255)


frames = [
    # A hello with keyed MD5 authentication (the digest is not computed: its bytes are fixed).
    v4() / EIGRP(opcode="Hello", asn=10, tlvlist=[
        EIGRPAuthData(authtype=2, keyid=1, authdata=bytes(range(16))),
        EIGRPParam(k1=1, k3=1, holdtime=15), EIGRPSwVer(ios=0x0c04, eigrp=0x0102)]),
    # A stub router's hello (connected and summary).
    v4() / EIGRP(opcode="Hello", asn=10, tlvlist=[
        EIGRPParam(k1=1, k3=1, holdtime=15), EIGRPSwVer(ios=0x0c04, eigrp=0x0102), EIGRPStub(flags=0x0009)]),
    # A hello with the sequence TLV and the next multicast sequence (conditional receive).
    v4() / EIGRP(opcode="Hello", asn=10, flags=0x02, tlvlist=[
        EIGRPParam(k1=1, k3=1, holdtime=15), EIGRPSeq(addrlen=4, ipaddr="10.30.12.2"), EIGRPNms(nms=7)]),
    # An update with internal and external IPv4 routes.
    v4("10.30.12.2", MAC_B) / EIGRP(opcode="Update", asn=10, seq=5, ack=3, tlvlist=[
        EIGRPIntRoute(nexthop="0.0.0.0", delay=2560, bandwidth=25600, mtu=1500, hopcount=0, reliability=255, load=1,
                      prefixlen=24, dst="10.30.13.0"),
        EIGRPExtRoute(nexthop="0.0.0.0", originrouter="3.3.3.3", originasn=10, tag=42, externalmetric=20,
                      extprotocolid="Static Route", flags=0, delay=2560, bandwidth=25600, mtu=1500, hopcount=1,
                      reliability=255, load=1, prefixlen=24, dst="198.51.103.0"),
        EIGRPExtRoute(nexthop="10.30.12.9", originrouter="2.2.2.2", originasn=0, tag=0, externalmetric=11,
                      extprotocolid="OSPF", flags=2, delay=5120, bandwidth=25600, mtu=1500, hopcount=2,
                      reliability=255, load=1, prefixlen=32, dst="10.30.255.2")]),
    # A query and its reply for an unreachable prefix.
    v4() / EIGRP(opcode="Query", asn=10, seq=6, tlvlist=[
        EIGRPIntRoute(nexthop="0.0.0.0", delay=0xFFFFFFFF, bandwidth=0, mtu=1500, hopcount=0, reliability=255, load=1,
                      prefixlen=16, dst="10.31.0.0")]),
    v4("10.30.12.2", MAC_B) / EIGRP(opcode=4, asn=10, seq=9, ack=6, tlvlist=[
        EIGRPIntRoute(nexthop="0.0.0.0", delay=0xFFFFFFFF, bandwidth=0, mtu=1500, hopcount=0, reliability=255, load=1,
                      prefixlen=16, dst="10.31.0.0")]),
    # An acknowledgment (a hello with an ack number and no TLVs).
    v4("10.30.12.2", MAC_B) / EIGRP(opcode="Hello", asn=10, ack=5, tlvlist=[]),
    # EIGRP for IPv6: an update with internal and external routes.
    v6() / EIGRP(opcode="Update", asn=10, seq=11, tlvlist=[
        EIGRPv6IntRoute(nexthop="::", delay=2560, bandwidth=25600, mtu=1500, hopcount=0, reliability=255, load=1,
                        prefixlen=64, dst="fd30:12::"),
        EIGRPv6ExtRoute(nexthop="::", originrouter="3.3.3.3", originasn=10, tag=7, externalmetric=20,
                        extprotocolid="Static Route", flags=0, delay=2560, bandwidth=25600, mtu=1500, hopcount=1,
                        reliability=255, load=1, prefixlen=48, dst="2001:db8:3::")]),
]

if __name__ == "__main__":
    write_capture("igp-eigrp-crafted", 1, [raw(frame) for frame in frames])
