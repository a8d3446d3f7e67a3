#!/usr/bin/env python3
# A small h2c server for scripts/capture-remote.sh (Python h2): HTTP/2 over cleartext TCP with
# prior knowledge (the client's preface first), or after an HTTP/1.1 GET with "Upgrade: h2c"
# (101 Switching Protocols, then the answer on stream 1). Every request is answered with a small
# JSON body naming its path.  python3 h2c-server.py PORT LIFETIME_SECONDS
import socket, sys, threading, time, json, base64
import h2.connection, h2.config, h2.events

def serve(sock):
    sock.settimeout(10)
    data = b""
    upgrade = None
    while len(data) < 24:
        chunk = sock.recv(65535)
        if not chunk: return
        data += chunk
        if b"\r\n\r\n" in data and not data.startswith(b"PRI"): break
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
    if not data.startswith(b"PRI * HTTP/2.0"):
        head, _, data = data.partition(b"\r\n\r\n")
        # The upgrade request has no body here (GET), so what follows its head is the preface.
        settings = [l.split(b":", 1)[1].strip() for l in head.split(b"\r\n") if l.lower().startswith(b"http2-settings:")][0]
        sock.sendall(b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n")
        conn.initiate_upgrade_connection(settings)
        sock.sendall(conn.data_to_send())
        respond(conn, 1, "/upgraded")
        sock.sendall(conn.data_to_send())
    else:
        conn.initiate_connection()
        sock.sendall(conn.data_to_send())
    paths = {}
    while True:
        if data:
            for ev in conn.receive_data(data):
                if isinstance(ev, h2.events.RequestReceived):
                    paths[ev.stream_id] = dict(ev.headers).get(":path", "/")
                    if ev.stream_ended: respond(conn, ev.stream_id, paths[ev.stream_id])
                elif isinstance(ev, h2.events.DataReceived):
                    conn.acknowledge_received_data(ev.flow_controlled_length, ev.stream_id)
                    if ev.stream_ended: respond(conn, ev.stream_id, paths.get(ev.stream_id, "/"))
                elif isinstance(ev, h2.events.StreamEnded):
                    if ev.stream_id in paths and conn.streams.get(ev.stream_id) and conn.streams[ev.stream_id].open:
                        respond(conn, ev.stream_id, paths[ev.stream_id])
                elif isinstance(ev, h2.events.ConnectionTerminated):
                    sock.sendall(conn.data_to_send()); return
            out = conn.data_to_send()
            if out: sock.sendall(out)
        try:
            data = sock.recv(65535)
        except socket.timeout:
            return
        if not data: return

def respond(conn, sid, path):
    try:
        body = json.dumps({"path": path, "server": "dissect corpus h2c"}).encode() + b"\n"
        conn.send_headers(sid, [(":status", "200"), ("content-type", "application/json"),
                                ("content-length", str(len(body))), ("server", "h2-corpus/1.0"),
                                ("x-corpus", "http2")])
        conn.send_data(sid, body, end_stream=True)
    except Exception:
        pass

port = int(sys.argv[1]); lifetime = float(sys.argv[2])
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", port)); srv.listen(8); srv.settimeout(1)
end = time.time() + lifetime
while time.time() < end:
    try: c, _ = srv.accept()
    except socket.timeout: continue
    threading.Thread(target=lambda c=c: (serve(c), c.close()), daemon=True).start()
