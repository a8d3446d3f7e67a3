#!/usr/bin/python3
"""Tunnels and layer-3 protocols over IP, crafted with scapy: GRE (key, sequence number,
checksum, RFC 1701 routing; IPv4, IPv6 and transparent Ethernet bridging inside; over IPv4 and
IPv6) and ERSPAN types I, II and III, IP in IP and IPv6 in IPv4, VXLAN, Geneve, IGMP v1/v2/v3,
PIM v2 (hello, join/prune), OSPFv2 (all five packet types) and an OSPFv3 hello, VRRP v2/v3,
BFD, IPsec AH and ESP. Writes Corpus/captures/<name>.pcap for each (or for the names given as
arguments) and its oracle (see common.py).

    cd scripts/corpus && /usr/bin/python3 tunnels.py [gre ipip vxlan ...]
"""
import sys

from scapy.all import (ARP, GRE, ICMP, IP, UDP, Ether, ICMPv6EchoRequest, IPOption_Router_Alert, IPv6, Raw, raw)
from scapy.contrib.erspan import ERSPAN_II, ERSPAN_III, ERSPAN_PlatformSpecific
from scapy.contrib.bfd import BFD
from scapy.contrib.igmp import IGMP
from scapy.contrib.ospf import (OSPF_DBDesc, OSPF_Hdr, OSPF_Hello, OSPF_Link, OSPF_LSA_Hdr, OSPF_LSAck, OSPF_LSReq,
                                OSPF_LSReq_Item, OSPF_LSUpd, OSPF_Router_LSA, OSPFv3_Hdr, OSPFv3_Hello)
from scapy.contrib.pim import (PIMv2GroupAddrs, PIMv2Hdr, PIMv2Hello, PIMv2HelloDRPriority, PIMv2HelloGenerationID,
                               PIMv2HelloHoldtime, PIMv2HelloLANPruneDelay, PIMv2HelloLANPruneDelayValue, PIMv2JoinAddrs,
                               PIMv2JoinPrune, PIMv2PruneAddrs)
from scapy.contrib.igmpv3 import IGMPv3, IGMPv3gr, IGMPv3mq, IGMPv3mr
from scapy.contrib.geneve import GENEVE, GeneveOptions
from scapy.layers.ipsec import AH, ESP
from scapy.layers.vrrp import VRRP, VRRPv3
from scapy.layers.vxlan import VXLAN

from common import write_capture

MAC_A, MAC_B = "00:11:22:33:44:55", "00:11:22:33:44:66"


def eth(dst=MAC_B, src=MAC_A):
    return Ether(dst=dst, src=src)


def ip(proto=None, src="192.0.2.1", dst="192.0.2.2", ident=1, **fields):
    if proto is not None:
        fields["proto"] = proto
    return IP(src=src, dst=dst, id=ident, **fields)


def inner_ipv4_udp(ident):
    return IP(src="10.0.0.1", dst="10.0.0.2", id=ident) / UDP(sport=40000, dport=9) / b"inner"


def gre():
    frames = [
        # Key and sequence number, IPv4 inside.
        eth() / ip(ident=1) / GRE(key_present=1, seqnum_present=1, key=0x2a, sequence_number=7, proto=0x0800)
        / inner_ipv4_udp(101),
        # Checksum (scapy computes it) and the reserved word after it, IPv6 inside.
        eth() / ip(ident=2) / GRE(chksum_present=1, proto=0x86DD)
        / IPv6(src="2001:db8::1", dst="2001:db8::2") / ICMPv6EchoRequest(id=1, seq=1),
        # Transparent Ethernet bridging (Linux gretap): a whole Ethernet frame.
        eth() / ip(ident=3) / GRE(key_present=1, key=0x10000, proto=0x6558)
        / Ether(dst="ff:ff:ff:ff:ff:ff", src="02:00:00:00:00:01") / ARP(psrc="10.1.0.1", pdst="10.1.0.2", hwsrc="02:00:00:00:00:01"),
        # ERSPAN type II: GRE with a sequence number, protocol 0x88be.
        eth() / ip(ident=4) / GRE(seqnum_present=1, sequence_number=1, proto=0x88BE)
        / ERSPAN_II(ver=1, vlan=100, cos=5, en=3, t=0, session_id=300, index=0x12345)
        / Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:03") / inner_ipv4_udp(102),
        # ERSPAN type III (0x22eb) without, then with the platform-specific subheader.
        eth() / ip(ident=5) / GRE(seqnum_present=1, sequence_number=2, proto=0x22EB)
        / ERSPAN_III(vlan=200, cos=1, bso=0, t=1, session_id=5, timestamp=0x01020304, sgt_other=77, p=1, ft=0,
                     hw=9, d=1, gra=2, o=0)
        / Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:03") / inner_ipv4_udp(103),
        eth() / ip(ident=6) / GRE(seqnum_present=1, sequence_number=3, proto=0x22EB)
        / ERSPAN_III(vlan=0, cos=0, session_id=6, timestamp=0xa0b0c0d0, sgt_other=0, hw=1, gra=3, o=1)
        / ERSPAN_PlatformSpecific(platf_id=3, info1=0x1234, info2=0x55667788)
        / Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:03") / inner_ipv4_udp(104),
        # ERSPAN type I: no sequence number, no header.
        eth() / ip(ident=7) / GRE(proto=0x88BE) / Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:03")
        / inner_ipv4_udp(105),
        # RFC 1701 routing: an IPv4 source route entry, then the empty entry that ends the list.
        eth() / ip(ident=8) / GRE(routing_present=1, chksum=0, offset=0, proto=0x0800)
        / Raw(bytes.fromhex("08000004" "c0000263" "00000000")) / inner_ipv4_udp(106),
        # GRE over IPv6 (next header 47) with a key, IPv4 inside.
        eth() / IPv6(src="2001:db8::1", dst="2001:db8::2") / GRE(key_present=1, key=0xFFFFFFFF, proto=0x0800)
        / inner_ipv4_udp(107),
    ]
    write_capture("gre", 1, [raw(frame) for frame in frames])


def vxlan():
    frames = [
        # The I flag and a VNI; the inner frame carries IPv4 and UDP.
        eth() / ip(ident=11) / UDP(sport=49152, dport=4789) / VXLAN(flags=0x08, vni=42)
        / Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:03") / inner_ipv4_udp(111),
        # Group policy (G, D and A flags and a group policy ID), ARP inside; port 4789 as the source.
        eth() / ip(ident=12) / UDP(sport=4789, dport=49153) / VXLAN(flags=0x88, gpflags=0x48, gpid=0x1234, vni=0xABCDE)
        / Ether(dst="ff:ff:ff:ff:ff:ff", src="02:00:00:00:00:01") / ARP(psrc="10.1.0.1", pdst="10.1.0.2", hwsrc="02:00:00:00:00:01"),
    ]
    write_capture("vxlan", 1, [raw(frame) for frame in frames])


def geneve():
    frames = [
        # No options; transparent Ethernet bridging inside.
        eth() / ip(ident=21) / UDP(sport=49152, dport=6081) / GENEVE(vni=0x1234, proto=0x6558)
        / Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:03") / inner_ipv4_udp(121),
        # Two options (a critical one, 8 bytes of data; one with 4 bytes), the O and C bits; IPv4 inside.
        eth() / ip(ident=22) / UDP(sport=49153, dport=6081)
        / GENEVE(vni=7, proto=0x0800, oam=1, critical=1,
                 options=[GeneveOptions(classid=0x0102, type=0x80, data=b"\x01\x02\x03\x04\x05\x06\x07\x08"),
                          GeneveOptions(classid=0xFFFF, type=0x01, data=b"abcd")])
        / inner_ipv4_udp(122),
        # IPv6 inside.
        eth() / ip(ident=23) / UDP(sport=49154, dport=6081) / GENEVE(vni=0xFFFFFF, proto=0x86DD)
        / IPv6(src="2001:db8::1", dst="2001:db8::2") / ICMPv6EchoRequest(id=2, seq=2),
    ]
    write_capture("geneve", 1, [raw(frame) for frame in frames])


def ipip():
    frames = [
        # IP in IP (protocol 4) and IPv6 in IPv4 (protocol 41): ip.schema's registrations.
        eth() / ip(ident=31) / IP(src="10.0.0.1", dst="10.0.0.2", id=131) / ICMP(id=1, seq=1) / b"ping",
        eth() / ip(ident=32) / IPv6(src="2001:db8::1", dst="2001:db8::2") / UDP(sport=40000, dport=9) / b"6in4",
    ]
    write_capture("ipip", 1, [raw(frame) for frame in frames])


def igmp():
    alert = [IPOption_Router_Alert()]
    frames = [
        # IGMPv1 query (max response time 0) and report.
        eth("01:00:5e:00:00:01") / ip(ident=41, dst="224.0.0.1", ttl=1) / IGMP(type=0x11, mrcode=0, gaddr="0.0.0.0"),
        eth("01:00:5e:01:02:03") / ip(ident=42, dst="239.1.2.3", ttl=1) / IGMP(type=0x12, mrcode=0, gaddr="239.1.2.3"),
        # IGMPv2 general query, report and leave, with the router alert option.
        eth("01:00:5e:00:00:01") / ip(ident=43, dst="224.0.0.1", ttl=1, options=alert) / IGMP(type=0x11, mrcode=100),
        eth("01:00:5e:01:02:03") / ip(ident=44, dst="239.1.2.3", ttl=1, options=alert)
        / IGMP(type=0x16, mrcode=0, gaddr="239.1.2.3"),
        eth("01:00:5e:00:00:02") / ip(ident=45, dst="224.0.0.2", ttl=1, options=alert)
        / IGMP(type=0x17, mrcode=0, gaddr="239.1.2.3"),
        # IGMPv3 group-and-source-specific query with two sources.
        eth("01:00:5e:01:02:03") / ip(ident=46, dst="239.1.2.3", ttl=1, options=alert)
        / IGMPv3(type=0x11, mrcode=10) / IGMPv3mq(gaddr="239.1.2.3", s=1, qrv=2, qqic=125, srcaddrs=["10.0.0.1", "10.0.0.2"]),
        # IGMPv3 report with two group records (one with a source and auxiliary data).
        eth("01:00:5e:00:00:16") / ip(ident=47, dst="224.0.0.22", ttl=1, options=alert)
        / IGMPv3(type=0x22, mrcode=0)
        / IGMPv3mr(records=[IGMPv3gr(rtype=1, maddr="239.1.2.3", srcaddrs=["10.0.0.1"], auxdlen=1) / Raw(b"auxd"),
                            IGMPv3gr(rtype=4, maddr="239.4.5.6")]),
    ]
    write_capture("igmp", 1, [raw(frame) for frame in frames])


def pim():
    pim_dst = dict(dst="224.0.0.13", ttl=1)
    frames = [
        # Hello: holdtime, LAN prune delay, DR priority and generation ID options.
        eth("01:00:5e:00:00:0d") / ip(ident=51, **pim_dst) / PIMv2Hdr(type=0)
        / PIMv2Hello(option=[PIMv2HelloHoldtime(holdtime=105),
                             PIMv2HelloLANPruneDelay(value=[PIMv2HelloLANPruneDelayValue(t=1, propagation_delay=500,
                                                                                         override_interval=2500)]),
                             PIMv2HelloDRPriority(dr_priority=7), PIMv2HelloGenerationID(generation_id=0x12345678)]),
        # Join/Prune: one group joined from a source, one (*,G) group pruned.
        eth("01:00:5e:00:00:0d") / ip(ident=52, **pim_dst) / PIMv2Hdr(type=3)
        / PIMv2JoinPrune(up_neighbor_ip="192.0.2.9", holdtime=210, jp_ips=[
            PIMv2GroupAddrs(gaddr="239.1.2.3", join_ips=[PIMv2JoinAddrs(src_ip="10.0.0.1", sparse=1, rpt=0)]),
            PIMv2GroupAddrs(gaddr="239.4.5.6", prune_ips=[PIMv2PruneAddrs(src_ip="10.0.0.9", sparse=1, wildcard=1, rpt=1)])]),
    ]
    write_capture("pim", 1, [raw(frame) for frame in frames])


def ospf():
    ospf_dst = dict(dst="224.0.0.5", ttl=1)
    router_lsa = OSPF_Router_LSA(age=3, options=0x02, id="192.0.2.1", adrouter="192.0.2.1", seq=0x80000001, flags=0x01,
                                 linklist=[OSPF_Link(id="192.0.2.0", data="255.255.255.0", type=3, metric=10),
                                           OSPF_Link(id="192.0.2.2", data="192.0.2.1", type=1, metric=1)])
    frames = [
        # Hello with two neighbors, simple password authentication.
        eth("01:00:5e:00:00:05") / ip(ident=61, **ospf_dst)
        / OSPF_Hdr(src="192.0.2.1", area="0.0.0.1", authtype=1, authdata=0x7061737377643132)
        / OSPF_Hello(mask="255.255.255.0", hellointerval=10, options=0x02, prio=1, deadinterval=40,
                     router="192.0.2.1", backup="192.0.2.2", neighbors=["192.0.2.2", "192.0.2.3"]),
        # Database description with one LSA header.
        eth() / ip(ident=62, dst="192.0.2.2") / OSPF_Hdr(type=2, src="192.0.2.1")
        / OSPF_DBDesc(mtu=1500, options=0x02, dbdescr=0x07, ddseq=4242, lsaheaders=[
            OSPF_LSA_Hdr(age=3, options=0x02, type=1, id="192.0.2.1", adrouter="192.0.2.1", seq=0x80000001, chksum=0x1234, len=48)]),
        # Link state request.
        eth() / ip(ident=63, dst="192.0.2.2") / OSPF_Hdr(type=3, src="192.0.2.1")
        / OSPF_LSReq(requests=[OSPF_LSReq_Item(type=1, id="192.0.2.2", adrouter="192.0.2.2")]),
        # Link state update carrying a router-LSA with two links.
        eth("01:00:5e:00:00:05") / ip(ident=64, **ospf_dst) / OSPF_Hdr(type=4, src="192.0.2.1") / OSPF_LSUpd(lsalist=[router_lsa]),
        # Link state acknowledgment.
        eth("01:00:5e:00:00:05") / ip(ident=65, **ospf_dst) / OSPF_Hdr(type=5, src="192.0.2.1")
        / OSPF_LSAck(lsaheaders=[OSPF_LSA_Hdr(age=4, options=0x02, type=1, id="192.0.2.2", adrouter="192.0.2.2",
                                              seq=0x80000002, chksum=0x4321, len=36)]),
        # OSPFv3 hello over IPv6, with one neighbor.
        eth("33:33:00:00:00:05") / IPv6(src="fe80::1", dst="ff02::5", hlim=1)
        / OSPFv3_Hdr(src="192.0.2.1", area="0.0.0.0", instance=0)
        / OSPFv3_Hello(intid=5, prio=1, options=0x13, hellointerval=10, deadinterval=40, router="192.0.2.1",
                       backup="0.0.0.0", neighbors=["192.0.2.2"]),
    ]
    write_capture("ospf", 1, [raw(frame) for frame in frames])


def vrrp():
    frames = [
        # VRRPv2 with two addresses and simple text authentication.
        eth("01:00:5e:00:00:12", "00:00:5e:00:01:07") / ip(112, ident=71, dst="224.0.0.18", ttl=255)
        / VRRP(vrid=7, priority=200, authtype=1, adv=1, addrlist=["192.0.2.100", "192.0.2.101"],
               auth1=0x73656372, auth2=0x65740000),
        # VRRPv3 over IPv4 and over IPv6.
        eth("01:00:5e:00:00:12", "00:00:5e:00:01:08") / ip(112, ident=72, dst="224.0.0.18", ttl=255)
        / VRRPv3(vrid=8, priority=100, adv=100, addrlist=["192.0.2.100"]),
        eth("33:33:00:00:00:12", "00:00:5e:00:02:09") / IPv6(src="fe80::1", dst="ff02::12", hlim=255, nh=112)
        / VRRPv3(vrid=9, priority=255, adv=50, addrlist=["fe80::100", "2001:db8::100"]),
    ]
    write_capture("vrrp", 1, [raw(frame) for frame in frames])


def bfd():
    frames = [
        # Control packets: single hop (3784), Up with the control plane independent flag; multihop (4784), Init with a poll.
        eth() / ip(ident=81) / UDP(sport=49152, dport=3784)
        / BFD(version=1, diag=0, sta=3, flags=0x08, detect_mult=3, my_discriminator=1, your_discriminator=2,
              min_tx_interval=300000, min_rx_interval=300000, echo_rx_interval=0),
        eth() / ip(ident=82) / UDP(sport=49153, dport=4784)
        / BFD(version=1, diag=1, sta=2, flags=0x20, detect_mult=5, my_discriminator=0x10, your_discriminator=0,
              min_tx_interval=1000000, min_rx_interval=1000000, echo_rx_interval=50000),
    ]
    write_capture("bfd", 1, [raw(frame) for frame in frames])


def ipsec():
    def transport(outer, inner):
        # The inner header's checksum computed over the outer addresses, as if AH were not there.
        return raw((outer / inner).payload)

    icv = bytes(range(0xA0, 0xAC))
    v4 = ip(ident=91)
    v6 = IPv6(src="2001:db8::1", dst="2001:db8::2")
    frames = [
        # AH (96-bit ICV) in transport mode over UDP, in tunnel mode over IPv4, and over IPv6 carrying ICMPv6.
        eth() / ip(51, ident=91) / AH(nh=17, payloadlen=4, reserved=0, spi=0x1000, seq=1, icv=icv)
        / Raw(transport(v4, UDP(sport=40000, dport=9) / b"ah")),
        eth() / ip(51, ident=92) / AH(nh=4, payloadlen=4, reserved=0, spi=0x1001, seq=2, icv=icv) / inner_ipv4_udp(192),
        eth() / IPv6(src="2001:db8::1", dst="2001:db8::2", nh=51)
        / AH(nh=58, payloadlen=4, reserved=0, spi=0x1002, seq=3, icv=icv)
        / Raw(transport(v6, ICMPv6EchoRequest(id=3, seq=3))),
        # ESP: SPI and sequence number, then the encrypted rest.
        eth() / ip(50, ident=93) / ESP(spi=0x2000, seq=5, data=bytes(range(32))),
        eth() / IPv6(src="2001:db8::1", dst="2001:db8::2", nh=50) / ESP(spi=0x2001, seq=6, data=bytes(range(24))),
    ]
    write_capture("ipsec", 1, [raw(frame) for frame in frames])


CAPTURES = {"gre": gre, "ipip": ipip, "vxlan": vxlan, "geneve": geneve, "igmp": igmp, "pim": pim, "ospf": ospf,
            "vrrp": vrrp, "bfd": bfd, "ipsec": ipsec}

if __name__ == "__main__":
    for name in sys.argv[1:] or CAPTURES:
        CAPTURES[name]()
