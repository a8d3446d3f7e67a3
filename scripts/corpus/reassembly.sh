#!/usr/bin/env bash
# Real traffic that needs TCP reassembly or IP defragmentation, between two network namespaces
# joined by a veth pair (MTU 1500, then 1280; GSO limited to one segment so that the capture shows
# wire-sized segments, not the stack's super-packets). Nothing leaves the namespaces; every client
# and server is bounded by `timeout`, every capture by a packet count.
#
#   scripts/corpus/reassembly.sh        (as root; needs iproute2, tcpdump, tshark, openssl, curl,
#                                        python3, dnsmasq, dig)
#
# Writes into Corpus/reassembly/ (not Corpus/captures: these are read with reassembly on), each
# with tshark's JSON made with TCP reassembly and IP defragmentation on (<name>.json) and its
# checksum verdicts (<name>.checksums.tsv), by scripts/corpus/common.py's write_oracle:
#   tls-multisegment.pcap  openssl s_server (TLS 1.2, a chain of three 4096-bit RSA certificates:
#                          the Certificate message spans several segments) and s_client, port 443
#   http-large.pcap        curl: a 40 kB file from python3 -m http.server (port 80), a chunked
#                          response and a 5 kB POST from a small python server (port 8080)
#   dns-tcp-large.pcap     dnsmasq: a TXT answer of about 6 kB over TCP (dig +tcp)
#   ip-fragments.pcap      dnsmasq: a TXT answer of about 3 kB over UDP (EDNS, dig +bufsize=4096)
#                          at MTU 1280, fragmented by the kernel, over IPv4 and over IPv6
# scripts/corpus/reassembly.py crafts tcp-tricky.pcap (segment orders, overlaps, a gap).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=Corpus/reassembly
mkdir -p "$out"
work=$(mktemp -d)
A=dsr-a
B=dsr-b
. scripts/corpus/namespaces.sh
veth_pair ra rb 02:00:00:00:01:0a 02:00:00:00:01:0b
in_a ip link set ra mtu 1500 gso_max_segs 1
in_b ip link set rb mtu 1500 gso_max_segs 1
in_a ip addr add 10.8.0.1/24 dev ra
in_b ip addr add 10.8.0.2/24 dev rb
in_a ip addr add fd00:8::1/64 dev ra nodad
in_b ip addr add fd00:8::2/64 dev rb nodad
in_a ip link set ra up
in_b ip link set rb up

capture() { # file filter count
  # Not through in_a: $! must be tcpdump itself (ip netns exec execs it), not a subshell.
  ip netns exec $A timeout 60 tcpdump -U -q -i ra -c "$3" -w "$work/$1" "$2" 2>/dev/null & capture_pid=$!
  sleep 1
}
stop_capture() { sleep 1; kill "$capture_pid" 2>/dev/null || true; wait "$capture_pid" 2>/dev/null || true; }

# --- TLS 1.2 with a chain of three 4096-bit RSA certificates ---------------------------------
cd "$work"
openssl req -x509 -newkey rsa:4096 -nodes -keyout root.key -out root.pem -days 3650 \
  -subj "/CN=Corpus Root CA" -addext basicConstraints=critical,CA:TRUE >/dev/null 2>&1
openssl req -newkey rsa:4096 -nodes -keyout inter.key -out inter.csr -subj "/CN=Corpus Intermediate CA" \
  >/dev/null 2>&1
printf 'basicConstraints=critical,CA:TRUE\n' > ca.ext
openssl x509 -req -in inter.csr -CA root.pem -CAkey root.key -CAcreateserial -out inter.pem -days 3650 \
  -extfile ca.ext >/dev/null 2>&1
openssl req -newkey rsa:4096 -nodes -keyout leaf.key -out leaf.csr -subj "/CN=server.corpus.test" >/dev/null 2>&1
printf 'subjectAltName=DNS:server.corpus.test\n' > leaf.ext
openssl x509 -req -in leaf.csr -CA inter.pem -CAkey inter.key -CAcreateserial -out leaf.pem -days 3650 \
  -extfile leaf.ext >/dev/null 2>&1
cat inter.pem root.pem > chain.pem
cd - >/dev/null

background_b timeout 20 openssl s_server -accept 10.8.0.2:443 -cert "$work/leaf.pem" -key "$work/leaf.key" \
  -cert_chain "$work/chain.pem" -tls1_2 -www -quiet -naccept 1
sleep 1
capture tls.pcap 'tcp port 443' 60
printf 'GET / HTTP/1.0\r\n\r\n' | in_a timeout 10 openssl s_client -connect 10.8.0.2:443 -tls1_2 \
  -servername server.corpus.test -ign_eof >/dev/null 2>&1 || true
stop_capture

# --- HTTP: a 40 kB file, a chunked response, a 5 kB POST ----------------------------------------
mkdir -p "$work/www"
/usr/bin/python3 -c "
import sys
line = b'The quick brown fox jumps over the lazy dog, again and again. 0123456789\n'
sys.stdout.buffer.write((line * 560)[:40000])" > "$work/www/large.txt"
cat > "$work/chunked.py" <<'EOF'
# HTTP/1.1 on port 8080: GET answers chunked (chunks of several sizes, one with an extension, a
# trailer), POST reads its Content-Length body and answers its length.
import http.server

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Trailer", "X-Checksum")
        self.end_headers()
        for index, size in enumerate([100, 3000, 1, 5000, 700]):
            data = bytes([0x61 + index]) * size
            extension = ";part=%d" % index if index == 1 else ""
            self.wfile.write(b"%x%s\r\n" % (size, extension.encode()) + data + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\nX-Checksum: 8801\r\n\r\n")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        answer = b"received %d bytes\n" % len(body)
        self.send_response(200)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass

http.server.ThreadingHTTPServer(("10.8.0.2", 8080), Handler).serve_forever()
EOF
head -c 5000 "$work/www/large.txt" > "$work/post.txt"
background_b timeout 30 /usr/bin/python3 -m http.server 80 --bind 10.8.0.2 --directory "$work/www"
background_b timeout 30 /usr/bin/python3 "$work/chunked.py"
sleep 1.5
capture http.pcap 'tcp port 80 or tcp port 8080' 200
in_a timeout 10 curl -s -o /dev/null http://10.8.0.2/large.txt || true
in_a timeout 10 curl -s -o /dev/null http://10.8.0.2:8080/chunked || true
in_a timeout 10 curl -s -o /dev/null -H 'Expect:' -H 'Content-Type: text/plain' --data-binary "@$work/post.txt" \
  http://10.8.0.2:8080/form || true
stop_capture

# --- DNS: a large TXT answer over TCP, and over UDP at MTU 1280 -------------------------------
txt=()
for index in $(seq -w 1 30); do
  txt+=("--txt-record=big.corpus.test,record $index $(printf 'x%.0s' $(seq 1 180))")
done
for index in $(seq -w 1 14); do
  txt+=("--txt-record=frag.corpus.test,record $index $(printf 'y%.0s' $(seq 1 180))")
done
background_b timeout 40 dnsmasq --no-daemon --no-resolv --no-hosts --listen-address=10.8.0.2 \
  --listen-address=fd00:8::2 --bind-interfaces --port=53 --edns-packet-max=4096 --pid-file="$work/dnsmasq.pid" "${txt[@]}"
sleep 1.5
capture dns-tcp.pcap 'tcp port 53' 40
in_a timeout 5 dig +tcp +tries=1 +time=3 @10.8.0.2 big.corpus.test TXT >/dev/null || true
stop_capture

in_a ip link set ra mtu 1280
in_b ip link set rb mtu 1280
capture frag.pcap 'udp port 53 or (ip[6:2] & 0x3fff != 0) or (ip6 and ip6[6] == 44)' 20
in_a timeout 5 dig +notcp +ignore +bufsize=4096 +tries=1 +time=3 @10.8.0.2 frag.corpus.test TXT >/dev/null || true
in_a timeout 5 dig +notcp +ignore +bufsize=4096 +tries=1 +time=3 @fd00:8::2 frag.corpus.test TXT >/dev/null || true
stop_capture

/usr/bin/python3 - "$work" <<'PY'
import os, shutil, sys
sys.path.insert(0, "scripts/corpus")
from common import REASSEMBLY, REASSEMBLY_OPTIONS, write_oracle

for source, name in [("tls", "tls-multisegment"), ("http", "http-large"), ("dns-tcp", "dns-tcp-large"),
                     ("frag", "ip-fragments")]:
    path = os.path.join(REASSEMBLY, name + ".pcap")
    shutil.copyfile(os.path.join(sys.argv[1], source + ".pcap"), path)
    write_oracle(name, path, REASSEMBLY_OPTIONS, REASSEMBLY)
PY
# A capture that starts in the middle of the conversation (the certificate's second segment on):
# framing must find its place again at a later segment.
editcap -r "$out/tls-multisegment.pcap" "$out/tls-midstream.pcap" 9-27
/usr/bin/python3 -c 'import sys; sys.path.insert(0, "scripts/corpus")
from common import REASSEMBLY, REASSEMBLY_OPTIONS, write_oracle
write_oracle("tls-midstream", REASSEMBLY + "/tls-midstream.pcap", REASSEMBLY_OPTIONS, REASSEMBLY)'
for name in tls-multisegment tls-midstream http-large dns-tcp-large ip-fragments; do
  echo "$out/$name.pcap: $(tshark -r "$out/$name.pcap" 2>/dev/null | wc -l) frames"
done
