#!/usr/bin/env bash
# Voice and discovery over UDP from real clients and servers, captured on the loopback of a
# network namespace of its own (nothing leaves it; every program is bounded in time and count),
# one capture per protocol:
#
#   sip.pcap     SIPp (Debian's sip-tester) as a UAC calling SIPp as a UAS on UDP 5060: INVITE with
#                an SDP offer, 100 Trying, 180 Ringing, 200 OK with the SDP answer, ACK, then the
#                UAC plays the first 15 packets of SIPp's G.711 A-law RTP sample (PT 8) and its
#                RFC 2833 DTMF sample (telephone-event, PT 101) to the media port the answer gave,
#                which the UAS echoes back (-rtp_echo); then BYE and 200 OK. tshark decodes the RTP
#                because the SDP set the conversation up (no RTP heuristic needed).
#   sip-tcp.pcap the same call over TCP 5060 (SIPp's -t t1), without media: each message in a
#                segment of its own, read segment by segment (TCP reassembly off, as dissect reads them).
#   stun.pcap    coturn's turnserver on UDP 3478 with its turnutils_stunclient: a Binding request
#                and success response (XOR-MAPPED-ADDRESS, MAPPED-ADDRESS, RESPONSE-ORIGIN,
#                OTHER-ADDRESS, SOFTWARE, FINGERPRINT), the same with RFC 5780's CHANGE-REQUEST.
#   turn.pcap    coturn's turnserver with long-term credentials and its turnutils_uclient, two clients
#                relaying to each other (-y): Allocate (the 401 with REALM and NONCE, then with
#                USERNAME and MESSAGE-INTEGRITY), CreatePermission, ChannelBind, Refresh, and the
#                relayed data as ChannelData (a few 40-byte messages).
#   ssdp.pcap    SSDP on UDP 1900 (239.255.255.250 routed over lo): a Python control point's
#                M-SEARCH (ssdp:all), a small Python device's unicast 200 OK answers (from port 1900) and its
#                NOTIFY ssdp:alive and ssdp:byebye.
#   tftp.pcap    tftp-hpa's client with tftpd-hpa on UDP 69: a get (three DATA blocks and their
#                ACKs, the last short), a put (WRQ) in octet mode, and a get of a missing file
#                (ERROR 1, File not found).
#
# The frames are copied byte for byte into Corpus/captures/<name>.pcap with the fixed timestamps
# of scripts/corpus/common.py, and tshark's dissection of them is written beside as the oracle the
# tests compare with: Corpus/oracle/<name>.json and <name>.checksums.tsv (write_capture). The
# traffic itself (ports, Call-IDs, transaction IDs) differs from run to run.
#
#   scripts/capture-voice.sh [sip] [sip_tcp] [stun] [turn] [ssdp] [tftp]        (as root)
#
# Needs: tcpdump, tshark, editcap (wireshark-common), sip-tester, coturn, tftpd-hpa, tftp-hpa,
# python3 (apt-get install -y sip-tester coturn tftpd-hpa tftp-hpa).
set -euo pipefail
cd "$(dirname "$0")/.."
ns=dsx-voice
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
# Servers and tcpdump are put in the background with `ip netns exec` itself, not in_ns: a function in
# the background runs in a subshell, whose pid (what $! gives and kill reaches) is not the program's.

# capture NAME FILTER FUNCTION: runs FUNCTION while tcpdump listens, then writes the capture.
capture() {
  local name=$1 filter=$2 traffic=$3
  ip netns exec "$ns" timeout 120 tcpdump -U -q -i lo -w "$work/$name.raw.pcap" "$filter" 2>/dev/null &
  local dump=$!
  sleep 1
  "$traffic"
  sleep 1
  kill "$dump"; wait "$dump" 2>/dev/null || true
  (cd scripts/corpus && python3 - "$name" "$work/$name.raw.pcap" <<'EOF'
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
EOF
  )
}

# ---- SIP, SDP and RTP (SIPp) -----------------------------------------------------------------
sip_traffic() {
  in_ns timeout 20 sipp -sf "$work/sip/uac.xml" -i 127.0.0.1 -p 5060 -mi 127.0.0.1 -mp 16000 \
    -m 1 -l 1 -timeout 15s -timeout_error -trace_err -error_file "$work/sip/uac.err" 127.0.0.2:5060 \
    >/dev/null 2>&1 </dev/null || true
  sleep 4
}
sip() {
  mkdir -p "$work/sip/pcap"
  editcap -r /usr/share/sip-tester/g711a.pcap "$work/sip/pcap/g711a.pcap" 1-15 >/dev/null
  cp /usr/share/sip-tester/dtmf_2833_1.pcap "$work/sip/pcap/"
  # SIPp's uac_pcap scenario with the short sample and shorter pauses.
  { sipp -sd uac_pcap || true; } | sed -e 's|pause milliseconds="8000"|pause milliseconds="600"|' \
    -e 's|pause milliseconds="1000"|pause milliseconds="400"|' \
    -e "s|pcap/g711a.pcap|$work/sip/pcap/g711a.pcap|" -e "s|pcap/dtmf_2833_1.pcap|$work/sip/pcap/dtmf_2833_1.pcap|" \
    > "$work/sip/uac.xml"
  (cd "$work/sip" && exec ip netns exec "$ns" timeout 30 sipp -sn uas -i 127.0.0.2 -p 5060 -mi 127.0.0.2 -mp 6000 \
    -rtp_echo -m 1 -timeout 25s >/dev/null 2>&1 </dev/null) &
  local server=$!
  pids+=("$server")
  sleep 1
  capture sip 'udp' sip_traffic
  kill "$server" 2>/dev/null || true
}

sip_tcp_traffic() {
  in_ns timeout 20 sipp -sn uac -t t1 -i 127.0.0.1 -p 5062 -m 1 -l 1 -timeout 15s -timeout_error 127.0.0.2:5060 \
    >/dev/null 2>&1 </dev/null || true
  sleep 1
}
sip_tcp() {
  mkdir -p "$work/sip-tcp"
  (cd "$work/sip-tcp" && exec ip netns exec "$ns" timeout 30 sipp -sn uas -t t1 -i 127.0.0.2 -p 5060 -m 1 -timeout 25s \
    >/dev/null 2>&1 </dev/null) &
  local server=$!
  pids+=("$server")
  sleep 1
  capture sip-tcp 'tcp port 5060' sip_tcp_traffic
  kill "$server" 2>/dev/null || true
}

# ---- STUN (coturn) ---------------------------------------------------------------------------
stun_traffic() {
  in_ns timeout 5 turnutils_stunclient -p 3478 127.0.0.1 >/dev/null 2>&1 || true
  in_ns timeout 5 turnutils_stunclient -p 3478 -c 127.0.0.1 >/dev/null 2>&1 || true
}
stun() {
  ip netns exec "$ns" timeout 30 turnserver -n --listening-ip=127.0.0.1 --listening-ip=127.0.0.2 --listening-port=3478 \
    --alt-listening-port=3479 --no-tcp --no-tls --no-dtls --no-cli --log-file=stdout --simple-log \
    --realm=example.test >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 2
  capture stun 'udp port 3478 or udp port 3479' stun_traffic
  kill "$server" 2>/dev/null || true
}

turn_traffic() {
  in_ns timeout 15 turnutils_uclient -u alice -w secret -y -c -n 2 -l 40 -z 50 127.0.0.1 >/dev/null 2>&1 </dev/null || true
}
turn() {
  ip netns exec "$ns" timeout 40 turnserver -n --listening-ip=127.0.0.1 --listening-port=3478 --relay-ip=127.0.0.1 \
    --min-port=49152 --max-port=49200 --no-tcp --no-tls --no-dtls --no-cli --lt-cred-mech --user=alice:secret \
    --realm=example.test --allow-loopback-peers --log-file=stdout --simple-log >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 2
  capture turn 'udp' turn_traffic
  kill "$server" 2>/dev/null || true
}

# ---- SSDP (Python control point and device) --------------------------------------------------
ssdp_traffic() {
  in_ns timeout 10 python3 - <<'PY' || true
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
s.bind(("127.0.0.1", 0))
s.sendto(b"M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\n"
         b"ST: ssdp:all\r\nUSER-AGENT: Linux/6.1 UPnP/1.1 dissect-corpus/1.0\r\n\r\n", ("239.255.255.250", 1900))
s.settimeout(2)
try:
    while True:
        s.recv(4096)
except socket.timeout:
    pass
PY
  sleep 2
}
ssdp() {
  in_ns ip link set lo multicast on
  in_ns ip route add 239.0.0.0/8 dev lo 2>/dev/null || true
  cat > "$work/ssdp-device.py" <<'PY'
import socket, struct, time
uuid = "uuid:2fac1234-31f8-11b4-a222-08002b34c003"
location = "http://127.0.0.2:49152/description.xml"
server = "Linux/6.1 UPnP/1.1 dissect-corpus-device/1.0"
types = ["upnp:rootdevice", uuid, "urn:schemas-upnp-org:device:MediaServer:1"]
listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("", 1900))
listener.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, struct.pack("4s4s", socket.inet_aton("239.255.255.250"), socket.inet_aton("127.0.0.1")))
sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sender.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.2"))
sender.bind(("127.0.0.2", 0))
def notify(nts, nt):
    usn = uuid if nt == uuid else f"{uuid}::{nt}"
    extra = f"CACHE-CONTROL: max-age=1800\r\nLOCATION: {location}\r\nSERVER: {server}\r\n" if nts == "ssdp:alive" else ""
    sender.sendto((f"NOTIFY * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\n{extra}NT: {nt}\r\nNTS: {nts}\r\n"
                   f"USN: {usn}\r\n\r\n").encode(), ("239.255.255.250", 1900))
notify("ssdp:alive", "upnp:rootdevice")
listener.settimeout(8)
try:
    data, peer = listener.recvfrom(4096)
    while not data.startswith(b"M-SEARCH"):
        data, peer = listener.recvfrom(4096)
    for nt in types:
        usn = uuid if nt == uuid else f"{uuid}::{nt}"
        listener.sendto((f"HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nDATE: Thu, 01 Jan 2026 00:00:00 GMT\r\n"
                       f"EXT:\r\nLOCATION: {location}\r\nSERVER: {server}\r\nST: {nt}\r\nUSN: {usn}\r\n\r\n").encode(), peer)  # from port 1900
except socket.timeout:
    pass
time.sleep(0.5)
notify("ssdp:byebye", "upnp:rootdevice")
PY
  ip netns exec "$ns" timeout 15 python3 "$work/ssdp-device.py" >/dev/null 2>&1 &
  local device=$!
  pids+=("$device")
  capture ssdp 'udp port 1900 or (udp and host 127.0.0.2)' ssdp_traffic
  kill "$device" 2>/dev/null || true
}

# ---- TFTP (tftpd-hpa, tftp-hpa) --------------------------------------------------------------
tftp_traffic() {
  (cd "$work/tftp/client" && in_ns timeout 10 tftp -m octet 127.0.0.1 -c get readme.txt) >/dev/null 2>&1 || true
  (cd "$work/tftp/client" && in_ns timeout 10 tftp -m octet 127.0.0.1 -c put note.txt) >/dev/null 2>&1 || true
  (cd "$work/tftp/client" && in_ns timeout 10 tftp -m octet 127.0.0.1 -c get missing.txt) >/dev/null 2>&1 || true
}
tftp() {
  mkdir -p "$work/tftp/root" "$work/tftp/client"
  # 1200 bytes: two full 512-byte blocks and a short one.
  python3 -c 'import sys; sys.stdout.write(("hello from the dissect corpus tftp server. " * 40)[:1199] + "\n")' > "$work/tftp/root/readme.txt"
  echo "uploaded by tftp-hpa" > "$work/tftp/client/note.txt"
  chmod 777 "$work/tftp/root"
  # (no -a: its address lookup fails in a namespace with only lo; the namespace holds nothing else)
  ip netns exec "$ns" timeout 30 in.tftpd -4 -L -c -u root -s "$work/tftp/root" >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 1
  capture tftp 'udp' tftp_traffic
  kill "$server" 2>/dev/null || true
}

main() {
  local wanted=("$@")
  [ ${#wanted[@]} -gt 0 ] || wanted=(sip sip_tcp stun turn ssdp tftp)
  for name in "${wanted[@]}"; do "$name"; done
}
main "$@"
