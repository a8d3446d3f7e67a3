#!/usr/bin/python3
"""IEEE 802.3 frames with a length and an 802.2 LLC header: SNAP carrying IPv4 and a Cisco
protocol ID, a plain SAP (NetBIOS) and padding after the length; an Ethernet II jumbo LLC frame
(EtherType 0x8870); what follows the upper layer as tshark names it: zero padding to 60 bytes, then a
non-zero trailer and, in a frame of 64 bytes or more, the frame check sequence it assumes (eth.padding,
eth.trailer, eth.fcs), and a short frame whose non-zero bytes to 60 are a trailer, not padding. Writes Corpus/captures/llc.pcap and its oracle (see common.py)."""
from scapy.all import IP, LLC, SNAP, UDP, Dot3, Ether, Raw, raw

from common import write_capture

frames = [
    Dot3(dst="00:11:22:33:44:66", src="00:11:22:33:44:55") / LLC(dsap=0xAA, ssap=0xAA, ctrl=3)
    / SNAP(OUI=0, code=0x0800) / IP(src="10.0.0.1", dst="10.0.0.2", id=1) / UDP(sport=1024, dport=9) / b"hello",
    Dot3(dst="01:00:0c:cc:cc:cc", src="00:11:22:33:44:55") / LLC(dsap=0xAA, ssap=0xAA, ctrl=3)
    / SNAP(OUI=0x00000C, code=0x7777) / Raw(b"\x01\x02\x03\x04"),
    Dot3(dst="00:11:22:33:44:66", src="00:11:22:33:44:55") / LLC(dsap=0xF0, ssap=0xF0, ctrl=3) / Raw(b"\xff\xef" + b"netbios"),
    Ether(dst="00:11:22:33:44:66", src="00:11:22:33:44:55", type=0x8870) / LLC(dsap=0xAA, ssap=0xAA, ctrl=3)
    / SNAP(OUI=0, code=0x0800) / IP(src="10.0.0.3", dst="10.0.0.4", id=2) / UDP(sport=1025, dport=9) / b"jumbo",
]
# The third frame padded to the 60-byte minimum: the length leaves the padding out.
frames = [raw(frame) for frame in frames]
frames[2] += bytes(60 - len(frames[2]))
netbios = raw(Dot3(dst="00:11:22:33:44:66", src="00:11:22:33:44:55") / LLC(dsap=0xF0, ssap=0xF0, ctrl=3)
              / Raw(b"\xff\xef" + b"netbios"))
frames.append(netbios + bytes(60 - len(netbios)) + b"\xde\xad" + b"\x01\x02\x03\x04")
udp = raw(Ether(dst="00:11:22:33:44:66", src="00:11:22:33:44:55") / IP(src="10.0.0.5", dst="10.0.0.6", id=3)
          / UDP(sport=1026, dport=9) / b"tail")
frames.append(udp + b"\xee" * (60 - len(udp)))
write_capture("llc", 1, frames)
