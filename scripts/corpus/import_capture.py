#!/usr/bin/env python3
"""Copies a raw tcpdump capture (pcap, Ethernet) into Corpus/captures/<name>.pcap with fixed
timestamps and writes its oracle files, TCP reassembly off in tshark's dissection:

    python3 scripts/corpus/import_capture.py RAW.pcap NAME

The capture scripts call it once a capture is stopped.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import write_capture  # noqa: E402


def frames_of(path):
    data = open(path, "rb").read()
    assert struct.unpack("<I", data[:4])[0] == 0xA1B2C3D4 and struct.unpack("<I", data[20:24])[0] == 1
    offset, frames = 24, []
    while offset + 16 <= len(data):
        captured = struct.unpack("<IIII", data[offset:offset + 16])[2]
        frames.append(data[offset + 16:offset + 16 + captured])
        offset += 16 + captured
    return frames


if __name__ == "__main__":
    write_capture(sys.argv[2], 1, frames_of(sys.argv[1]), ("-o", "tcp.desegment_tcp_streams:FALSE"))
