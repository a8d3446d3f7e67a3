#!/usr/bin/env python3
"""A minimal TDS (MS SQL Server) responder for scripts/capture-messaging.sh: Debian has no SQL
Server, so the real client (FreeTDS's tsql) talks to this. It answers PRELOGIN (version,
encryption not supported), LOGIN7 (ENVCHANGE database and packet size, INFO, LOGINACK, DONE) and
SQL batches: a query naming "missing" gets an ERROR and DONE with its error bit, any other a
result of one INT column and one NVARCHAR column (COLMETADATA, two ROWs, DONE with a row count).
One thread a connection; it stops after --seconds.

    python3 scripts/corpus/tds_server_stub.py [--port 1433] [--seconds 30]
"""
import argparse
import socket
import struct
import threading
import time


def b_varchar(text):
    data = text.encode("utf-16-le")
    return bytes([len(text)]) + data


def us_varchar(text):
    return struct.pack("<H", len(text)) + text.encode("utf-16-le")


def packet(kind, payload, packet_id=1):
    return struct.pack(">BBHHBB", kind, 0x01, 8 + len(payload), 0, packet_id, 0) + payload


def prelogin_response():
    options = [(0x00, struct.pack(">IH", 0x0F0007D0, 0)),   # version 15.0.2000, subbuild 0
               (0x01, b"\x02"),                             # encryption: not supported
               (0x02, b"\x00"),                             # instance: default
               (0x03, b""),                                 # thread id: none
               (0x04, b"\x00")]                             # MARS off
    offset = 5 * len(options) + 1
    head, data = b"", b""
    for token, value in options:
        head += struct.pack(">BHH", token, offset + len(data), len(value))
        data += value
    return head + b"\xff" + data


def envchange(kind, new, old):
    body = bytes([kind]) + b_varchar(new) + b_varchar(old)
    return b"\xe3" + struct.pack("<H", len(body)) + body


def info(number, text, server="stub", cls=0, token=0xAB):
    body = struct.pack("<IBB", number, 1, cls) + us_varchar(text) + b_varchar(server) + b_varchar("") + struct.pack("<I", 1)
    return bytes([token]) + struct.pack("<H", len(body)) + body


def done(status, count, token=0xFD):
    return bytes([token]) + struct.pack("<HHQ", status, 0xC1, count)


def login_response():
    loginack = b"\x01" + struct.pack(">I", 0x74000004) + b_varchar("Microsoft SQL Server") + bytes([15, 0, 0x07, 0xD0])
    return (envchange(1, "shop", "master") + info(5701, "Changed database context to 'shop'.")
            + b"\xad" + struct.pack("<H", len(loginack)) + loginack
            + envchange(4, "4096", "4096") + done(0, 0))


def result():
    cols = b"\x81" + struct.pack("<H", 2)
    cols += struct.pack("<IH", 0, 0x0008) + b"\x38" + b_varchar("id")                       # INT4, nullable no
    cols += struct.pack("<IH", 0, 0x0009) + b"\xe7" + struct.pack("<H", 100) + b"\x09\x04\xd0\x00\x34" + b_varchar("name")
    rows = b""
    for number, name in ((1, "apple"), (2, "pear")):
        text = name.encode("utf-16-le")
        rows += b"\xd1" + struct.pack("<i", number) + struct.pack("<H", len(text)) + text
    return cols + rows + done(0x10, 2)


def serve(sock):
    sock.settimeout(10)
    try:
        while True:
            head = sock.recv(8, socket.MSG_WAITALL)
            if len(head) < 8:
                return
            kind, _status, length = struct.unpack(">BBH", head[:4])
            body = sock.recv(length - 8, socket.MSG_WAITALL) if length > 8 else b""
            if kind == 0x12:
                sock.sendall(packet(0x04, prelogin_response()))
            elif kind == 0x10:
                sock.sendall(packet(0x04, login_response()))
            elif kind == 0x01:
                headers = struct.unpack("<I", body[:4])[0] if len(body) >= 4 and body[4:6] != b"" else 0
                query = body[headers:].decode("utf-16-le", "replace") if headers <= len(body) else ""
                if "missing" in query:
                    sock.sendall(packet(0x04, info(208, "Invalid object name 'missing'.", cls=16, token=0xAA) + done(0x02, 0)))
                elif query.strip().upper().startswith("SELECT"):
                    sock.sendall(packet(0x04, result()))
                else:
                    sock.sendall(packet(0x04, done(0, 0)))
            else:
                return
    except (OSError, struct.error):
        pass
    finally:
        sock.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=1433)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    listener = socket.create_server(("127.0.0.1", args.port))
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
