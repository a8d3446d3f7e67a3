"""Builds captures of link types loopback cannot produce, from real captured IP packets.

Each output wraps the IP packets of Corpus/captures/{icmp,dns,tcp}.pcap in another
encapsulation, so the inner bytes stay real traffic.
"""
import struct
import sys

from scapy.all import (IP, TCP, UDP, Dot1Q, Ether, IPv6, IPv6ExtHdrDestOpt, IPv6ExtHdrFragment, IPv6ExtHdrHopByHop,
                       ICMPv6EchoRequest, rdpcap)

captures = sys.argv[1]


def read_pcap(path):
    """(seconds, microseconds, frame bytes) of each record of a little-endian microsecond pcap file."""
    with open(path, "rb") as file:
        data = file.read()
    magic, = struct.unpack_from("<I", data, 0)
    assert magic == 0xA1B2C3D4, f"{path}: expected a little-endian microsecond pcap"
    records, offset = [], 24
    while offset + 16 <= len(data):
        seconds, micros, captured, _ = struct.unpack_from("<IIII", data, offset)
        records.append(((seconds, micros), data[offset + 16:offset + 16 + captured]))
        offset += 16 + captured
    return records


def ip_packets(name):
    """The IP layer bytes (after the 14-byte Ethernet header) of each frame of a capture."""
    return [(time, frame[14:]) for time, frame in read_pcap(f"{captures}/{name}.pcap")]


def write(name, linktype, frames):
    with open(f"{captures}/{name}.pcap", "wb") as file:
        file.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype))
        for (seconds, micros), frame in frames:
            file.write(struct.pack("<IIII", seconds, micros, len(frame), len(frame)) + frame)


ipv4 = ip_packets("icmp")[:2] + ip_packets("dns")[:2]
ipv6 = ip_packets("icmp")[4:6]

# DLT_NULL: the address family in little-endian host order (AF_INET 2, macOS AF_INET6 30).
write("null", 0, [(t, struct.pack("<I", 2) + p) for t, p in ipv4] + [(t, struct.pack("<I", 30) + p) for t, p in ipv6])
# DLT_LOOP: the family in network byte order (BSD AF_INET6 24).
write("loop", 108, [(t, struct.pack(">I", 2) + p) for t, p in ipv4] + [(t, struct.pack(">I", 24) + p) for t, p in ipv6])
# LINKTYPE_RAW: bare IP packets, version from the first nibble.
write("raw", 101, ipv4 + ipv6)

# 802.1Q and QinQ tags in front of real frames' IP packets.
tagged = []
for t, p in ip_packets("tcp")[:3]:
    tagged.append((t, bytes(Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01", type=0x8100)
                            / Dot1Q(prio=5, id=0, vlan=100, type=0x0800)) + p))
for t, p in ip_packets("dns")[:2]:
    tagged.append((t, bytes(Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01", type=0x88A8)
                            / Dot1Q(prio=0, vlan=200, type=0x8100) / Dot1Q(prio=3, vlan=300, type=0x0800)) + p))
write("vlan", 1, tagged)

# IPv6 with hop-by-hop, destination-options and fragment headers before an ICMPv6 echo.
ext = []
for t, p in ipv6[:1]:
    original = IPv6(p)
    echo = original[ICMPv6EchoRequest]
    packet = (IPv6(src=original.src, dst=original.dst, hlim=64)
              / IPv6ExtHdrHopByHop() / IPv6ExtHdrDestOpt() / IPv6ExtHdrFragment(id=0x1234, m=0, offset=0)
              / echo)
    ext.append((t, bytes(Ether(dst="00:00:00:00:00:00", src="00:00:00:00:00:00", type=0x86DD)) + bytes(packet)))
write("ipv6-ext", 1, ext)


def checksum(data):
    """The Internet checksum (RFC 1071) of `data`."""
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f">{len(data) // 2}H", data))
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def with_ipv4_checksum(header):
    header = header[:10] + b"\0\0" + header[12:]
    return header[:10] + struct.pack(">H", checksum(header)) + header[12:]


# Options that end at EOL (kind 0) before the end of their area, the rest non-zero padding:
# a real TCP SYN whose 20 option bytes become MSS, NOP, window scale, EOL and 11 bytes of
# padding, and a real IPv4 DNS query given 4 option bytes: NOP, EOL and 2 bytes of padding.
eol = []
for t, p in ip_packets("tcp")[:1]:
    ihl = (p[0] & 0x0F) * 4
    tcp = bytearray(p[ihl:])
    data_offset = (tcp[12] >> 4) * 4
    assert data_offset == 40, "the SYN carries 20 option bytes"
    tcp[20:40] = bytes.fromhex("0204ffd7" "01" "030307" "00") + b"\xab" * 11
    tcp[16:18] = b"\0\0"
    pseudo = p[12:20] + struct.pack(">BBH", 0, 6, len(tcp))
    tcp[16:18] = struct.pack(">H", checksum(pseudo + bytes(tcp)))
    eol.append((t, b"\0" * 12 + b"\x08\x00" + p[:ihl] + bytes(tcp)))
for t, p in ip_packets("dns")[:1]:
    ihl = (p[0] & 0x0F) * 4
    header = bytearray(p[:ihl]) + bytes.fromhex("0100cdcd")
    header[0] = 0x40 | (len(header) // 4)
    header[2:4] = struct.pack(">H", len(p) + 4)
    eol.append((t, b"\0" * 12 + b"\x08\x00" + with_ipv4_checksum(bytes(header)) + p[ihl:]))
write("options-eol", 1, eol)


# Frames a snapshot length cut short (a record's captured length below its original length,
# as `tcpdump -s N` writes them): real frames cut inside each layer, a few not cut at all.
def write_cut(name, linktype, frames):
    with open(f"{captures}/{name}.pcap", "wb") as file:
        file.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype))
        for (seconds, micros), frame, snap in frames:
            kept = frame[:snap] if snap is not None else frame
            file.write(struct.pack("<IIII", seconds, micros, len(kept), len(frame)) + kept)


cuts = [
    ("tcp", 2, 65),           # an ACK one byte short of its TCP header's end: the timestamps' echo reply
    ("tcp", 0, 64),           # a SYN: its options' timestamps
    ("tcp", 3, 54),           # the capture ends with TCP's fixed header; its options were on the wire
    ("tcp", 5, 38),           # only TCP's ports
    ("tcp", 1, 28),           # inside IPv4's source address
    ("tcp", 4, 14),           # only the Ethernet header
    ("tcp", 3, 90),           # inside the data: every header whole
    ("tcp", 6, None),         # whole
    ("dns", 0, 64),           # inside the query's name
    ("dns", 1, 80),           # inside the first answer
    ("dns", 4, 40),           # inside UDP's header
    ("icmp", 0, 64),          # inside the echo data: every header whole
    ("icmp", 4, 60),          # ICMPv6 echo: inside its header
    ("icmp", 4, 50),          # inside IPv6's destination address
    ("vlan", 3, 20),          # QinQ: inside the inner tag
    ("options-eol", 1, 36),   # inside IPv4's options
]
write_cut("snaplen", 1, [read_pcap(f"{captures}/{name}.pcap")[index] + (snap,) for name, index, snap in cuts])
# Checksums right and wrong, for comparing each layer's verification with tshark's status
# (Corpus/oracle/checksum-status.tsv): real packets with their checksums recomputed ("good"),
# left as captured on loopback, where the kernel leaves TCP and UDP checksums to the NIC
# ("bad", offloaded), or deliberately broken; and Ethernet padding that a UDP or TCP checksum
# must not cover.
def pseudo_v4(packet, length):
    return packet[12:20] + struct.pack(">BBH", 0, packet[9], length)


def pseudo_v6(packet, next_header, length):
    return packet[8:40] + struct.pack(">IxxxB", length, next_header)


def set16(data, offset, value):
    return data[:offset] + struct.pack(">H", value) + data[offset + 2:]


def v4_l4(packet, field, length=None):
    """An IPv4 packet whose TCP/UDP checksum (at `field` in the L4 header) is recomputed."""
    ihl = (packet[0] & 0x0F) * 4
    l4 = set16(packet[ihl:], field, 0)
    if length is not None:
        l4 = l4[:length]
    return packet[:ihl] + set16(l4, field, checksum(pseudo_v4(packet, len(l4)) + l4)) + packet[ihl + len(l4):]


def v6_l4(packet, next_header, start, field):
    """An IPv6 packet whose upper-layer checksum (the header at `start`, checksum at `field`) is recomputed."""
    l4 = set16(packet[start:], field, 0)
    return packet[:start] + set16(l4, field, checksum(pseudo_v6(packet, next_header, len(l4)) + l4))


def broken(packet, offset):
    """The packet with the 16-bit checksum at `offset` off by one."""
    value, = struct.unpack_from(">H", packet, offset)
    return set16(packet, offset, (value + 1) & 0xFFFF)


def ether(packet, padding=b""):
    kind = 0x86DD if packet[0] >> 4 == 6 else 0x0800
    return b"\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01" + struct.pack(">H", kind) + packet + padding


tcp4 = ip_packets("tcp")
dns4 = ip_packets("dns")
icmp4 = ip_packets("icmp")
tcp6_frames = [bytes(packet) for packet in rdpcap(f"{captures}/tcp6.pcapng")]
t0 = tcp4[0][0]
syn, data = v4_l4(tcp4[0][1], 16), v4_l4(tcp4[5][1], 16)
ack = bytes(IP(src="127.0.0.1", dst="127.0.0.1", id=0x4242) / TCP(sport=48684, dport=8765, flags="A", seq=1000, ack=2000))
query = v4_l4(dns4[0][1], 6)
short = bytes(IP(src="192.0.2.1", dst="192.0.2.2", id=7) / UDP(sport=40000, dport=9) / b"abc")
udp6 = bytes(IPv6(src="2001:db8::1", dst="2001:db8::2", hlim=64) / UDP(sport=53000, dport=53) / dns4[0][1][20 + 8:])
ext = ext[0][1][14:]
checksums = [
    ether(syn),                                  # 1 ip good, tcp good (recomputed)
    ether(data),                                 # 2 tcp good over an odd number of bytes
    ether(broken(data, 10)),                     # 3 ip bad, tcp good
    ether(tcp4[2][1]),                           # 4 tcp bad: offloaded, as captured on loopback
    ether(ack, b"\xee" * 6),                     # 5 tcp good, 6 bytes of Ethernet padding after it
    ether(query),                                # 6 udp good
    ether(dns4[0][1]),                           # 7 udp bad: offloaded, as captured
    ether(set16(query, 26, 0)),                  # 8 udp zero: no checksum sent
    ether(short, b"\xee" * 15),                  # 9 udp good over 3 bytes, Ethernet padding after it
    ether(icmp4[0][1]),                          # 10 icmp good
    ether(broken(icmp4[0][1], 22)),              # 11 icmp bad
    ether(v6_l4(tcp6_frames[0][14:], 6, 40, 16)),  # 12 ipv6 tcp good
    ether(tcp6_frames[3][14:]),                  # 13 ipv6 tcp bad: offloaded
    ether(udp6),                                 # 14 ipv6 udp good
    ether(broken(udp6, 46)),                     # 15 ipv6 udp bad
    ether(set16(udp6, 46, 0)),                   # 16 ipv6 udp zero: not allowed over IPv6
    ether(broken(icmp4[4][1], 42)),              # 17 icmpv6 bad
    ether(ext),                                  # 18 icmpv6 good behind hop-by-hop, destination and fragment headers
    ether(broken(ext, 40 + 8 + 8 + 8 + 2)),      # 19 icmpv6 bad behind them
    ether(v4_l4(eol[1][1][14:], 6)),             # 20 ip good with options, udp good
]
write("checksums", 1, [((t0[0] + position, 0), frame) for position, frame in enumerate(checksums)])
