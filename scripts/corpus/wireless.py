#!/usr/bin/python3
"""802.11 link types, Linux NFLOG and IP over InfiniBand, crafted with scapy. Writes into Corpus/captures (with each
capture's oracle, see common.py):

  wlan.pcap      link type 105: bare 802.11 frames. Management: beacon, probe request and
                 response, authentication, association request and response, with SSID, rates,
                 DS parameter set, TIM and RSN elements; control: RTS, CTS, ACK, Block Ack
                 Request, basic Block Ack; data: to and from the DS, four addresses, QoS data,
                 CCMP- and WEP-protected frames, null data, HT control; reassociation,
                 deauthentication, an ADDBA action frame, PS-Poll.
  radiotap.pcap  link type 127: radiotap headers (TSFT, flags, rate, channel, signal, noise,
                 antenna, RX flags: alignment padding before the channel and the RX flags; two
                 present words) before a beacon, a QoS data frame and a probe request whose
                 flags say an FCS ends it.
  nflog.pcap     link type 239: NFLOG headers with TLVs (hardware protocol, hook, prefix,
                 interface indices, UID, GID, mark, hardware address, timestamp, payload) around
                 IPv4 and IPv6 packets.
  ipoib.pcap     link type 242: IP over InfiniBand, the 40-byte pseudo-header as a destination
                 address alone or as a global route header, before IPv4, IPv6 and ARP.

Run with /usr/bin/python3 (scapy 2.5) from this folder.
"""
import struct

from scapy.all import IP, IPv6, UDP, TCP, ICMP, ARP, LLC, SNAP, raw
from scapy.layers.dot11 import (RadioTap, Dot11, Dot11FCS, Dot11Beacon, Dot11Elt, Dot11ProbeReq, Dot11ProbeResp,
                                Dot11Auth, Dot11AssoReq, Dot11AssoResp, Dot11QoS)

from common import write_capture

AP = "02:00:00:00:aa:01"
STA = "02:00:00:00:bb:02"
HOST = "02:00:00:00:cc:03"
BROADCAST = "ff:ff:ff:ff:ff:ff"

# RSN element: version 1, CCMP group cipher, one pairwise (CCMP), one AKM (PSK), capabilities.
RSN = struct.pack("<H", 1) + bytes.fromhex("000fac04") + struct.pack("<H", 1) + bytes.fromhex("000fac04") \
    + struct.pack("<H", 1) + bytes.fromhex("000fac02") + struct.pack("<H", 0x000c)


def elements(ssid=b"dissect", tim=True, rsn=True):
    out = Dot11Elt(ID=0, info=ssid) / Dot11Elt(ID=1, info=bytes([0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24]))
    out = out / Dot11Elt(ID=3, info=bytes([6]))
    if tim:
        out = out / Dot11Elt(ID=5, info=bytes([0, 3, 0, 0x02]))
    if rsn:
        out = out / Dot11Elt(ID=48, info=RSN)
    return out


def snap_udp(src, dst, payload):
    return LLC(dsap=0xAA, ssap=0xAA, ctrl=3) / SNAP(OUI=0, code=0x0800) / IP(src=src, dst=dst, id=7) \
        / UDP(sport=1024, dport=9) / payload


beacon = Dot11(type=0, subtype=8, addr1=BROADCAST, addr2=AP, addr3=AP, SC=0x0120) \
    / Dot11Beacon(timestamp=0x0102030405, beacon_interval=100, cap=0x0411) / elements()
def probe_request(header=Dot11):
    return header(type=0, subtype=4, addr1=BROADCAST, addr2=STA, addr3=BROADCAST, SC=0x0130) / Dot11ProbeReq() \
        / Dot11Elt(ID=0, info=b"dissect") / Dot11Elt(ID=1, info=bytes([0x02, 0x04, 0x0b, 0x16]))
probe_response = Dot11(type=0, subtype=5, addr1=STA, addr2=AP, addr3=AP, SC=0x0140) \
    / Dot11ProbeResp(timestamp=0x0a0b0c0d, beacon_interval=100, cap=0x0411) / elements(tim=False)
auth = Dot11(type=0, subtype=11, addr1=AP, addr2=STA, addr3=AP, SC=0x0150) / Dot11Auth(algo=0, seqnum=1, status=0)
assoc_request = Dot11(type=0, subtype=0, addr1=AP, addr2=STA, addr3=AP, SC=0x0160) \
    / Dot11AssoReq(cap=0x0431, listen_interval=10) / elements(tim=False)
assoc_response = Dot11(type=0, subtype=1, addr1=STA, addr2=AP, addr3=AP, SC=0x0170) \
    / Dot11AssoResp(cap=0x0411, status=0, AID=0xc001) / Dot11Elt(ID=1, info=bytes([0x82, 0x84, 0x8b, 0x96]))

rts = Dot11(type=1, subtype=11, ID=0x013a, addr1=AP, addr2=STA)
cts = Dot11(type=1, subtype=12, ID=0x0100, addr1=STA)
ack = Dot11(type=1, subtype=13, addr1=STA)
# Block Ack Request and a basic Block Ack (128-byte bitmap): control (TID in bits 12-15),
# starting sequence control (fragment number 0, starting sequence number 0x123 << 4).
bar = raw(Dot11(type=1, subtype=8, ID=0x0030, addr1=AP, addr2=STA)) + struct.pack("<HH", 0x5000, 0x1230)
block_ack = raw(Dot11(type=1, subtype=9, ID=0x0000, addr1=STA, addr2=AP)) + struct.pack("<HH", 0x5000, 0x1230) \
    + bytes(range(128))

data_to_ds = Dot11(type=2, subtype=0, FCfield="to-DS", ID=0x002c, addr1=AP, addr2=STA, addr3=HOST, SC=0x0200) \
    / snap_udp("192.0.2.2", "192.0.2.3", b"to the DS")
data_from_ds = Dot11(type=2, subtype=0, FCfield="from-DS+retry", addr1=STA, addr2=AP, addr3=HOST, SC=0x0211) \
    / LLC(dsap=0xAA, ssap=0xAA, ctrl=3) / SNAP(OUI=0, code=0x0806) / ARP(op=2, hwsrc=HOST, psrc="192.0.2.3",
                                                                       hwdst=STA, pdst="192.0.2.2")
wds = Dot11(type=2, subtype=0, FCfield="to-DS+from-DS", addr1="02:00:00:00:dd:04", addr2=AP, addr3=HOST,
            addr4=STA, SC=0x0220) / snap_udp("192.0.2.2", "192.0.2.3", b"four addresses")
qos_data = Dot11(type=2, subtype=8, FCfield="from-DS", addr1=STA, addr2=AP, addr3=HOST, SC=0x0230) \
    / Dot11QoS(TID=5, Ack_Policy=0, TXOP=0) / snap_udp("192.0.2.3", "192.0.2.2", b"qos")
# CCMP: PN0 PN1, reserved, key ID 0 with Ext IV, PN2..PN5; then ciphertext and the 8-byte MIC.
ccmp = raw(Dot11(type=2, subtype=8, FCfield="to-DS+protected", addr1=AP, addr2=STA, addr3=HOST, SC=0x0240)
           / Dot11QoS(TID=0)) + bytes.fromhex("0100002000000000") + bytes(range(40, 72)) + bytes(8)
# QoS data with an HT control field (the order bit), whose payload is an ARP request
htc_data = raw(Dot11(type=2, subtype=8, FCfield="to-DS+order", addr1=AP, addr2=STA, addr3=HOST, SC=0x0260)
               / Dot11QoS(TID=6)) + struct.pack("<I", 0x00000001) + raw(
    LLC(dsap=0xAA, ssap=0xAA, ctrl=3) / SNAP(OUI=0, code=0x0806) / ARP(op=1, hwsrc=STA, psrc="192.0.2.2", pdst="192.0.2.3"))
# Reassociation request (current AP), deauthentication (reason code), an action frame (category
# and action as bytes), PS-Poll (the duration field holds the AID)
reassoc_request = Dot11(type=0, subtype=2, addr1=AP, addr2=STA, addr3=AP, SC=0x0270) \
    / raw(struct.pack("<HH", 0x0411, 10)) / raw(bytes.fromhex("020000000ee5")) \
    / Dot11Elt(ID=0, info=b"dissect") / Dot11Elt(ID=50, info=bytes([0x30, 0x48, 0x60, 0x6c])) \
    / Dot11Elt(ID=221, info=bytes.fromhex("0050f202000100"))
deauth = Dot11(type=0, subtype=12, addr1=STA, addr2=AP, addr3=AP, SC=0x0280) / raw(struct.pack("<H", 3))
action = Dot11(type=0, subtype=13, addr1=AP, addr2=STA, addr3=AP, SC=0x0290) / raw(bytes([3, 0, 1, 0x02, 0x10, 0x00, 0, 0x10, 0x00]))
# WEP: IV, key ID 1, ciphertext and ICV
wep = raw(Dot11(type=2, subtype=0, FCfield="to-DS+protected", addr1=AP, addr2=STA, addr3=HOST, SC=0x02a0)) \
    + bytes.fromhex("a1b2c340") + bytes(range(100, 120)) + bytes.fromhex("01020304")
ps_poll = Dot11(type=1, subtype=10, ID=0xc001, addr1=AP, addr2=STA)
null_data = Dot11(type=2, subtype=4, FCfield="to-DS+pw-mgt", ID=0x0030, addr1=AP, addr2=STA, addr3=AP, SC=0x0250)

wlan_frames = [beacon, probe_request(), probe_response, auth, assoc_request, assoc_response, rts, cts, ack, bar,
               block_ack, data_to_ds, data_from_ds, wds, qos_data, ccmp, null_data, htc_data, reassoc_request, deauth,
               action, ps_poll, wep]
write_capture("wlan", 105, [raw(frame) for frame in wlan_frames])


def radiotap(fields, fcs=False):
    """A radiotap header: `fields` is a list of (bit, alignment, bytes) in bit order."""
    present = [0]
    for bit, _, _ in fields:
        while len(present) <= bit // 32:
            present.append(0)
        present[bit // 32] |= 1 << bit % 32
    # More words: each after one with the radiotap namespace bit (29) and the extension bit (31).
    header_words = b"".join(struct.pack("<I", word | (0xa0000000 if number + 1 < len(present) else 0))
                            for number, word in enumerate(present))
    start = 4 + len(header_words)
    body = b""
    for bit, align, value in fields:
        while (start + len(body)) % align:
            body += b"\0"
        body += value
    return struct.pack("<BBH", 0, 0, start + len(body)) + header_words + body


FLAGS_SHORT_PREAMBLE, FLAGS_FCS = 0x02, 0x10
radiotap_frames = [
    # TSFT, flags, rate, channel, signal, noise, antenna, RX flags (one byte of padding before them)
    radiotap([(0, 8, struct.pack("<Q", 123456789012)), (1, 1, bytes([FLAGS_SHORT_PREAMBLE])), (2, 1, bytes([2])),
              (3, 2, struct.pack("<HH", 2437, 0x00a0)), (5, 1, struct.pack("b", -40)), (6, 1, struct.pack("b", -95)),
              (11, 1, bytes([1])), (14, 2, struct.pack("<H", 0))]) + raw(beacon),
    # flags, channel (one byte of padding), signal: QoS data with LLC, SNAP, IPv4, UDP
    radiotap([(1, 1, bytes([0])), (3, 2, struct.pack("<HH", 5180, 0x0140)), (5, 1, struct.pack("b", -55))])
    + raw(qos_data),
    # flags with FCS, rate, channel, antenna, and a second present word (empty): the frame ends with its FCS
    radiotap([(1, 1, bytes([FLAGS_FCS])), (2, 1, bytes([12])), (3, 2, struct.pack("<HH", 2412, 0x00c0)),
              (11, 1, bytes([0])), (32 + 5, 1, struct.pack("b", -60))]) + raw(probe_request(Dot11FCS)),
    # 802.11n: TSFT, flags, channel, signal, MCS (known, flags: 40 MHz, short GI, LDPC; index 7), A-MPDU
    # status (one byte of padding before it)
    radiotap([(0, 8, struct.pack("<Q", 987654321)), (1, 1, bytes([0])), (3, 2, struct.pack("<HH", 5200, 0x0140)),
              (5, 1, struct.pack("b", -50)), (19, 1, bytes([0x7f, 0x15, 7])), (20, 4, struct.pack("<IHBB", 42, 0x0003, 0, 0))])
    + raw(qos_data),
    # 802.11ac: flags, channel, VHT (known; flags: STBC, short GI; 80 MHz; user 0: MCS 9, 2 streams;
    # coding, group ID, partial AID), timestamp (accuracy valid, unit microseconds, sampling position 1)
    radiotap([(1, 1, bytes([0])), (3, 2, struct.pack("<HH", 5500, 0x0140)),
              (21, 2, struct.pack("<HBB4sBBH", 0x0045, 0x05, 4, bytes([0x92, 0, 0, 0]), 0, 0, 0)),
              (22, 8, struct.pack("<QHBB", 123456, 22, 0x11, 0x02))]) + raw(beacon),
]
write_capture("radiotap", 127, radiotap_frames)


def tlv(kind, value):
    """An NFLOG TLV: length and type in host byte order (little-endian here), the value padded to 4 bytes."""
    data = struct.pack("<HH", 4 + len(value), kind) + value
    return data + bytes(-len(data) % 4)


def nflog(family, resource, tlvs):
    return struct.pack("!BBH", family, 0, resource) + b"".join(tlvs)


ipv4 = raw(IP(src="198.51.100.1", dst="198.51.100.2", id=9) / TCP(sport=40000, dport=80, flags="S", seq=1000))
ipv6 = raw(IPv6(src="2001:db8::1", dst="2001:db8::2") / UDP(sport=1024, dport=9) / b"nflog")
icmp = raw(IP(src="198.51.100.2", dst="198.51.100.1", id=10) / ICMP(type=8, id=1, seq=1) / b"ping")
nflog_frames = [
    # packet header (hardware protocol IPv4, hook 1: input), in-device, a prefix, UID, GID, payload
    nflog(2, 1, [tlv(1, struct.pack("!HBB", 0x0800, 1, 0)), tlv(4, struct.pack("!I", 2)),
                 tlv(10, b"dissect-in\0"), tlv(11, struct.pack("!I", 1000)), tlv(14, struct.pack("!I", 1000)),
                 tlv(9, ipv4)]),
    # IPv6 on the output hook, out-device, mark, a prefix that needs padding, payload of odd length
    nflog(10, 2, [tlv(1, struct.pack("!HBB", 0x86DD, 3, 0)), tlv(5, struct.pack("!I", 3)),
                  tlv(2, struct.pack("!I", 0x2a)), tlv(10, b"out\0"), tlv(9, ipv6)]),
    # a hardware address and timestamp before an ICMP echo
    nflog(2, 1, [tlv(1, struct.pack("!HBB", 0x0800, 1, 0)), tlv(8, struct.pack("!HH", 6, 0) + bytes.fromhex("020000000cc30000")),
                 tlv(3, struct.pack("!QQ", 1767225600, 500)), tlv(9, icmp)]),
]
write_capture("nflog", 239, nflog_frames)

# IPoIB (link type 242): a 40-byte pseudo-header, then the EtherType and a reserved word.
GID_A = bytes.fromhex("fe800000000000000002c9030012abcd")
GID_B = bytes.fromhex("fe800000000000000002c9030012ef01")
unicast = bytes(20) + struct.pack("!I", 0x48) + GID_B     # first 16 bits zero: the destination only
grh = struct.pack("!I", 0x6012345f) + struct.pack("!I", 0x49) + GID_A + GID_B
ipoib_frames = [
    unicast + struct.pack("!HH", 0x0800, 0) + raw(IP(src="10.1.0.1", dst="10.1.0.2", id=3) / UDP(sport=1024, dport=9)
                                                  / b"ipoib"),
    grh + struct.pack("!HH", 0x86DD, 0) + raw(IPv6(src="fd00::1", dst="fd00::2") / UDP(sport=1024, dport=9) / b"grh"),
    unicast + struct.pack("!HH", 0x0806, 0) + raw(ARP(hwtype=32, hwlen=20, plen=4, op=1, psrc="10.1.0.1", pdst="10.1.0.2",
                                                      hwsrc=b"\0\0\0\x49" + GID_A, hwdst=bytes(20))),
]
write_capture("ipoib", 242, ipoib_frames)
