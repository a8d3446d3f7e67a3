#!/usr/bin/env python3
# A small h2c client for scripts/capture-remote.sh (Python h2), by prior knowledge, for the frames
# the everyday clients do not send: PING (and the server's PONG), HEADERS with a priority,
# a DATA frame, RST_STREAM (a request cancelled), PRIORITY, and GOAWAY at the end.
#   python3 h2c-client.py HOST PORT
import socket, sys, time
import h2.connection, h2.config, h2.events

host, port = sys.argv[1], int(sys.argv[2])
sock = socket.create_connection((host, port), timeout=5)
conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
conn.initiate_connection()
sock.sendall(conn.data_to_send())

def pump(seconds=0.3):
    end = time.time() + seconds
    sock.settimeout(0.1)
    while time.time() < end:
        try:
            data = sock.recv(65535)
        except socket.timeout:
            continue
        if not data:
            return
        conn.receive_data(data)
        out = conn.data_to_send()
        if out:
            sock.sendall(out)

def request(method, path, body=None, **options):
    sid = conn.get_next_available_stream_id()
    headers = [(":method", method), (":path", path), (":scheme", "http"), (":authority", f"{host}:{port}"),
               ("user-agent", "h2-corpus-client/1.0")]
    if body is not None:
        headers.append(("content-type", "text/plain"))
    conn.send_headers(sid, headers, end_stream=body is None, **options)
    if body is not None:
        conn.send_data(sid, body, end_stream=True)
    sock.sendall(conn.data_to_send())
    return sid

pump()
conn.ping(b"corpus01")
sock.sendall(conn.data_to_send())
pump()
request("GET", "/priority", priority_weight=200, priority_depends_on=0, priority_exclusive=True)
pump()
request("POST", "/padded", body=b"padded body")
pump()
sid = request("GET", "/cancelled")
conn.reset_stream(sid, error_code=8)
sock.sendall(conn.data_to_send())
pump()
conn.prioritize(conn.get_next_available_stream_id(), weight=16, depends_on=1, exclusive=False)
sock.sendall(conn.data_to_send())
pump()
conn.close_connection(additional_data=b"corpus done")
sock.sendall(conn.data_to_send())
pump(0.2)
sock.close()
