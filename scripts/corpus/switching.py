#!/usr/bin/env python3
"""Crafted captures of switching and first-hop protocols no Linux daemon speaks (scripts/capture-switching.sh
runs this after its lldpd captures). Every frame is built here, with scapy's Ethernet, LLC, SNAP,
IP, UDP and GRE layers (and its VTP layer) around payloads written out field by field; nothing is
sent anywhere. Deterministic: running again rewrites the same bytes.

    hsrp.pcap        HSRPv1 (UDP 1985 to 224.0.0.2): hellos from the active and the standby router,
                     a coup, a resign, an interface-state advertisement; HSRPv2 (UDP 1985 to
                     224.0.0.102): group state TLV with a text authentication TLV, group state with
                     an MD5 authentication TLV; HSRPv2 for IPv6 (UDP 2029 to ff02::66).
    glbp.pcap        GLBP (UDP 3222 to 224.0.0.102): hello with request/response TLVs (IPv4), with a
                     plain-text authentication TLV, and an IPv6 hello.
    udld.pcap        UDLD (SNAP, Cisco protocol ID 0x0111): probe, echo (with the neighbour's device
                     and port), flush.
    dtp.pcap         DTP (SNAP, Cisco protocol ID 0x2004): a desirable trunk port and an access port.
    vtp.pcap         VTP (SNAP, Cisco protocol ID 0x2003): summary advertisement, subset advertisement
                     with four VLANs (one with TLVs), advertisement request, join.
    cdp-tlvs.pcap    CDP TLVs lldpd does not send: IP prefixes and the ODR default gateway, protocol hello
                     (cluster management), VTP domain, native VLAN, duplex, VoIP VLAN reply and query,
                     power, MTU, trust bitmap, untrusted port CoS, system name and OID, management
                     addresses, location, power requested and available; CDPv1.
    pvst.pcap        PVST+ (SNAP, Cisco protocol ID 0x010b, to 01:00:0c:cc:cc:cd): configuration BPDUs of
                     VLANs 1 and 10 with the originating VLAN TLV, a Rapid PVST+ BPDU, and the same STP
                     BPDU after an 802.1Q tag.
    mvrp.pcap        MVRP (EtherType 0x88f5 to 01:80:c2:00:00:21): a new VID, JoinIn of a range of VIDs
                     packed three events to a byte, a LeaveAll.
    vlan-llc.pcap    802.3 frames after an 802.1Q tag: STP, CDP under SNAP, an IPv4 packet under SNAP
                     (OUI 0), and QinQ with an 802.3 frame inside.
    erspan.pcap      ERSPAN in GRE: type I (no GRE sequence number), type II, type III without and with
                     the platform-specific subheader; the mirrored frames are IPv4, an 802.1Q-tagged
                     frame and 802.3 frames with LLC (STP, CDP), one the session truncated (T bit; its
                     802.3 length runs past the frame's end, as tshark reads it: to the end).
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import write_capture  # noqa: E402

from scapy.all import (GRE, IP, IPv6, LLC, SNAP, UDP, Dot1AD, Dot1Q, Dot3, Ether, Raw, STP,  # noqa: E402
                       conf)
from scapy.contrib.vtp import VTP, VTPVlanInfo  # noqa: E402

conf.verb = 0
A = "00:00:0c:07:ac:01"
R1 = "00:1b:54:aa:00:01"
R2 = "00:1b:54:aa:00:02"
CISCO_MC = "01:00:0c:cc:cc:cc"


def b(packet):
    return bytes(packet)


# HSRP ------------------------------------------------------------------------------------------

def hsrp_v1(opcode, state, priority, group=1, vip="10.98.1.1", auth=b"cisco\0\0\0", hello=3, hold=10):
    return struct.pack("!8B", 0, opcode, state, hello, hold, priority, group, 0) + auth + bytes(map(int, vip.split(".")))


def hsrp_v1_advertise():
    # Op code 3: TLV type 1, length 10, state, reserved, active and passive group counts, reserved.
    return struct.pack("!BBHHBBHHI", 0, 3, 1, 10, 1, 0, 1, 0, 0)


def hsrp_v2_group_state(opcode, state, priority, group, vip, version=2, ipver=4, mac=R1, hello=3000, hold=10000):
    ident = bytes(int(x, 16) for x in mac.split(":"))
    address = bytes(map(int, vip.split("."))) + bytes(12) if ipver == 4 else vip
    value = struct.pack("!BBBBH", version, opcode, state, ipver, group) + ident + struct.pack("!III", priority, hello, hold) + address
    return struct.pack("!BB", 1, len(value)) + value


def hsrp_v2_text_auth(text=b"cisco"):
    return struct.pack("!BB", 3, 8) + text.ljust(8, b"\0")


def hsrp_v2_md5_auth():
    value = struct.pack("!BBHII", 1, 0, 0, 0x0A620103, 0) + bytes(range(0x10, 0x20))
    return struct.pack("!BB", 4, len(value)) + value


def hsrp_frames():
    v1 = lambda src, payload: b(Ether(src=src, dst="01:00:5e:00:00:02") / IP(src=src_ip[src], dst="224.0.0.2", ttl=1) /
                                UDP(sport=1985, dport=1985) / Raw(payload))
    src_ip = {R1: "10.98.1.2", R2: "10.98.1.3"}
    v2 = lambda src, payload: b(Ether(src=src, dst="01:00:5e:00:00:66") / IP(src=src_ip[src], dst="224.0.0.102", ttl=1) /
                                UDP(sport=1985, dport=1985) / Raw(payload))
    ipv6 = bytes.fromhex("fe800000000000000000000c9ff00001")
    return [
        v1(R1, hsrp_v1(0, 16, 110)),
        v1(R2, hsrp_v1(0, 8, 100)),
        v1(R2, hsrp_v1(1, 16, 120)),
        v1(R1, hsrp_v1(2, 4, 110)),
        v1(R1, hsrp_v1_advertise()),
        v2(R1, hsrp_v2_group_state(0, 6, 110, 10, "10.98.1.1") + hsrp_v2_text_auth()),
        v2(R2, hsrp_v2_group_state(0, 5, 100, 10, "10.98.1.1", mac=R2) + hsrp_v2_md5_auth()),
        b(Ether(src=R1, dst="33:33:00:00:00:66") / IPv6(src="fe80::21b:54ff:feaa:1", dst="ff02::66", hlim=255) /
          UDP(sport=2029, dport=2029) / Raw(hsrp_v2_group_state(0, 6, 110, 20, ipv6, ipver=6))),
    ]


# GLBP ------------------------------------------------------------------------------------------

def glbp_header(group, owner):
    return struct.pack("!BBH", 1, 0, group) + b"\0\0" + bytes(int(x, 16) for x in owner.split(":"))


def glbp_hello(state, priority, address):
    if len(address) == 4:
        kind = 1
    else:
        kind = 2
    value = struct.pack("!BBBBHIIHHHBB", 0, state, 0, priority, 0, 3000, 10000, 600, 14400, 2, kind, len(address)) + address
    return struct.pack("!BB", 1, len(value) + 2) + value


def glbp_reqresp(forwarder, state, priority, weight, mac):
    value = struct.pack("!BBBBB", forwarder, state, 0, priority, weight) + bytes(7) + bytes(int(x, 16) for x in mac.split(":"))
    return struct.pack("!BB", 2, len(value) + 2) + value


def glbp_auth_plain(text):
    value = struct.pack("!BB", 1, len(text)) + text
    return struct.pack("!BB", 3, len(value) + 2) + value


def glbp_frames():
    udp4 = lambda src, ip, payload: b(Ether(src=src, dst="01:00:5e:00:00:66") / IP(src=ip, dst="224.0.0.102", ttl=255) /
                                       UDP(sport=3222, dport=3222) / Raw(payload))
    return [
        udp4(R1, "10.98.1.2", glbp_header(1, R1) + glbp_hello(0x20, 110, bytes([10, 98, 1, 1])) +
             glbp_reqresp(1, 0x20, 167, 100, "00:07:b4:00:01:01") + glbp_reqresp(2, 0x04, 135, 100, "00:07:b4:00:01:02")),
        udp4(R2, "10.98.1.3", glbp_header(1, R2) + glbp_auth_plain(b"glbpkey") + glbp_hello(0x10, 100, bytes([10, 98, 1, 1])) +
             glbp_reqresp(2, 0x20, 167, 100, "00:07:b4:00:01:02")),
        b(Ether(src=R1, dst="33:33:00:00:00:66") / IPv6(src="fe80::21b:54ff:feaa:1", dst="ff02::66", hlim=255) /
          UDP(sport=3222, dport=3222) / Raw(glbp_header(1020, R1) +
                                            glbp_hello(0x20, 100, bytes.fromhex("fe80000000000000c800 08fffe64aaaa".replace(" ", ""))) +
                                            glbp_reqresp(1, 0x20, 167, 100, "00:07:b4:03:fc:01"))),
    ]


# UDLD, DTP, VTP: SNAP under Cisco's OUI --------------------------------------------------------

def cisco_snap(src, pid, payload, dst=CISCO_MC):
    # Padded to Ethernet's 60-byte minimum, as a switch sends it.
    return b(Dot3(src=src, dst=dst) / LLC(dsap=0xAA, ssap=0xAA, ctrl=3) / SNAP(OUI=0x00000C, code=pid) / Raw(payload)).ljust(60, b"\0")


def tlv16(kind, value):
    return struct.pack("!HH", kind, len(value) + 4) + value


def udld(opcode, flags, tlvs):
    body = b"".join(tlvs)
    header = struct.pack("!BBH", (1 << 5) | opcode, flags, 0)
    data = header + body
    # The internet checksum over the PDU, as Cisco computes it.
    padded = data + (b"\0" if len(data) % 2 else b"")
    total = sum(struct.unpack("!%dH" % (len(padded) // 2), padded))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return header[:2] + struct.pack("!H", ~total & 0xFFFF) + body


def udld_frames():
    return [
        cisco_snap(R1, 0x0111, udld(1, 0x03, [tlv16(1, b"FOX0001A1B2"), tlv16(2, b"Gi1/0/1"), tlv16(3, struct.pack("!I", 0)),
                                              tlv16(4, b"\x07"), tlv16(5, b"\x05"), tlv16(6, b"switch-1"), tlv16(7, struct.pack("!I", 1))])),
        cisco_snap(R2, 0x0111, udld(2, 0x00, [tlv16(1, b"FOX0002C3D4"), tlv16(2, b"Gi1/0/2"),
                                              tlv16(3, struct.pack("!I", 1) + struct.pack("!H", 11) + b"FOX0001A1B2" + struct.pack("!H", 7) + b"Gi1/0/1"),
                                              tlv16(4, b"\x0f"), tlv16(5, b"\x05"), tlv16(6, b"switch-2"), tlv16(7, struct.pack("!I", 2))])),
        cisco_snap(R1, 0x0111, udld(3, 0x00, [tlv16(1, b"FOX0001A1B2"), tlv16(2, b"Gi1/0/1"), tlv16(3, struct.pack("!I", 0)),
                                              tlv16(4, b"\x07"), tlv16(5, b"\x05"), tlv16(6, b"switch-1"), tlv16(7, struct.pack("!I", 3))])),
    ]


def dtp_frames():
    def dtp(src, status, kind, domain=b"\0" * 1):
        return cisco_snap(src, 0x2004, b"\x01" + tlv16(1, domain) + tlv16(2, bytes([status])) + tlv16(3, bytes([kind])) +
                          tlv16(4, bytes(int(x, 16) for x in src.split(":"))), dst="01:00:0c:cc:cc:cc")
    return [dtp(R1, 0x03, 0xA5, b"dsx\0"), dtp(R2, 0x02, 0x45)]


def vtp_frames():
    vlans = [VTPVlanInfo(status=0, type=1, vlanid=1, mtu=1500, dot10index=100001, vlanname="default"),
             VTPVlanInfo(status=0, type=1, vlanid=10, mtu=1500, dot10index=100010, vlanname="voice"),
             VTPVlanInfo(status=0, type=1, vlanid=20, mtu=1500, dot10index=100020, vlanname="data-vlan")]
    summary = VTP(ver=2, code=1, followers=1, domname="dsx", rev=7, uid="10.98.1.2", timestamp="261128080000",
                  md5=bytes(range(16)))
    subset = VTP(ver=2, code=2, seq=1, domname="dsx", rev=7, vlaninfo=vlans)
    # A token ring CRF VLAN with TLVs (ring number, parent VLAN, STE hop count, backup CRF mode),
    # written out: scapy's VLAN record keeps no TLVs.
    name = b"trcrf-default"
    padded = name.ljust((len(name) + 3) // 4 * 4, b"\0")
    tlvs = b"".join(struct.pack("!BBH", kind, 1, value) for kind, value in [(1, 0x0001), (4, 1005), (9, 7), (10, 0)])
    trcrf = struct.pack("!BBBBHHI", 12 + len(padded) + len(tlvs), 0, 3, len(name), 1003, 4472, 0x1873B) + padded + tlvs
    subset = bytes(subset) + trcrf
    request = VTP(ver=2, code=3, domname="dsx", startvalue=0)
    snap = lambda src, payload: b(Dot3(src=src, dst=CISCO_MC) / LLC(dsap=0xAA, ssap=0xAA, ctrl=3) / SNAP(OUI=0x00000C, code=0x2003) / payload)
    # Join (code 4): version, code, maxvlan?, domain length, domain (32), first and last VLAN, and
    # the VLAN bit field; written out, scapy's VTP has no join.
    join = struct.pack("!BBBB", 2, 4, 0, 3) + b"dsx".ljust(32, b"\0") + struct.pack("!HH", 1, 1005) + bytes(8)
    return [snap(R1, summary), snap(R1, subset), snap(R2, request), cisco_snap(R2, 0x2003, join)]


# CDP: the TLVs lldpd does not send ------------------------------------------------------------

def cdp_frames():
    def cdp(tlvs, version=2, ttl=180):
        body = b"".join(tlvs)
        header = struct.pack("!BBH", version, ttl, 0)
        data = header + body
        padded = data + (b"\0" if len(data) % 2 else b"")
        total = sum(struct.unpack("!%dH" % (len(padded) // 2), padded))
        while total >> 16:
            total = (total & 0xFFFF) + (total >> 16)
        return cisco_snap(R1, 0x2000, header[:2] + struct.pack("!H", ~total & 0xFFFF) + body)
    address = struct.pack("!IBBBH", 1, 1, 1, 0xCC, 4) + bytes([10, 98, 1, 2])
    cluster = (struct.pack("!I", 0x0A620101) + struct.pack("!I", 0x0A620102) + bytes([1, 2, 0x31, 0xFF]) +
               bytes.fromhex("001b54aa0001") + bytes.fromhex("001b54aa0002") + b"\0" + struct.pack("!H", 1))
    return [
        cdp([tlv16(1, b"switch-1"), tlv16(2, address), tlv16(3, b"GigabitEthernet1/0/1"), tlv16(4, struct.pack("!I", 0x28)),
             tlv16(5, b"Cisco IOS Software, C2960 Software"), tlv16(6, b"cisco WS-C2960-24TT-L"),
             tlv16(8, b"\x00\x00\x0c\x01\x12" + cluster), tlv16(9, b"dsx"), tlv16(0x0A, struct.pack("!H", 1)),
             tlv16(0x0B, b"\x01"), tlv16(0x0E, b"\x01" + struct.pack("!H", 500)), tlv16(0x0F, b"\x20" + struct.pack("!H", 0xFFFF)),
             tlv16(0x10, struct.pack("!H", 15400)), tlv16(0x11, struct.pack("!I", 1500)), tlv16(0x12, b"\x00"), tlv16(0x13, b"\x00"),
             tlv16(0x14, b"sw1.example"), tlv16(0x15, bytes.fromhex("06082b0601040109010516")), tlv16(0x16, address),
             tlv16(0x17, b"\x00" + b"Hall 3, room 214"),
             tlv16(0x1A, struct.pack("!HHIII", 1, 1, 15400, 0, 0xFFFFFFFF))]),
        cdp([tlv16(1, b"router-1"), tlv16(7, bytes([10, 98, 4, 0, 24, 10, 98, 5, 0, 24])),
             tlv16(0x19, struct.pack("!HHI", 1, 1, 15400))], version=2),
        cdp([tlv16(1, b"router-2"), tlv16(7, bytes([10, 98, 1, 254]))], version=1, ttl=60),
    ]


# PVST+ -----------------------------------------------------------------------------------------

def pvst_frames():
    pvst_mc = "01:00:0c:cc:cc:cd"

    def bpdu(vlan, version=0, kind=0, flags=0):
        stp = STP(proto=0, version=version, bpdutype=kind, bpduflags=flags, rootid=32768 + vlan, rootmac=R1, pathcost=0,
                  bridgeid=32768 + vlan, bridgemac=R1, portid=0x8001, age=0, maxage=20, hellotime=2, fwddelay=15)
        # The version 1 length (0), in configuration BPDUs too: the TLV starts at offset 36.
        return b(stp) + b"\x00" + struct.pack("!HHH", 0, 2, vlan)  # the originating VLAN TLV

    def frame(vlan, **kw):
        return b(Dot3(src=R1, dst=pvst_mc) / LLC(dsap=0xAA, ssap=0xAA, ctrl=3) / SNAP(OUI=0x00000C, code=0x010B) / Raw(bpdu(vlan, **kw)))
    tagged = b(Ether(src=R1, dst=pvst_mc, type=0x8100) / Dot1Q(vlan=10, type=0) /
               LLC(dsap=0xAA, ssap=0xAA, ctrl=3) / SNAP(OUI=0x00000C, code=0x010B) / Raw(bpdu(10)))
    # Dot1Q's type is the 802.3 length of what follows it.
    tagged = tagged[:16] + struct.pack("!H", len(tagged) - 18) + tagged[18:]
    return [frame(1), frame(10), frame(10, version=2, kind=2, flags=0x3C), tagged]


# MVRP ------------------------------------------------------------------------------------------

def mvrp_frames():
    def pdu(messages):
        return struct.pack("!B", 0) + b"".join(messages) + b"\0\0"

    def message(vectors):
        return struct.pack("!BB", 1, 2) + b"".join(vectors) + b"\0\0"

    def vector(leave_all, first_vid, events):
        packed = []
        for i in range(0, len(events), 3):
            group = (events[i:i + 3] + [0, 0])[:3]
            packed.append(group[0] * 36 + group[1] * 6 + group[2])
        return struct.pack("!HH", (leave_all << 13) | len(events), first_vid) + bytes(packed)

    eth = lambda src, payload: b(Ether(src=src, dst="01:80:c2:00:00:21", type=0x88F5) / Raw(payload))
    return [
        eth(R1, pdu([message([vector(0, 100, [0])])])),                     # New
        eth(R1, pdu([message([vector(0, 10, [1, 1, 1, 1, 3]), vector(0, 500, [2, 4])])])),  # JoinIn x4, JoinMt, In, Mt
        eth(R2, pdu([message([vector(1, 1, [3])])])),                       # LeaveAll with one JoinMt
    ]


# LLC after an 802.1Q tag -----------------------------------------------------------------------

def dot1q_802_3(vlan, payload, dst="01:80:c2:00:00:00", outer=None):
    inner = struct.pack("!HH", vlan, len(payload)) + payload
    if outer is not None:
        inner = struct.pack("!HH", outer, 0x8100) + inner
        tpid = 0x88A8
    else:
        tpid = 0x8100
    frame = bytes(int(x, 16) for x in dst.split(":")) + bytes(int(x, 16) for x in R1.split(":")) + struct.pack("!H", tpid) + inner
    return frame.ljust(60, b"\0")


def vlan_llc_frames():
    stp = b"\x42\x42\x03" + b(STP(rootmac=R1, bridgemac=R1, portid=0x8001))
    cdp = (b"\xaa\xaa\x03\x00\x00\x0c\x20\x00" + b"\x02\xb4\x00\x00" + tlv16(1, b"switch-1") + tlv16(3, b"Gi1/0/1"))
    ipv4 = b"\xaa\xaa\x03\x00\x00\x00\x08\x00" + b(IP(src="10.98.2.1", dst="10.98.2.2") / UDP(sport=1024, dport=9) / Raw(b"dsx"))
    return [
        dot1q_802_3(10, stp),
        dot1q_802_3(10, cdp, dst=CISCO_MC),
        dot1q_802_3(20, ipv4, dst="00:1b:54:aa:00:09"),
        dot1q_802_3(40, stp, outer=100),
    ]


# ERSPAN ----------------------------------------------------------------------------------------

def erspan_frames():
    outer = lambda: Ether(src=R1, dst=R2) / IP(src="10.98.3.1", dst="10.98.3.2", ttl=64)
    mirrored_ip = b(Ether(src="02:00:00:00:01:01", dst="02:00:00:00:01:02") / IP(src="10.0.0.1", dst="10.0.0.2") /
                    UDP(sport=40000, dport=9) / Raw(b"mirrored"))
    mirrored_tagged = b(Ether(src="02:00:00:00:01:01", dst="02:00:00:00:01:02") / Dot1Q(vlan=100) /
                        IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=40000, dport=9) / Raw(b"tagged"))
    mirrored_stp = b(Dot3(src="02:00:00:00:01:01", dst="01:80:c2:00:00:00") / LLC(dsap=0x42, ssap=0x42, ctrl=3) /
                     STP(rootmac=R1, bridgemac=R1, portid=0x8001))
    mirrored_cdp = (bytes.fromhex("01000ccccccc020000000101") + struct.pack("!H", 8 + 4 + 12 + 11) +
                    b"\xaa\xaa\x03\x00\x00\x0c\x20\x00" + b"\x02\xb4\x00\x00" + tlv16(1, b"switch-1") + tlv16(3, b"Gi1/0/1"))
    mirrored_cdp = mirrored_cdp.ljust(60, b"\0")
    # A CDP frame whose 802.3 length counts a platform TLV the mirror session cut off.
    cdp_tlvs = b"\xaa\xaa\x03\x00\x00\x0c\x20\x00" + b"\x02\xb4\x00\x00" + tlv16(1, b"switch-1") + tlv16(3, b"Gi1/0/1")
    truncated_cdp = (bytes.fromhex("01000ccccccc020000000101") + struct.pack("!H", len(cdp_tlvs) + 25) + cdp_tlvs)

    def type1(frame):
        return b(outer() / GRE(proto=0x88BE) / Raw(frame))

    def type2(seq, span, vlan, frame, encap=0, index=5, truncated=0):
        header = struct.pack("!HHI", (1 << 12) | vlan, (0 << 13) | (encap << 11) | (truncated << 10) | span, index)
        return b(outer() / GRE(seqnum_present=1, seqence_number=seq, proto=0x88BE) / Raw(header + frame))

    def type3(seq, span, vlan, frame, platform=None, direction=0):
        word2 = (0 << 15) | (0 << 10) | (1 << 4) | (direction << 3) | (3 << 1) | (1 if platform else 0)
        header = struct.pack("!HHIHH", (2 << 12) | vlan, span, 0x5F5E1000, 0, word2)
        if platform:
            header += platform
        return b(outer() / GRE(seqnum_present=1, seqence_number=seq, proto=0x22EB) / Raw(header + frame))

    platform3 = struct.pack("!HHI", (3 << 10) | 0, 42, 0x01020304)
    return [
        type1(mirrored_ip),
        type2(1, 300, 100, mirrored_ip),
        type2(2, 300, 100, mirrored_tagged, encap=3),
        type2(3, 300, 0, mirrored_stp),
        type2(4, 300, 0, mirrored_cdp),
        # The session truncated the mirrored frame (the T bit): its 802.3 length runs past the end.
        type2(8, 300, 0, truncated_cdp, truncated=1),
        type3(5, 400, 200, mirrored_ip),
        type3(6, 400, 200, mirrored_stp, platform=platform3, direction=1),
        type3(7, 400, 200, mirrored_tagged),
    ]


if __name__ == "__main__":
    for name, frames in [("hsrp", hsrp_frames()), ("glbp", glbp_frames()), ("udld", udld_frames()), ("dtp", dtp_frames()),
                         ("vtp", vtp_frames()), ("cdp-tlvs", cdp_frames()), ("pvst", pvst_frames()), ("mvrp", mvrp_frames()),
                         ("vlan-llc", vlan_llc_frames()), ("erspan", erspan_frames())]:
        write_capture(name, 1, frames)
