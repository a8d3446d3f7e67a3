#!/usr/bin/python3
"""pcapng files libpcap refuses (interfaces of different link types), for dissect's own pcapng
reader: Corpus/pcapng/mixed.pcapng and a copy cut inside a block (mixed-truncated.pcapng), with
tshark's reading of each as the oracle (<name>.tshark.tsv: frame number, epoch time, interface,
lengths, protocols). Deterministic: fixed timestamps.

mixed.pcapng, section 1 (little-endian):
  interface 0 Ethernet (1), microseconds (no if_tsresol), if_tsoffset 10 s
  interface 1 raw IP (101), if_tsresol 9 (nanoseconds)
  interface 2 Linux SLL (113), if_tsresol 0x94 (2^-20 s)
  EPBs on each, an SPB (interface 0), a name resolution block, an interface statistics block
  and a block of an unknown type, all skipped.
section 2 (big-endian): interface 0 raw IP (101) nanoseconds, interface 1 Ethernet; EPBs on both.
"""
import os
import struct
import subprocess

from scapy.all import ICMP, IP, UDP, Ether, raw

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Corpus", "pcapng")
EPOCH = 1767225600  # 2026-01-01T00:00:00Z


def pad4(data):
    return data + bytes(-len(data) % 4)


def options(order, items):
    """items: (code, bytes); ends with opt_endofopt when there are any."""
    if not items:
        return b""
    out = b""
    for code, value in items:
        out += struct.pack(order + "HH", code, len(value)) + pad4(value)
    return out + struct.pack(order + "HH", 0, 0)


def block(order, kind, body):
    body = pad4(body)
    length = 12 + len(body)
    return struct.pack(order + "II", kind, length) + body + struct.pack(order + "I", length)


def shb(order):
    return block(order, 0x0A0D0D0A, struct.pack(order + "IHHq", 0x1A2B3C4D, 1, 0, -1))


def idb(order, linktype, items=()):
    return block(order, 1, struct.pack(order + "HHI", linktype, 0, 262144) + options(order, list(items)))


def epb(order, interface, ticks, data, original=None):
    original = len(data) if original is None else original
    body = struct.pack(order + "IIIII", interface, ticks >> 32, ticks & 0xFFFFFFFF, len(data), original) + pad4(data)
    return block(order, 6, body)


def spb(order, data):
    return block(order, 3, struct.pack(order + "I", len(data)) + pad4(data))


def ethernet_udp(port):
    return raw(Ether(src="00:11:22:33:44:55", dst="00:11:22:33:44:66") / IP(src="10.0.0.1", dst="10.0.0.2", id=1)
               / UDP(sport=4000, dport=port) / b"ping")


def raw_icmp(seq):
    return raw(IP(src="192.0.2.1", dst="192.0.2.2", id=seq) / ICMP(id=7, seq=seq) / b"abcdefgh")


def sll_udp():
    # Linux cooked header: packet type 0 (to us), ARPHRD_ETHER, 6-byte address, IPv4.
    header = struct.pack(">HHH8sH", 0, 1, 6, bytes.fromhex("001122334455"), 0x0800)
    return header + raw(IP(src="10.1.0.1", dst="10.1.0.2", id=3) / UDP(sport=5000, dport=53) / (b"\0" * 12))


def mixed():
    le, be = "<", ">"
    out = shb(le)
    out += idb(le, 1, [(2, b"eth0"), (14, struct.pack("<q", 10))])   # if_name, if_tsoffset 10 s
    out += idb(le, 101, [(9, b"\x09")])                              # if_tsresol: 10^-9
    out += idb(le, 113, [(9, b"\x94")])                              # if_tsresol: 2^-20
    out += epb(le, 0, EPOCH * 1_000_000 + 1, ethernet_udp(9000))
    out += epb(le, 1, EPOCH * 1_000_000_000 + 2_000_123, raw_icmp(1))
    out += block(le, 4, struct.pack("<HH", 0, 0))                      # name resolution block, empty
    out += epb(le, 2, (EPOCH << 20) + (1 << 19), sll_udp())            # .5 s
    out += spb(le, ethernet_udp(9001))
    out += block(le, 0x80001234, b"local use block")
    out += epb(le, 1, EPOCH * 1_000_000_000 + 4_000_000_007, raw_icmp(2)[:20], original=36)
    out += block(le, 5, struct.pack("<III", 0, 0, 0))                  # interface statistics, interface 0
    out += shb(be)
    out += idb(be, 101, [(9, b"\x09")])
    out += idb(be, 1, [])
    out += epb(be, 0, EPOCH * 1_000_000_000 + 5_000_000_000, raw_icmp(3))
    out += epb(be, 1, EPOCH * 1_000_000 + 6_000_001, ethernet_udp(9002))
    return out


def oracle(name):
    path = os.path.join(OUT, name + ".pcapng")
    fields = ["frame.number", "frame.time_epoch", "frame.interface_id", "frame.len", "frame.cap_len", "frame.protocols"]
    result = subprocess.run(["tshark", "-r", path, "-T", "fields", *sum((["-e", f] for f in fields), [])],
                            capture_output=True, text=True)
    with open(os.path.join(OUT, name + ".tshark.tsv"), "w") as out:
        out.write("\t".join(fields) + "\n" + result.stdout)


def main():
    os.makedirs(OUT, exist_ok=True)
    data = mixed()
    with open(os.path.join(OUT, "mixed.pcapng"), "wb") as out:
        out.write(data)
    # Cut in the middle of the sixth block after the header blocks: the fifth packet's EPB.
    cut = data.index(raw_icmp(2)[:20]) + 6
    with open(os.path.join(OUT, "mixed-truncated.pcapng"), "wb") as out:
        out.write(data[:cut])
    oracle("mixed")
    oracle("mixed-truncated")


if __name__ == "__main__":
    main()
