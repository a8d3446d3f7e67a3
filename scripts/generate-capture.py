#!/usr/bin/env python3
"""Writes a pcap of N mixed Ethernet frames for the capture benchmark.

    scripts/generate-capture.py OUT.pcap [N=1000000] [SEED=1]

The mix, by share of frames: IPv4 TCP (handshakes with options, data, acks) 40%, IPv4
UDP DNS queries and responses 20%, IPv6 TCP 12%, IPv6 UDP DNS 6%, ICMP echo 6%, ICMPv6
echo 4%, 802.1Q VLAN IPv4 UDP 6%, ARP 5.9%, malformed 0.1% (cut short, a header length
that lies, a DNS compression loop). Fields that vary between flows (addresses, ports, ids,
sequence numbers) vary; checksums are computed. Standard library only, deterministic for
a seed.
"""
import random
import struct
import sys


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def ethernet(payload, ethertype, vlan=None):
    header = bytes.fromhex("020000000002020000000001")
    if vlan is not None:
        header += struct.pack("!HH", 0x8100, (5 << 13) | vlan)
    return header + struct.pack("!H", ethertype) + payload


def ipv4(payload, protocol, source, destination, ident, ihl_lie=False):
    total = 20 + len(payload)
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, total, ident, 0x4000, 64, protocol, 0, source, destination)
    header = header[:10] + struct.pack("!H", checksum(header)) + header[12:]
    if ihl_lie:
        header = bytes([0x4F]) + header[1:]
    return header + payload


def ipv6(payload, next_header, source, destination):
    return struct.pack("!IHBB16s16s", 0x60000000 | 0x12345, len(payload), next_header, 64, source, destination) + payload


def transport_checksum(segment, protocol, source, destination):
    if len(source) == 4:
        pseudo = source + destination + struct.pack("!BBH", 0, protocol, len(segment))
    else:
        pseudo = source + destination + struct.pack("!IxxxB", len(segment), protocol)
    return checksum(pseudo + segment)


def tcp(source_port, destination_port, sequence, acknowledgment, flags, payload, source, destination, options=b""):
    offset = (20 + len(options)) // 4
    header = struct.pack("!HHIIBBHHH", source_port, destination_port, sequence, acknowledgment,
                         offset << 4, flags, 65495, 0, 0) + options
    segment = header + payload
    value = transport_checksum(segment, 6, source, destination)
    return segment[:16] + struct.pack("!H", value) + segment[18:]


def udp(source_port, destination_port, payload, source, destination):
    segment = struct.pack("!HHHH", source_port, destination_port, 8 + len(payload), 0) + payload
    value = transport_checksum(segment, 17, source, destination) or 0xFFFF
    return segment[:6] + struct.pack("!H", value) + segment[8:]


def dns_name(name):
    return b"".join(bytes([len(label)]) + label.encode() for label in name.split(".")) + b"\0"


def dns(ident, name, response, qtype, rng, loop=False):
    question = dns_name(name) + struct.pack("!HH", qtype, 1)
    if loop:
        # The question's name is a pointer to itself.
        question = b"\xc0\x0c" + struct.pack("!HH", qtype, 1)
    if not response:
        return struct.pack("!HHHHHH", ident, 0x0100, 1, 0, 0, 0) + question
    if qtype == 28:
        rdata = bytes([0x20, 0x01, 0x0D, 0xB8] + [0] * 10 + [0, rng.randrange(1, 255)])
    else:
        rdata = bytes([192, 0, 2, rng.randrange(1, 255)])
    answer = b"\xc0\x0c" + struct.pack("!HHIH", qtype, 1, 300, len(rdata)) + rdata
    return struct.pack("!HHHHHH", ident, 0x8180, 1, 1, 0, 0) + question + answer


NAMES = ["www.example.test", "mail.example.test", "api.service.internal", "cdn.assets.example.org", "a.b.c.d.e.example"]
HTTP = b"GET /index.html HTTP/1.1\r\nHost: www.example.test\r\nUser-Agent: dissect-bench\r\nAccept: */*\r\n\r\n"
TCP_OPTIONS = bytes.fromhex("020405b40402080a0001e2400000000001030307")


def v4(rng):
    return bytes([10, rng.randrange(256), rng.randrange(256), rng.randrange(1, 255)])


def v6(rng):
    return bytes([0x20, 0x01, 0x0D, 0xB8] + [0] * 8 + [rng.randrange(256) for _ in range(4)])


def tcp_frame(rng, version):
    source, destination = (v4(rng), v4(rng)) if version == 4 else (v6(rng), v6(rng))
    kind = rng.random()
    sport, dport = rng.randrange(1024, 65535), rng.choice([80, 443, 8080, 22])
    seq, ack = rng.getrandbits(32), rng.getrandbits(32)
    if kind < 0.25:
        segment = tcp(sport, dport, seq, 0, 0x02, b"", source, destination, TCP_OPTIONS)
    elif kind < 0.5:
        segment = tcp(sport, dport, seq, ack, 0x18, HTTP[: rng.randrange(40, len(HTTP))], source, destination,
                      bytes.fromhex("0101080a0001e2400001e240"))
    else:
        segment = tcp(sport, dport, seq, ack, 0x10, b"", source, destination, bytes.fromhex("0101080a0001e2400001e240"))
    if version == 4:
        return ethernet(ipv4(segment, 6, source, destination, rng.randrange(65536)), 0x0800)
    return ethernet(ipv6(segment, 6, source, destination), 0x86DD)


def dns_frame(rng, version, vlan=None, loop=False):
    source, destination = (v4(rng), v4(rng)) if version == 4 else (v6(rng), v6(rng))
    response = rng.random() < 0.5
    message = dns(rng.randrange(65536), rng.choice(NAMES), response, rng.choice([1, 28]), rng, loop)
    ports = (53, rng.randrange(1024, 65535)) if response else (rng.randrange(1024, 65535), 53)
    segment = udp(ports[0], ports[1], message, source, destination)
    if version == 4:
        return ethernet(ipv4(segment, 17, source, destination, rng.randrange(65536)), 0x0800, vlan)
    return ethernet(ipv6(segment, 17, source, destination), 0x86DD, vlan)


def icmp_frame(rng, version):
    data = bytes(range(48))
    if version == 4:
        source, destination = v4(rng), v4(rng)
        message = struct.pack("!BBHHH", 8, 0, 0, rng.randrange(65536), rng.randrange(65536)) + data
        message = message[:2] + struct.pack("!H", checksum(message)) + message[4:]
        return ethernet(ipv4(message, 1, source, destination, rng.randrange(65536)), 0x0800)
    source, destination = v6(rng), v6(rng)
    message = struct.pack("!BBHHH", 128, 0, 0, rng.randrange(65536), rng.randrange(65536)) + data
    value = transport_checksum(message, 58, source, destination)
    message = message[:2] + struct.pack("!H", value) + message[4:]
    return ethernet(ipv6(message, 58, source, destination), 0x86DD)


def arp_frame(rng):
    operation = rng.choice([1, 2])
    body = struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, operation, bytes.fromhex("020000000001"), v4(rng),
                       bytes(6) if operation == 1 else bytes.fromhex("020000000002"), v4(rng))
    return ethernet(body, 0x0806) + bytes(18)  # padded to the 60-byte minimum


def malformed_frame(rng):
    kind = rng.randrange(3)
    if kind == 0:
        frame = tcp_frame(rng, 4)
        return frame[: rng.randrange(20, 50)], len(frame)
    if kind == 1:
        source, destination = v4(rng), v4(rng)
        segment = udp(1234, 53, b"\0" * 12, source, destination)
        return ethernet(ipv4(segment, 17, source, destination, 1, ihl_lie=True), 0x0800), None
    return dns_frame(rng, 4, loop=True), None


MIX = [
    (0.40, lambda rng: tcp_frame(rng, 4)),
    (0.20, lambda rng: dns_frame(rng, 4)),
    (0.12, lambda rng: tcp_frame(rng, 6)),
    (0.06, lambda rng: dns_frame(rng, 6)),
    (0.06, lambda rng: icmp_frame(rng, 4)),
    (0.04, lambda rng: icmp_frame(rng, 6)),
    (0.06, lambda rng: dns_frame(rng, 4, vlan=rng.randrange(1, 4095))),
    (0.059, arp_frame),
]


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    # A pool of distinct frames, drawn from with replacement: building each of a million
    # frames in Python would dominate the benchmark's setup time.
    pool_size = min(count, 20_000)
    pool = []
    for _ in range(pool_size):
        pick = rng.random()
        for share, make in MIX:
            if pick < share:
                pool.append((make(rng), None))
                break
            pick -= share
        else:
            pool.append(malformed_frame(rng))
    with open(out, "wb") as file:
        file.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 262144, 1))
        seconds, nanoseconds = 1_795_000_000, 0
        write = file.write
        for index in range(count):
            frame, original = pool[rng.randrange(pool_size)]
            nanoseconds += 1_000 + index % 7919
            if nanoseconds >= 1_000_000_000:
                seconds += 1
                nanoseconds -= 1_000_000_000
            write(struct.pack("<IIII", seconds, nanoseconds, len(frame), original or len(frame)))
            write(frame)


if __name__ == "__main__":
    main()
