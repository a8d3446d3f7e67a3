#!/usr/bin/env bash
# Real TLS on loopback: openssl s_server and s_client, once with TLS 1.2 on port 8443 (a port
# the bundled tls.schema registers) and once with TLS 1.3 on port 4433 (no registration: the
# heuristic for a ClientHello or ServerHello record claims it). Self-signed EC certificate
# on P-256 (small, so the Certificate fits one segment; TLS 1.2 needs its curve among the
# groups the client offers) and X25519 and P-256 only (so the ClientHello fits one too).
# Writes Corpus/captures/tls.pcap and its oracle files (Corpus/oracle/tls.json, .checksums.tsv).
#
#   scripts/corpus/tls.sh        (as root; needs openssl, tcpdump, tshark, python3)
#
# Kept: every frame of the 8443 connections that has a TCP payload, and the two segments of the
# 4433 connection that start with a hello (the rest of it is a TLS conversation tshark follows
# from the hellos, which a heuristic cannot; without TCP reassembly that is out of reach).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/key.pem" \
  -out "$work/cert.pem" -days 3650 -subj "/CN=example.com" >/dev/null 2>&1

timeout 30 tcpdump -U -q -i lo -c 60 -w "$work/all.pcap" 'tcp port 8443 or tcp port 4433' 2>/dev/null &
capture_pid=$!
sleep 1

serve() { # port version-option
  timeout 10 openssl s_server -accept "127.0.0.1:$1" -cert "$work/cert.pem" -key "$work/key.pem" \
    -groups X25519:P-256 -alpn h2 "$2" -www -quiet -naccept 1 >/dev/null 2>&1 &
  pids+=($!)
  sleep 1
}
connect() { # port version-option [groups]
  printf 'GET / HTTP/1.0\r\n\r\n' | timeout 5 openssl s_client -connect "127.0.0.1:$1" -servername example.com \
    -alpn h2,http/1.1 -groups "${3:-X25519:P-256}" "$2" -ign_eof >/dev/null 2>&1 || true
  sleep 1
}
serve 8443 -tls1_2
connect 8443 -tls1_2
# The server's P-256 certificate cannot sign for a TLS 1.2 client that offers X25519 only: a
# handshake_failure alert, in the clear.
serve 8443 -tls1_2
connect 8443 -tls1_2 X25519
serve 4433 -tls1_3
connect 4433 -tls1_3
sleep 1
kill "$capture_pid" 2>/dev/null || true
wait "$capture_pid" 2>/dev/null || true

/usr/bin/python3 - "$work/all.pcap" <<'PY'
import sys
sys.path.insert(0, "scripts/corpus")
from common import write_capture
from scapy.all import rdpcap, TCP, raw

frames = []
for packet in rdpcap(sys.argv[1]):
    if TCP not in packet or not bytes(packet[TCP].payload):
        continue
    payload = bytes(packet[TCP].payload)
    ports = {packet[TCP].sport, packet[TCP].dport}
    hello = len(payload) > 5 and payload[0] == 22 and payload[5] in (1, 2)
    if 8443 in ports or hello:
        frames.append(raw(packet))
write_capture("tls", 1, frames)   # tcpdump -i lo: Ethernet with zero addresses
PY
