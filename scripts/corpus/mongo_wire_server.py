#!/usr/bin/env python3
"""A minimal MongoDB wire-protocol server for scripts/capture-messaging.sh: Debian has no mongod
and no real MongoDB server installs from PyPI, so the real client (pymongo) talks to this. It
answers the legacy OP_QUERY handshake (isMaster/hello on admin.$cmd) with OP_REPLY, and OP_MSG
commands (hello, ping, insert, find, update, delete, aggregate with a $count, getMore,
killCursors, endSessions, anything else with a CommandNotFound error) from documents it keeps in
memory. One thread a connection; it stops after --seconds. --max-wire-version 5 makes a client
send its commands as OP_QUERY on <db>.$cmd (answered with OP_REPLY), as before MongoDB 3.6.

    python3 scripts/corpus/mongo_wire_server.py [--port 27017] [--seconds 30] [--max-wire-version 17]
"""
import argparse
import datetime
import socket
import struct
import threading

import bson

OP_REPLY, OP_QUERY, OP_MSG = 1, 2004, 2013
store = {}
request_ids = iter(range(1000, 1 << 30))
lock = threading.Lock()
max_wire_version = 17


def hello():
    return {"ismaster": True, "isWritablePrimary": True, "helloOk": True, "maxBsonObjectSize": 16777216,
            "maxMessageSizeBytes": 48000000, "maxWriteBatchSize": 100000,
            "localTime": datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc),
            "logicalSessionTimeoutMinutes": 30, "connectionId": 1, "minWireVersion": 0, "maxWireVersion": max_wire_version,
            "readOnly": False, "ok": 1.0}


def matches(doc, query):
    return all(doc.get(k) == v for k, v in (query or {}).items())


def command(body, sequences):
    name = next(iter(body))
    db = body.get("$db", "test")
    if name.lower() in ("hello", "ismaster"):
        return hello()
    if name == "ping" or name == "endSessions" or name == "killCursors":
        return {"ok": 1.0}
    if name == "insert":
        docs = sequences.get("documents", body.get("documents", []))
        with lock:
            store.setdefault((db, body[name]), []).extend(docs)
        return {"n": len(docs), "ok": 1.0}
    if name == "find":
        with lock:
            found = [d for d in store.get((db, body[name]), []) if matches(d, body.get("filter"))]
        return {"cursor": {"firstBatch": found[: body.get("limit") or None], "id": 0, "ns": f"{db}.{body[name]}"}, "ok": 1.0}
    if name == "update":
        n = 0
        with lock:
            for u in sequences.get("updates", body.get("updates", [])):
                for d in store.get((db, body[name]), []):
                    if matches(d, u["q"]):
                        d.update(u["u"].get("$set", {}))
                        n += 1
        return {"n": n, "nModified": n, "ok": 1.0}
    if name == "delete":
        n = 0
        with lock:
            docs = store.get((db, body[name]), [])
            for d in sequences.get("deletes", body.get("deletes", [])):
                keep = [x for x in docs if not matches(x, d["q"])]
                n += len(docs) - len(keep)
                docs[:] = keep
        return {"n": n, "ok": 1.0}
    if name == "aggregate":
        with lock:
            docs = store.get((db, body[name]), [])
            query = next((s["$match"] for s in body.get("pipeline", []) if "$match" in s), {})
            n = len([d for d in docs if matches(d, query)])
        return {"cursor": {"firstBatch": [{"_id": 1, "n": n}], "id": 0, "ns": f"{db}.{body[name]}"}, "ok": 1.0}
    return {"ok": 0.0, "errmsg": f"no such command: '{name}'", "code": 59, "codeName": "CommandNotFound"}


def reply_query(request_id, doc):
    payload = struct.pack("<iqii", 8, 0, 0, 1) + bson.encode(doc)   # flags: AwaitCapable
    return struct.pack("<iiii", 16 + len(payload), next(request_ids), request_id, OP_REPLY) + payload


def reply_msg(request_id, doc):
    payload = struct.pack("<I", 0) + b"\x00" + bson.encode(doc)
    return struct.pack("<iiii", 16 + len(payload), next(request_ids), request_id, OP_MSG) + payload


def read_exactly(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def serve(sock):
    try:
        while True:
            length, request_id, _, opcode = struct.unpack("<iiii", read_exactly(sock, 16))
            if not 16 <= length <= 48000000:
                return
            body = read_exactly(sock, length - 16)
            if opcode == OP_QUERY:
                end = body.index(b"\x00", 4)
                doc = bson.decode(body[end + 9:end + 9 + struct.unpack("<i", body[end + 9:end + 13])[0]])
                doc.setdefault("$db", body[4:end].decode().split(".")[0])
                if "$query" in doc:   # a command wrapped with read preference
                    doc = dict(doc["$query"], **{"$db": doc["$db"]})
                sock.sendall(reply_query(request_id, command(doc, {})))
            elif opcode == OP_MSG:
                flags = struct.unpack("<I", body[:4])[0]
                end = len(body) - (4 if flags & 1 else 0)
                offset, main, sequences = 4, None, {}
                while offset < end:
                    kind = body[offset]
                    size = struct.unpack("<i", body[offset + 1:offset + 5])[0]
                    if kind == 0:
                        main = bson.decode(body[offset + 1:offset + 1 + size])
                    else:
                        section = body[offset + 5:offset + 1 + size]
                        name_end = section.index(b"\x00")
                        sequences[section[:name_end].decode()] = list(bson.decode_iter(section[name_end + 1:]))
                    offset += 1 + size
                if not flags & 2:   # moreToCome: no reply
                    sock.sendall(reply_msg(request_id, command(main, sequences)))
            else:
                return
    except (EOFError, ConnectionError, ValueError):
        pass
    finally:
        sock.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=27017)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--max-wire-version", type=int, default=17)
    args = parser.parse_args()
    global max_wire_version
    max_wire_version = args.max_wire_version
    listener = socket.create_server(("127.0.0.1", args.port))
    listener.settimeout(0.5)
    deadline = datetime.datetime.now() + datetime.timedelta(seconds=args.seconds)
    while datetime.datetime.now() < deadline:
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
