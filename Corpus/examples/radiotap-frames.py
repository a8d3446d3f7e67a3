#!/usr/bin/python3
"""Writes radiotap.pcap (link type 127): radiotap headers with several present-field combinations
whose alignment needs padding, each before an 802.11 beacon or QoS data frame (scapy).

  /usr/bin/python3 radiotap-frames.py radiotap.pcap

1. Flags, Rate, Channel, dBm antenna signal, RX flags (one byte of padding before the RX flags)
2. TSFT, Flags, Channel (one byte of padding), signal, noise, MCS, A-MPDU status (one byte)
3. Flags, Channel (one byte of padding), signal, antenna
4. Flags, Channel, signal, VHT (one byte of padding), timestamp (four bytes), built by hand:
   scapy 2.5 writes the VHT known field big-endian
5. three present words as iwlwifi writes them: the radiotap namespace again for two chains'
   signal and antenna, and one byte of padding before the RX flags
6. two present words: four bytes of padding before the TSFT at offset 16
"""

import struct, sys
from scapy.all import wrpcap, raw
from scapy.layers.dot11 import RadioTap, Dot11, Dot11Beacon, Dot11Elt, Dot11QoS
from scapy.layers.l2 import LLC, SNAP
from scapy.layers.inet import IP, UDP

beacon = Dot11(type=0, subtype=8, addr1="ff:ff:ff:ff:ff:ff", addr2="02:00:00:00:aa:01", addr3="02:00:00:00:aa:01") / Dot11Beacon(timestamp=0, beacon_interval=100, cap=0x0431) / Dot11Elt(ID=0, info=b"dissect")
data = Dot11(type=2, subtype=8, FCfield="from-DS", addr1="02:00:00:00:bb:02", addr2="02:00:00:00:aa:01", addr3="02:00:00:00:aa:01") / Dot11QoS() / LLC() / SNAP() / IP(src="192.0.2.1", dst="192.0.2.2") / UDP(sport=5000, dport=5001) / b"radiotap"

frames = []
# 1. legacy 2.4 GHz: RX flags after the antenna signal, one byte of padding before them
frames.append(RadioTap(present="Flags+Rate+Channel+dBm_AntSignal+RXFlags", Flags="ShortPreamble", Rate=2, ChannelFrequency=2412, ChannelFlags="CCK+2GHz", dBm_AntSignal=-40, RXFlags=0) / beacon)
# 2. 802.11n at 5 GHz: TSFT, padding before the channel and before the A-MPDU status
frames.append(RadioTap(present="TSFT+Flags+Channel+dBm_AntSignal+dBm_AntNoise+MCS+A_MPDU", mac_timestamp=123456789012, Flags=0, ChannelFrequency=5180, ChannelFlags="OFDM+5GHz", dBm_AntSignal=-55, dBm_AntNoise=-95, knownMCS=0x1f, MCS_bandwidth=1, guard_interval=1, MCS_index=7, A_MPDU_ref=42, A_MPDU_flags=0) / data)
# 3. flags then channel: one byte of padding
frames.append(RadioTap(present="Flags+Channel+dBm_AntSignal+Antenna", Flags=0, ChannelFrequency=2437, ChannelFlags="OFDM+2GHz", dBm_AntSignal=-67, Antenna=1) / beacon)

def raw_radiotap(words, body):
    header = struct.pack("<BBH", 0, 0, 4 + 4 * len(words) + len(body)) + b"".join(struct.pack("<I", w) for w in words)
    return header + body

NS, EXT = 1 << 29, 1 << 31
# 4. 802.11ac: VHT after one byte of padding, then the frame timestamp after four
words = [0x2 | 0x8 | 0x20 | 1 << 21 | 1 << 22]
body = b"\x00\x00" + struct.pack("<HH", 5500, 0x0140) + struct.pack("<b", -60) + b"\x00" \
    + struct.pack("<HBB4sBBH", 0x0044, 0x04, 4, bytes([0x92, 0, 0, 0]), 0, 0, 0) + b"\x00" * 4 \
    + struct.pack("<QHBB", 987654321, 22, 0x11, 0x02)
frames.append(RadioTap(raw_radiotap(words, body)) / data)
# 5. iwlwifi-style: three present words, the radiotap namespace repeated for two chains
words = [0x1 | 0x2 | 0x4 | 0x8 | 0x20 | 0x4000 | NS | EXT, 0x20 | 0x800 | NS | EXT, 0x20 | 0x800]
body = struct.pack("<Q", 1000000) + bytes([0x00, 0x0c]) + struct.pack("<HH", 2462, 0x00a0) + struct.pack("<b", -50) + b"\x00" + struct.pack("<H", 0) \
    + struct.pack("<bB", -51, 0) + struct.pack("<bB", -53, 1)
frames.append(RadioTap(raw_radiotap(words, body)) / beacon)
# 6. two present words: four bytes of padding before the TSFT
words = [0x1 | 0x2 | 0x8 | 0x20 | NS | EXT, 0x20 | 0x800]
body = b"\x00" * 4 + struct.pack("<Q", 2000000) + b"\x00" + b"\x00" + struct.pack("<HH", 5200, 0x0140) + struct.pack("<b", -70) + struct.pack("<bB", -72, 0)
frames.append(RadioTap(raw_radiotap(words, body)) / beacon)
for index, frame in enumerate(frames):
    frame.time = 1795000000 + index / 10
wrpcap(sys.argv[1], frames, linktype=127)
