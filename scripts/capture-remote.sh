#!/usr/bin/env bash
# Remote access and HTTP/2 from real clients and servers, captured on the loopback of a network
# namespace of its own (nothing leaves it; every client and server is bounded in time), one
# capture per protocol:
#
#   http2.pcap   HTTP/2 over cleartext TCP (h2c) by prior knowledge on port 8080, where tshark's
#                HTTP hands it to HTTP/2: a Python h2 server (scripts/remote/h2c-server.py) with curl
#                (GET, then POST with a body), httpx with h2 (GET), nghttp (PRIORITY frames, HEADERS
#                with a priority, GOAWAY) and a Python h2 client (scripts/remote/h2c-client.py: PING
#                and its ACK, HEADERS with a priority, RST_STREAM, PRIORITY, GOAWAY with debug data).
#   http2-upgrade.pcap  the same server after HTTP/1.1 "Upgrade: h2c": curl --http2 and nghttp -u
#                (GET with HTTP2-Settings, 101 Switching Protocols, the preface, the answer on
#                stream 1).
#   grpc.pcap    gRPC over h2c on port 8080: grpcio's server and client (scripts/remote/grpc-pair.py,
#                generic handlers, protobuf messages encoded by hand): a unary call, one that fails
#                with a status (grpc-status in the trailers), a server-streaming call.
#   x11.pcap     Xvfb listening on TCP display :1 (port 6001) and X clients over
#                DISPLAY=127.0.0.1:1: xdpyinfo (connection setup, QueryExtension, ...), xprop
#                -root, xwininfo -root, and xprop -id on a window that does not exist (a BadWindow
#                error): the setup request and reply, requests, replies, events, an error.
#   rlogin.pcap  rsh-redone's rlogin, driven by expect, to its rlogind on TCP 513 (through a small
#                inetd in Python): the startup (user names, terminal type and speed), the window
#                size control message, a shell session (echo, stty size, exit).
#   rsh.pcap     rsh-redone's rsh to its rshd on TCP 514: the stderr port, user names and command,
#                the output, the client's standard input (cat), and the stderr connection the
#                server opens back to the client.
#                rlogind and rshd let root on 127.0.0.1 in as the local user dsxcorpus by its
#                ~/.rhosts (the script creates the user when it is missing).
#
# The frames are copied byte for byte into Corpus/captures/<name>.pcap with the fixed timestamps
# of scripts/corpus/common.py, and tshark's dissection of them, read segment by segment (TCP
# reassembly off, as dissect reads them), is written beside as the oracle the tests compare with:
# Corpus/oracle/<name>.json and <name>.checksums.tsv (write_capture). The traffic itself (ports,
# stream contents' timing) differs from run to run.
#
#   scripts/capture-remote.sh [http2] [grpc] [x11] [rlogin]        (as root; rlogin makes rlogin.pcap and rsh.pcap)
#
# Needs: tcpdump, tshark, curl (with nghttp2), nghttp (nghttp2-client), python3 with h2, httpx[http2] and grpcio, xvfb, x11-utils,
# rsh-redone-server, rsh-redone-client
# (apt-get install -y nghttp2-client xvfb x11-utils rsh-redone-server rsh-redone-client; pip install h2 'httpx[http2]' grpcio).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ns=dsx-remote
work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 0.5
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ip netns del "$ns" 2>/dev/null || true
ip netns add "$ns"
ip netns exec "$ns" ip link set lo up
in_ns() { ip netns exec "$ns" "$@"; }

# capture NAME FILTER FUNCTION: runs FUNCTION while tcpdump listens, then writes the capture.
capture() {
  local name=$1 filter=$2 traffic=$3
  in_ns timeout 120 tcpdump -U -q -i lo -w "$work/$name.raw.pcap" "$filter" 2>/dev/null &
  local dump=$!
  sleep 1
  "$traffic"
  sleep 1
  kill "$dump"; wait "$dump" 2>/dev/null || true
  (cd scripts/corpus && python3 - "$name" "$work/$name.raw.pcap" <<'PY'
import struct, sys
from common import write_capture
name, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
assert struct.unpack("<I", data[:4])[0] == 0xA1B2C3D4 and struct.unpack("<I", data[20:24])[0] == 1
offset, frames = 24, []
while offset + 16 <= len(data):
    captured = struct.unpack("<IIII", data[offset:offset + 16])[2]
    frames.append(data[offset + 16:offset + 16 + captured])
    offset += 16 + captured
write_capture(name, 1, frames, ("-o", "tcp.desegment_tcp_streams:FALSE"))
PY
  )
}

# ---- HTTP/2 (h2c) ----------------------------------------------------------------------------
http2_traffic() {
  in_ns timeout 10 curl -s -o /dev/null --http2-prior-knowledge http://127.0.0.1:8080/hello || true
  in_ns timeout 10 curl -s -o /dev/null --http2-prior-knowledge -d 'name=corpus&kind=h2c' http://127.0.0.1:8080/form || true
  in_ns timeout 10 python3 -c '
import httpx
with httpx.Client(http1=False, http2=True, timeout=5) as client:
    client.get("http://127.0.0.1:8080/items?page=1", headers={"accept": "application/json"})
' >/dev/null 2>&1 || true
  in_ns timeout 10 nghttp -n http://127.0.0.1:8080/nghttp >/dev/null 2>&1 || true
  in_ns timeout 10 python3 scripts/remote/h2c-client.py 127.0.0.1 8080 >/dev/null 2>&1 || true
}
http2_upgrade_traffic() {
  in_ns timeout 10 curl -s -o /dev/null --http2 http://127.0.0.1:8080/upgrade || true
  in_ns timeout 10 nghttp -n -u http://127.0.0.1:8080/nghttp-upgrade >/dev/null 2>&1 || true
}
http2() {
  in_ns timeout 60 python3 scripts/remote/h2c-server.py 8080 55 >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 1
  capture http2 'tcp port 8080' http2_traffic
  capture http2-upgrade 'tcp port 8080' http2_upgrade_traffic
  kill "$server" 2>/dev/null || true
}

# ---- gRPC over h2c ------------------------------------------------------------------------------
grpc_traffic() {
  in_ns timeout 20 python3 scripts/remote/grpc-pair.py client 8080 >/dev/null 2>&1 || true
}
grpc() {
  in_ns timeout 30 python3 scripts/remote/grpc-pair.py server 8080 25 >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 2
  capture grpc 'tcp port 8080' grpc_traffic
  kill "$server" 2>/dev/null || true
}

# ---- X11 ---------------------------------------------------------------------------------------
x11_traffic() {
  DISPLAY=127.0.0.1:1 in_ns timeout 10 xdpyinfo >/dev/null 2>&1 || true
  DISPLAY=127.0.0.1:1 in_ns timeout 10 xprop -root _NET_SUPPORTED RESOURCE_MANAGER >/dev/null 2>&1 || true
  DISPLAY=127.0.0.1:1 in_ns timeout 10 xwininfo -root >/dev/null 2>&1 || true
  # A window that does not exist: the server answers with a BadWindow error.
  DISPLAY=127.0.0.1:1 in_ns timeout 10 xprop -id 0x7654321 WM_NAME >/dev/null 2>&1 || true
}
x11() {
  in_ns timeout 40 Xvfb :1 -listen tcp -nolisten unix -ac -screen 0 640x480x24 >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 2
  capture x11 'tcp port 6001' x11_traffic
  kill "$server" 2>/dev/null || true
}

# ---- rlogin and rsh (rsh-redone) ---------------------------------------------------------------
# A local user whose ~/.rhosts trusts root on 127.0.0.1, so that rlogind and rshd let the clients
# (run as root, from a reserved port) in without a password (pam_rhosts).
rhosts_user() {
  id dsxcorpus >/dev/null 2>&1 || useradd -m -d /home/dsxcorpus -s /bin/sh dsxcorpus
  printf '127.0.0.1 root\nlocalhost root\n' > /home/dsxcorpus/.rhosts
  chown dsxcorpus: /home/dsxcorpus/.rhosts
  chmod 600 /home/dsxcorpus/.rhosts
}
# inetd's part: accept COUNT connections on PORT and run DAEMON on each, the socket its stdin and stdout.
listen_inetd() { # port daemon count
  cat > "$work/inetd-$1.py" <<PY
import socket, subprocess
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", $1))
listener.listen(1)
listener.settimeout(30)
for _ in range($3):
    connection, _ = listener.accept()
    subprocess.run(["$2"], stdin=connection, stdout=connection, stderr=subprocess.DEVNULL, timeout=30)
    connection.close()
PY
  in_ns timeout 40 python3 "$work/inetd-$1.py" >/dev/null 2>&1 &
  pids+=("$!")
  sleep 1
}
rlogin_traffic() {
  in_ns timeout 20 expect -c '
    set timeout 5
    spawn rsh-redone-rlogin -l dsxcorpus 127.0.0.1
    expect "\\$ "
    send "echo hello from rlogin\r"
    expect "\\$ "
    send "stty size\r"
    expect "\\$ "
    send "exit\r"
    expect eof' >/dev/null 2>&1 || true
}
rsh_traffic() {
  in_ns timeout 10 rsh-redone-rsh -l dsxcorpus 127.0.0.1 'echo hello from rsh; uname -s; ls /nonexistent' >/dev/null 2>&1 || true
  in_ns timeout 10 rsh-redone-rsh -l dsxcorpus 127.0.0.1 id >/dev/null 2>&1 || true
  printf 'first line of input\nsecond line\n' | in_ns timeout 10 rsh-redone-rsh -l dsxcorpus 127.0.0.1 cat >/dev/null 2>&1 || true
}
rlogin() {
  rhosts_user
  listen_inetd 513 /usr/sbin/in.rlogind 1
  capture rlogin 'tcp port 513' rlogin_traffic
  listen_inetd 514 /usr/sbin/in.rshd 3
  capture rsh 'tcp' rsh_traffic
}

main() {
  local wanted=("$@")
  [ ${#wanted[@]} -gt 0 ] || wanted=(http2 grpc x11 rlogin)
  for name in "${wanted[@]}"; do "$name"; done
}
main "$@"
