#!/usr/bin/env python3
"""TLS 1.3 draft hellos, crafted with scapy (no TLS 1.3 draft implementation runs here: today's
OpenSSL, GnuTLS and NSS speak only RFC 8446). A client offering drafts 22 and 18 (its key share
in extension 40, the drafts' number), and three ServerHellos on TCP port 443: draft 18's (version 0x7f12 where RFC 8446 has
legacy_version, then no session ID and no compression method, as drafts up to 21 sent it:
dissect once read a session ID there and called the frame malformed, issue 29), draft 28's
(RFC 8446's layout, supported_versions 0x7f1c) and TLS 1.3's. Key shares use the drafts'
extension number (40) up to draft 22 and RFC 8446's (51) after. Deterministic (common.py).

    cd scripts/corpus && python3 tls13-drafts.py
"""
import struct

from scapy.all import IP, TCP, Ether

from common import write_capture


def u16(n):
    return struct.pack(">H", n)


def extension(kind, body):
    return u16(kind) + u16(len(body)) + body


def handshake(kind, body):
    return bytes([kind]) + len(body).to_bytes(3, "big") + body


def record(body, version=0x0303):
    return bytes([22]) + u16(version) + u16(len(body)) + body


KEY = bytes(range(32))
RANDOM = bytes(range(0x40, 0x60))


def client_hello():
    versions = b"".join(u16(v) for v in (0x7f16, 0x7f12))
    share = u16(0x001d) + u16(32) + KEY
    name = b"draft.example"
    extensions = (extension(0, u16(len(name) + 3) + b"\x00" + u16(len(name)) + name)
                  + extension(10, u16(2) + u16(0x001d)) + extension(13, u16(2) + u16(0x0804))
                  + extension(43, bytes([len(versions)]) + versions)
                  + extension(40, u16(len(share)) + share))
    body = u16(0x0303) + RANDOM + b"\x00" + u16(4) + u16(0x1301) + u16(0x1302) + b"\x01\x00" + u16(len(extensions)) + extensions
    return record(handshake(1, body), 0x0301)


def server_hello_draft18():
    extensions = extension(40, u16(0x001d) + u16(32) + KEY)
    body = u16(0x7f12) + RANDOM + u16(0x1301) + u16(len(extensions)) + extensions
    return record(handshake(2, body))


def server_hello(version, share_type):
    extensions = extension(43, u16(version)) + extension(share_type, u16(0x001d) + u16(32) + KEY)
    body = u16(0x0303) + RANDOM + b"\x00" + u16(0x1301) + b"\x00" + u16(len(extensions)) + extensions
    return record(handshake(2, body))


def segment(ident, to_server, seq, ack, payload):
    client, server = ("192.0.2.1", 40000), ("192.0.2.2", 443)
    src, dst = (client, server) if to_server else (server, client)
    return bytes(Ether(src="00:11:22:33:44:55", dst="00:11:22:33:44:66") / IP(src=src[0], dst=dst[0], id=ident)
                 / TCP(sport=src[1], dport=dst[1], flags="PA", seq=seq, ack=ack) / payload)


hello = client_hello()
frames = [
    segment(1, True, 1000, 5000, hello),
    segment(2, False, 5000, 1000 + len(hello), server_hello_draft18()),
    segment(3, False, 6000, 1000 + len(hello), server_hello(0x7f1c, 51)),
    segment(4, False, 7000, 1000 + len(hello), server_hello(0x0304, 51)),
]
write_capture("tls13-drafts", 1, frames, ("-o", "tcp.desegment_tcp_streams:FALSE"))
