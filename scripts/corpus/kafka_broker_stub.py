#!/usr/bin/env python3
"""A minimal Kafka broker-side responder for scripts/capture-messaging.sh: Debian has no Kafka
broker and none installs from PyPI, so the real client (kafka-python) talks to this. It answers
ApiVersions (v0 to v4: the versions below, so that the client picks the older, non-flexible
versions of the others), Metadata v0/v1 (one broker, itself, node 0; one topic "orders" with one
partition), Produce v0 to v2 (keeping the record batches it is sent) and Fetch v0 to v3 (returning
them), ListOffsets v0/v1, and closes a connection on anything else. One thread a connection; it
stops after --seconds.

    python3 scripts/corpus/kafka_broker_stub.py [--port 9092] [--seconds 30]
"""
import argparse
import socket
import struct
import threading
import time

# api key: (min, max) the stub says it supports
SUPPORTED = {0: (0, 2), 1: (0, 3), 2: (0, 1), 3: (0, 1), 18: (0, 4)}
TOPIC = "orders"
log = []            # the message sets produced, in order
lock = threading.Lock()
port = 9092


def string(s):
    b = s.encode()
    return struct.pack(">h", len(b)) + b


def read_string(data, offset):
    n = struct.unpack_from(">h", data, offset)[0]
    return (None if n < 0 else data[offset + 2:offset + 2 + n].decode()), offset + 2 + max(n, 0)


def uvarint(n):
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


def api_versions(version):
    keys = sorted(SUPPORTED.items())
    if version >= 3:   # flexible: compact array, tagged fields
        body = struct.pack(">h", 0) + uvarint(len(keys) + 1)
        body += b"".join(struct.pack(">hhh", k, lo, hi) + b"\x00" for k, (lo, hi) in keys)
        return body + struct.pack(">i", 0) + b"\x00"
    body = struct.pack(">hi", 0, len(keys)) + b"".join(struct.pack(">hhh", k, lo, hi) for k, (lo, hi) in keys)
    return body + (struct.pack(">i", 0) if version >= 1 else b"")


def metadata(version, data, offset):
    count = struct.unpack_from(">i", data, offset)[0]
    offset += 4
    names = []
    for _ in range(max(count, 0)):
        name, offset = read_string(data, offset)
        names.append(name)
    if count < 0 or not names:
        names = [TOPIC]
    body = struct.pack(">i", 1) + struct.pack(">i", 0) + string("127.0.0.1") + struct.pack(">i", port)
    if version >= 1:
        body += struct.pack(">h", -1) + struct.pack(">i", 0)          # rack null, controller 0
    body += struct.pack(">i", len(names))
    for name in names:
        known = name == TOPIC
        body += struct.pack(">h", 0 if known else 3) + string(name)  # 3: UNKNOWN_TOPIC_OR_PARTITION
        if version >= 1:
            body += b"\x00"                                           # is_internal
        if known:
            body += struct.pack(">i", 1) + struct.pack(">hiii", 0, 0, 0, 1) + struct.pack(">i", 0)
            body += struct.pack(">ii", 1, 0)                           # isr [0]
        else:
            body += struct.pack(">i", 0)
    return body


def produce(version, data, offset):
    if version >= 3:
        _, offset = read_string(data, offset)                         # transactional id
    acks, _timeout, topics = struct.unpack_from(">hii", data, offset)
    offset += 10
    out = struct.pack(">i", topics)
    for _ in range(topics):
        name, offset = read_string(data, offset)
        parts = struct.unpack_from(">i", data, offset)[0]
        offset += 4
        out += string(name) + struct.pack(">i", parts)
        for _ in range(parts):
            index, size = struct.unpack_from(">ii", data, offset)
            offset += 8
            with lock:
                base = len(log)
                log.append(data[offset:offset + size])
            offset += size
            out += struct.pack(">ihq", index, 0, base)
            if version >= 2:
                out += struct.pack(">q", -1)                          # log append time
    if version >= 1:
        out += struct.pack(">i", 0)                                   # throttle time
    return out if acks != 0 else None


def fetch(version, data, offset):
    offset += 12 + (4 if version >= 3 else 0)                         # replica, max wait, min bytes, max bytes
    topics = struct.unpack_from(">i", data, offset)[0]
    offset += 4
    out = struct.pack(">i", 0) if version >= 1 else b""
    out += struct.pack(">i", topics)
    for _ in range(topics):
        name, offset = read_string(data, offset)
        parts = struct.unpack_from(">i", data, offset)[0]
        offset += 4
        out += string(name) + struct.pack(">i", parts)
        for _ in range(parts):
            index, fetch_offset, _max = struct.unpack_from(">iqi", data, offset)
            offset += 16
            with lock:
                records = b"".join(log[fetch_offset:]) if name == TOPIC else b""
                high = len(log)
            out += struct.pack(">ihq", index, 0, high) + struct.pack(">i", len(records)) + records
    return out


def list_offsets(version, data, offset):
    offset += 4                                                       # replica id
    topics = struct.unpack_from(">i", data, offset)[0]
    offset += 4
    out = struct.pack(">i", topics)
    for _ in range(topics):
        name, offset = read_string(data, offset)
        parts = struct.unpack_from(">i", data, offset)[0]
        offset += 4
        out += string(name) + struct.pack(">i", parts)
        for _ in range(parts):
            index, timestamp = struct.unpack_from(">iq", data, offset)
            offset += 12 + (4 if version == 0 else 0)
            with lock:
                answer = 0 if timestamp == -2 else len(log)
            if version == 0:
                out += struct.pack(">ihi", index, 0, 1) + struct.pack(">q", answer)
            else:
                out += struct.pack(">ihqq", index, 0, -1, answer)
    return out


def serve(sock):
    sock.settimeout(10)
    try:
        while True:
            head = sock.recv(4, socket.MSG_WAITALL)
            if len(head) < 4:
                return
            size = struct.unpack(">i", head)[0]
            data = sock.recv(size, socket.MSG_WAITALL)
            key, version, correlation = struct.unpack_from(">hhi", data, 0)
            client_id, offset = read_string(data, 8)
            if key == 18:
                if version > SUPPORTED[18][1]:
                    body = struct.pack(">h", 35) + struct.pack(">i", 0)   # UNSUPPORTED_VERSION, v0 form
                else:
                    body = api_versions(version)
            else:
                if key not in SUPPORTED or not SUPPORTED[key][0] <= version <= SUPPORTED[key][1]:
                    return
                body = {0: produce, 1: fetch, 2: list_offsets, 3: metadata}[key](version, data, offset)
            if body is not None:
                sock.sendall(struct.pack(">ii", 4 + len(body), correlation) + body)
    except (OSError, struct.error):
        pass
    finally:
        sock.close()


def main():
    global port
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=9092)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    port = args.port
    listener = socket.create_server(("127.0.0.1", port))
    listener.settimeout(0.5)
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
