#!/usr/bin/python3
"""Crafted TCP and IP cases that a reassembler must get right, written (deterministic bytes,
common.py's timestamps) to Corpus/reassembly/tcp-tricky.pcap with tshark's oracle made with TCP
reassembly and IP defragmentation on (common.py's write_reassembly_capture).

    cd scripts/corpus && /usr/bin/python3 reassembly.py

One TLS 1.2 ClientHello record of 1805 bytes (an SNI, groups, signature algorithms, an X25519
key share and a padding extension), sent from 10.8.0.1 to 10.8.0.2:443 over a handshake
(SYN, SYN/ACK, ACK: frames n..n+2 of each flow) by one client port per scenario; "bytes a..b" are
offsets in the record:

  port 40001  in order           frames 4, 5:    0..1200, 1200..1805
  port 40002  out of order       frames 9, 10:   1200..1805, then 0..1200
  port 40003  retransmission     frames 14-16:   0..1200, 0..1200 again, 1200..1805
  port 40004  overlap, same      frames 20, 21:  0..1200, 1000..1805 (1000..1200 equal)
  port 40005  overlap, differing frames 25, 26:  0..1200, 1000..1805 with 1000..1200 changed
                                                 (0x58 bytes inside the padding extension)
  port 40006  gap                frames 30, 31:  0..600, 1200..1805, then a FIN (frame 32):
                                                 600..1200 never comes, the record is incomplete
  UDP 53      IPv4 fragments     frames 33-35:   one DNS response, a UDP datagram of 3,248 bytes
                                                 (10.8.0.2:53 to 10.8.0.1:5353), in three fragments
                                                 sent last first (offsets 2960, 1480, 0)

tshark 4.0 holds segments that arrive ahead of a gap only with tcp.reassemble_out_of_order:TRUE
(off by default): with the oracle's preferences (tcp-tricky.json) it completes the ClientHello on
ports 40001 and 40003 only; tcp-tricky.out-of-order.json (the JSON alone, that preference added)
completes it on 40001-40005, as a reassembler that holds out-of-order bytes must. Both keep the
first received bytes of a differing overlap (40005) and never complete 40006.
"""
import struct

import subprocess

from common import REASSEMBLY_OPTIONS, write_reassembly_capture
from scapy.all import DNS, DNSQR, DNSRR, IP, TCP, UDP, Ether, fragment, raw

CLIENT, SERVER = "10.8.0.1", "10.8.0.2"
CLIENT_MAC, SERVER_MAC = "02:00:00:00:01:0a", "02:00:00:00:01:0b"


def extension(kind, body):
    return struct.pack(">HH", kind, len(body)) + body


def client_hello(total=1805):
    """A ClientHello record of `total` bytes; the padding extension makes up the length."""
    name = b"server.corpus.test"
    extensions = [
        extension(0, struct.pack(">HBH", len(name) + 3, 0, len(name)) + name),
        extension(10, struct.pack(">H", 4) + struct.pack(">HH", 0x001D, 0x0017)),
        extension(13, struct.pack(">H", 8) + struct.pack(">HHHH", 0x0403, 0x0804, 0x0401, 0x0201)),
        extension(11, b"\x01\x00"),
        extension(51, struct.pack(">H", 36) + struct.pack(">HH", 0x001D, 32) + bytes(range(0x40, 0x60))),
    ]
    suites = [0xC02F, 0xC030, 0xC02B, 0xC02C, 0x009E, 0x009F, 0x00FF]
    body = (b"\x03\x03" + bytes(range(32)) + b"\x20" + bytes(range(0x80, 0xA0))
            + struct.pack(">H", 2 * len(suites)) + b"".join(struct.pack(">H", s) for s in suites) + b"\x01\x00")
    fixed = 5 + 4 + len(body) + 2 + sum(len(e) for e in extensions) + 4
    extensions.append(extension(21, bytes(total - fixed)))
    all_extensions = b"".join(extensions)
    body += struct.pack(">H", len(all_extensions)) + all_extensions
    handshake = b"\x01" + struct.pack(">I", len(body))[1:] + body
    record = b"\x16\x03\x01" + struct.pack(">H", len(handshake)) + handshake
    assert len(record) == total, len(record)
    return record


def tcp(sport, seq, ack, flags, payload=b"", to_server=True):
    src, dst = (CLIENT, SERVER) if to_server else (SERVER, CLIENT)
    smac, dmac = (CLIENT_MAC, SERVER_MAC) if to_server else (SERVER_MAC, CLIENT_MAC)
    ports = dict(sport=sport, dport=443) if to_server else dict(sport=443, dport=sport)
    return raw(Ether(src=smac, dst=dmac) / IP(src=src, dst=dst, id=seq & 0xFFFF, flags="DF")
               / TCP(seq=seq, ack=ack, flags=flags, window=64240, **ports) / payload)


def flow(sport, pieces, fin=False):
    """A handshake, then the ClientHello's byte ranges `pieces` (from, to, replacement or None)."""
    client, server = 1000 * sport, 7000 * sport
    frames = [tcp(sport, client, 0, "S"), tcp(sport, server, client + 1, "SA", to_server=False),
              tcp(sport, client + 1, server + 1, "A")]
    for start, end, data in pieces:
        frames.append(tcp(sport, client + 1 + start, server + 1, "PA", data or HELLO[start:end]))
    if fin:
        frames.append(tcp(sport, client + 1 + len(HELLO), server + 1, "FA"))
    return frames


HELLO = client_hello()
N = len(HELLO)
changed = b"\x58" * 200 + HELLO[1200:]
assert HELLO[1000:1200] == bytes(200)  # inside the padding extension's zeros


def dns_fragments():
    answers = None
    for index in range(14):
        record = DNSRR(rrname="frag.corpus.test", type="TXT", ttl=0, rdata=[b"record %02d " % (index + 1) + b"y" * 190])
        answers = record if answers is None else answers / record
    response = (Ether(src=SERVER_MAC, dst=CLIENT_MAC) / IP(src=SERVER, dst=CLIENT, id=0x4242)
                / UDP(sport=53, dport=5353)
                / DNS(id=0x1234, qr=1, aa=1, rd=1, ra=1, qd=DNSQR(qname="frag.corpus.test", qtype="TXT"), an=answers))
    pieces = fragment(response[IP], fragsize=1480)
    return [raw(Ether(src=SERVER_MAC, dst=CLIENT_MAC) / piece) for piece in reversed(pieces)], len(raw(response[UDP]))


frames = []
frames += flow(40001, [(0, 1200, None), (1200, N, None)])
frames += flow(40002, [(1200, N, None), (0, 1200, None)])
frames += flow(40003, [(0, 1200, None), (0, 1200, None), (1200, N, None)])
frames += flow(40004, [(0, 1200, None), (1000, N, None)])
frames += flow(40005, [(0, 1200, None), (1000, N, changed)])
frames += flow(40006, [(0, 600, None), (1200, N, None)], fin=True)
fragments, udp_length = dns_fragments()
frames += fragments
assert len(frames) == 35, len(frames)
print(f"ClientHello record: {N} bytes; DNS datagram: {udp_length} bytes (UDP), {len(fragments)} fragments")
path = write_reassembly_capture("tcp-tricky", 1, frames)
with open(path[:-len(".pcap")] + ".out-of-order.json", "w") as out:
    subprocess.run(["tshark", "-r", path, *REASSEMBLY_OPTIONS, "-o", "tcp.reassemble_out_of_order:TRUE", "-T", "json",
                    "-x", "--no-duplicate-keys"], stdout=out, stderr=subprocess.DEVNULL, check=True)
