#!/usr/bin/python3
"""UDP application protocols from real traffic: the NTP, DHCP, syslog and SNMP frames of
Corpus/depth/lan.pcap (two network namespaces; chrony, dnsmasq/udhcpc, logger, snmpd/snmpget),
copied byte for byte into Corpus/captures/udp-apps.pcap with its oracle (see common.py; the
timestamps are common.py's). Deterministic: the same input rewrites the same bytes.

    cd scripts/corpus && /usr/bin/python3 udp-apps.py
"""
import os
import struct

from common import ROOT, write_capture

PORTS = {67, 68, 123, 514, 161, 162}


def frames(path):
    with open(path, "rb") as file:
        data = file.read()
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    linktype = struct.unpack(endian + "I", data[20:24])[0]
    assert linktype == 1, "Ethernet expected"
    offset = 24
    while offset + 16 <= len(data):
        _, _, captured, original = struct.unpack(endian + "IIII", data[offset:offset + 16])
        yield data[offset + 16:offset + 16 + captured], original
        offset += 16 + captured


def wanted(frame):
    # Ethernet, IPv4 (no VLAN), UDP, either port one of PORTS; not a later fragment.
    if len(frame) < 42 or frame[12:14] != b"\x08\x00" or frame[23] != 17:
        return False
    if struct.unpack(">H", frame[20:22])[0] & 0x1FFF:
        return False
    start = 14 + (frame[14] & 0x0F) * 4
    source, destination = struct.unpack(">HH", frame[start:start + 4])
    return source in PORTS or destination in PORTS


selected = [(bytes(data), original) for data, original in frames(os.path.join(ROOT, "Corpus", "depth", "lan.pcap"))
            if wanted(data)]
write_capture("udp-apps", 1, selected)
