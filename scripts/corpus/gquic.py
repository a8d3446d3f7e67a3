#!/usr/bin/env python3
"""Google QUIC (gQUIC) packets on UDP port 443, crafted with scapy: no gQUIC endpoint runs here
(Debian's Chromium no longer offers gQUIC, and no gQUIC server is packaged). A client's first
packet of Q043 (public header: flags, connection ID, version, packet number, message
authentication hash, a STREAM frame on stream 1 with a CHLO naming the server), the server's
answer (public header without version, encrypted payload), and a client's Initial of Q046 (the early-draft long header whose combined connection
ID length byte dissect once read as an 80-byte DCID and called malformed: issue 29).
Deterministic (common.py).

    cd scripts/corpus && python3 gquic.py
"""
import struct

from scapy.all import IP, UDP, Ether

from common import write_capture

CID = bytes.fromhex("51a2b3c4d5e6f708")


def chlo(sni=b"www.example.com"):
    """A CHLO handshake message: tag, number of tag/value pairs, padding, SNI's end offset, value."""
    return b"CHLO" + struct.pack("<HH", 1, 0) + b"SNI\x00" + struct.pack("<I", len(sni)) + sni


def stream_frame(data, stream=1):
    """STREAM frame 0xa0: data length present (2 bytes), no offset, 1-byte stream ID."""
    return bytes([0xa0, stream]) + struct.pack(">H", len(data)) + data


def datagram(ident, to_server, payload):
    client, server = ("192.0.2.1", 50000), ("192.0.2.2", 443)
    src, dst = (client, server) if to_server else (server, client)
    return bytes(Ether(src="00:11:22:33:44:55", dst="00:11:22:33:44:66") / IP(src=src[0], dst=dst[0], id=ident)
                 / UDP(sport=src[1], dport=dst[1]) / payload)


# Q043: flags 0x09 (version, 8-byte connection ID, 1-byte packet number).
q043_client = bytes([0x09]) + CID + b"Q043" + bytes([1]) + bytes(range(12)) + stream_frame(chlo())
# The server's answer: flags 0x08 (connection ID, no version), packet number 1, then encrypted bytes.
q043_server = bytes([0x08]) + CID + bytes([1]) + bytes(range(0x80, 0xa8))
# Q046 Initial: 0xc3 (long header, fixed bit, Initial, 4-byte packet number), version, DCIL 8
# (5) and SCIL 0 in one byte, the connection ID, packet number 1, then the frames in the clear.
q046_client = bytes([0xc3]) + b"Q046" + bytes([0x50]) + CID + struct.pack(">I", 1) + stream_frame(chlo())

write_capture("gquic", 1, [datagram(1, True, q043_client), datagram(2, False, q043_server),
                           datagram(3, True, q046_client)])
