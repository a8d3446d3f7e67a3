#!/usr/bin/env bash
# Captures the routing and control protocols left after the fifth round: multicast group
# membership from the kernel (IGMPv1/v2/v3 and MLDv1/v2), RPKI-RTR from FRR's bgpd, and crafted
# MPLS LSP ping, RSVP, LISP, AFS Rx and IPX; network namespaces joined by a veth pair (10.97.0.1 and
# 10.97.0.2, fd97::1 and fd97::2; nothing leaves them, every program is bounded in time), and
# records tshark's dissection of the same bytes as the oracle the tests compare with.
#
#   scripts/capture-routing2.sh [igmp-mld] [rpki-rtr] [mpls-echo] [lisp] [rsvp] [rx] [ipx]
#                               (as root; needs tcpdump, tshark, python3, Debian's frr and
#                                frr-rpki-rtrlib for rpki-rtr)
#
#   igmp-mld.pcap   the kernel's own IGMP and MLD: namespace a is a receiver (a Python program
#                   joining and leaving groups with IP_ADD_MEMBERSHIP, IP_ADD_SOURCE_MEMBERSHIP,
#                   IP_BLOCK_SOURCE, IP_UNBLOCK_SOURCE, IP_DROP_SOURCE_MEMBERSHIP and RFC 3678's
#                   MCAST_JOIN_GROUP, MCAST_JOIN_SOURCE_GROUP, MCAST_BLOCK_SOURCE, ...), namespace
#                   b a Linux bridge acting as querier (IGMPv3 and MLDv2 general queries with a
#                   floating-point max response code, group-specific queries after a leave, then
#                   IGMPv2 and MLDv1 queries). IGMPv3 and MLDv2 reports with every record type
#                   the kernel sends (IS_IN, IS_EX, TO_IN, TO_EX, ALLOW, BLOCK; sources), then
#                   with force_igmp_version=2/force_mld_version=1 IGMPv2 reports and leave, MLDv1
#                   report and done, and with force_igmp_version=1 an IGMPv1 report.
#   rpki-rtr.pcap   FRR's bgpd with its RPKI module (rtrlib, Debian's frr-rpki-rtrlib) in namespace a
#                   against a small RPKI-to-router cache written here per RFC 8210 (protocol
#                   version 1) on TCP 323 in namespace b: reset query, cache response, IPv4 and IPv6
#                   prefixes, a router key, end of data with its timers, serial notify and serial
#                   query with an incremental update (announcements and withdrawals), cache reset,
#                   a second full load, and an error report quoting a PDU, with its text. The
#                   router's side is bgpd's own; the cache's PDUs are the script's.
#   mpls-echo.pcap  CRAFTED (the kernel here has no MPLS and no LSP ping runs on Linux): LSP ping and
#                   traceroute requests and replies (RFC 8029) with LDP, RSVP, generic and nil FECs,
#                   downstream mappings, pad, reply TOS and errored TLVs.
#   lisp.pcap       CRAFTED (no LISP implementation is packaged): Map-Request in an Encapsulated
#                   Control Message, Map-Reply with IPv4 and IPv6 locators, Map-Register and
#                   Map-Notify with HMAC authentication data, an RLOC probe, a negative Map-Reply,
#                   and data-plane packets (nonce, instance ID, locator status bits) carrying ICMP.
#   rsvp.pcap       CRAFTED (no RSVP-TE daemon is packaged; the kernel has no MPLS): RSVP-TE Path,
#                   Resv, ResvConf, PathErr, PathTear and ResvTear for an LSP tunnel, with their
#                   objects (SESSION, RSVP_HOP, TIME_VALUES, LABEL_REQUEST, SESSION_ATTRIBUTE,
#                   SENDER_TEMPLATE, SENDER_TSPEC, EXPLICIT_ROUTE, STYLE, FLOWSPEC, FILTER_SPEC,
#                   LABEL, RECORD_ROUTE, RESV_CONFIRM, ERROR_SPEC).
#   rx.pcap         CRAFTED (no AFS cell runs here; OpenAFS's servers need a cell and its keys): AFS Rx
#                   between a client and the volume location (7003) and file (7000) servers: data
#                   packets starting VL_GetEntryByNameU and FetchStatus calls, an ack with its
#                   trailer, rxkad's challenge and response, busy, aborts, ack-all.
#   ipx.pcap        CRAFTED (the kernel has dropped IPX): IPX over Ethernet II and 802.2 LLC between a
#                   NetWare server and a client: RIP request and response, SAP nearest-server query
#                   and response, an SPX connection (request, acks, data with end of message).
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/import_capture.py), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv. ROUTING2_KEEP_LOGS=DIR keeps the programs' configurations and logs. Timers
# and random delays differ from run to run; running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(igmp-mld rpki-rtr mpls-echo lisp rsvp rx ipx)
a=dsx-r2-a
b=dsx-r2-b

work=$(mktemp -d)
chmod 755 "$work"
pids=()
capture_pids=()
netns_down() { for ns in "$a" "$b"; do ip netns del "$ns" 2>/dev/null || true; done; }
stop_peers() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
cleanup() {
  stop_peers
  for pid in "${capture_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  netns_down
  rm -rf "/var/run/frr/$a" "/var/run/frr/$b"
  [ -n "${ROUTING2_KEEP_LOGS:-}" ] && cp -r "$work" "$ROUTING2_KEEP_LOGS"
  rm -rf "$work"
}
trap cleanup EXIT

# Two namespaces joined by veth dsxmc0 (a) / dsxmc1 (b).
netns_up() {
  netns_down
  ip netns add "$a"
  ip netns add "$b"
  ip link add dsxmc0 netns "$a" type veth peer name dsxmc1 netns "$b"
  ip -n "$a" link set dsxmc0 address 02:00:00:00:97:01
  ip -n "$b" link set dsxmc1 address 02:00:00:00:97:02
  ip -n "$a" addr add 10.97.0.1/24 dev dsxmc0
  ip -n "$b" addr add 10.97.0.2/24 dev dsxmc1
  ip -n "$a" addr add fd97::1/64 dev dsxmc0 nodad
  ip -n "$b" addr add fd97::2/64 dev dsxmc1 nodad
  for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
  ip -n "$a" link set dsxmc0 up
  ip -n "$b" link set dsxmc1 up
  sleep 1
}

start_capture() { # name interface-in-a filter
  ip netns exec "$a" tcpdump -U -q -i "$2" -w "$work/$1.raw.pcap" "$3" 2>/dev/null &
  capture_pids+=($!)
  sleep 1
}
stop_captures() {
  sleep 1
  for pid in "${capture_pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  capture_pids=()
}
import() { # name raw
  python3 scripts/corpus/import_capture.py "$2" "$1"
}

# FRR's daemons in a namespace: each under its own path space (-N, /var/run/frr/<ns>/), run as frr.
frr_daemon() { # ns seconds daemon config [args...]
  local ns=$1 secs=$2 daemon=$3 conf=$4; shift 4
  mkdir -p "/var/run/frr/$ns"
  chown frr:frr "/var/run/frr/$ns"
  chmod 644 "$conf"
  ip netns exec "$ns" timeout "$secs" "/usr/lib/frr/$daemon" -N "$ns" -A 127.0.0.1 -P 0 -f "$conf" "$@" \
    >"$work/$ns-$daemon.log" 2>&1 &
  pids+=($!)
}

rpki_rtr_run() {
  netns_up
  # A small RPKI-to-router cache (RFC 8210, protocol version 1) on TCP 323 (the port tshark knows it by) in namespace b; it
  # serves a few VRPs and a router key, then drives the router through a serial notify, an
  # incremental update, a cache reset and a full reload, and ends with an error report.
  cat > "$work/rtrcache.py" <<'PYEOF'
import socket, struct, sys, time
SESSION = 0x2A17
def pdu(type_, field, body=b"", version=1):
    return struct.pack(">BBHI", version, type_, field, 8 + len(body)) + body
def v4(flags, plen, maxlen, prefix, asn):
    return pdu(4, 0, struct.pack(">BBBB4sI", flags, plen, maxlen, 0, socket.inet_aton(prefix), asn))
def v6(flags, plen, maxlen, prefix, asn):
    return pdu(6, 0, struct.pack(">BBBB16sI", flags, plen, maxlen, 0, socket.inet_pton(socket.AF_INET6, prefix), asn))
def router_key(flags, ski, asn, spki):
    return struct.pack(">BBBBI", 1, 9, flags, 0, 8 + 20 + 4 + len(spki)) + ski + struct.pack(">I", asn) + spki
def end_of_data(serial):
    return pdu(7, SESSION, struct.pack(">IIII", serial, 30, 5, 600))
SPKI = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004") + bytes(range(0x40, 0x80))
FULL1 = [v4(1, 24, 24, "192.0.2.0", 65001), v4(1, 16, 24, "198.51.100.0", 65002), v4(1, 24, 24, "203.0.113.0", 0),
         v6(1, 32, 48, "2001:db8::", 65001), v6(1, 48, 48, "2001:db8:1::", 4200000002),
         router_key(1, bytes(range(1, 21)), 65001, SPKI)]
def recv_pdu(conn):
    head = b""
    while len(head) < 8:
        chunk = conn.recv(8 - len(head))
        if not chunk: return None
        head += chunk
    length = struct.unpack(">I", head[4:8])[0]
    body = b""
    while len(body) < length - 8:
        chunk = conn.recv(length - 8 - len(body))
        if not chunk: return None
        body += chunk
    print("got", head.hex(), body.hex(), flush=True)
    return head + body
srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("10.97.0.2", 323)); srv.listen(1); srv.settimeout(40)
conn, _ = srv.accept(); conn.settimeout(20)
q = recv_pdu(conn)                       # Reset Query
assert q and q[1] == 2, q
conn.sendall(pdu(3, SESSION)); [conn.sendall(p) for p in FULL1]; conn.sendall(end_of_data(1))
time.sleep(2)
conn.sendall(pdu(0, SESSION, struct.pack(">I", 2)))          # Serial Notify
q = recv_pdu(conn)                       # Serial Query, serial 1
conn.sendall(pdu(3, SESSION) + v4(0, 24, 24, "203.0.113.0", 0) + v4(1, 22, 24, "198.18.0.0", 65003)
             + v6(0, 48, 48, "2001:db8:1::", 4200000002) + end_of_data(2))
time.sleep(2)
conn.sendall(pdu(0, SESSION, struct.pack(">I", 3)))          # Serial Notify
q = recv_pdu(conn)                       # Serial Query, serial 2
conn.sendall(pdu(8, 0))                  # Cache Reset
q = recv_pdu(conn)                       # Reset Query
conn.sendall(pdu(3, SESSION)); [conn.sendall(p) for p in FULL1[:3]]; conn.sendall(end_of_data(3))
time.sleep(2)
# Error Report: Internal Error (1), quoting the last query, with a text
text = b"cache shutting down for maintenance"
conn.sendall(pdu(10, 1, struct.pack(">I", len(q)) + q + struct.pack(">I", len(text)) + text))
time.sleep(1)
conn.close()
PYEOF
  cat > "$work/a-bgpd.conf" <<CONF
hostname rt-a
rpki
 rpki polling_period 30
 rpki retry_interval 5
 rpki cache 10.97.0.2 323 preference 1
exit
router bgp 65001
 bgp router-id 10.97.0.1
 no bgp ebgp-requires-policy
CONF
  start_capture rpki-rtr dsxmc0 'tcp port 323'
  ip netns exec "$b" timeout 60 python3 "$work/rtrcache.py" >"$work/rtrcache.log" 2>&1 &
  local cache=$!
  sleep 1
  frr_daemon "$a" 40 bgpd "$work/a-bgpd.conf" -M rpki
  wait "$cache" || true
  stop_peers
  stop_captures
  import rpki-rtr "$work/rpki-rtr.raw.pcap"
  netns_down
}

# Writes the Ethernet frames a Python program prints (hex, one a line) to a pcap.
frames_to_pcap() { # out.pcap
  python3 -c '
import struct, sys
frames = [bytes.fromhex(l) for l in sys.stdin.read().split()]
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for i, fr in enumerate(frames):
        f.write(struct.pack("<IIII", 1, i * 1000, len(fr), len(fr)) + fr)' "$1"
}

# Helpers the crafted captures share: checksums, IPv4/UDP frames between two routers' MACs.
craft_common='
import struct, socket
def csum(data):
    if len(data) % 2: data += b"\0"
    total = sum(struct.unpack(">%dH" % (len(data) // 2), data))
    while total >> 16: total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF
ip_id = [0x2000]
def ipv4(src, dst, proto, payload, ttl=64, options=b"", tos=0):
    ip_id[0] += 1
    hl = 20 + len(options)
    hdr = struct.pack(">BBHHHBBH4s4s", 0x40 | hl // 4, tos, hl + len(payload), ip_id[0], 0, ttl, proto, 0,
                      socket.inet_aton(src), socket.inet_aton(dst)) + options
    return hdr[:10] + struct.pack(">H", csum(hdr)) + hdr[12:] + payload
def udp(src, dst, sport, dport, payload, **kw):
    u = struct.pack(">HHHH", sport, dport, 8 + len(payload), 0) + payload
    pseudo = socket.inet_aton(src) + socket.inet_aton(dst) + struct.pack(">BBH", 0, 17, len(u))
    c = csum(pseudo + u) or 0xFFFF
    return ipv4(src, dst, 17, u[:6] + struct.pack(">H", c) + u[8:], **kw)
def eth(src_mac, dst_mac, payload, ethertype=0x0800):
    f = bytes.fromhex(dst_mac) + bytes.fromhex(src_mac) + struct.pack(">H", ethertype) + payload
    return f + b"\0" * max(0, 60 - len(f))
A, B = "020000009701", "020000009702"
'

mpls_echo_run() {
  python3 - <<PYEOF | frames_to_pcap "$work/mpls-echo.raw.pcap"
$craft_common
# CRAFTED MPLS LSP ping and traceroute (RFC 8029) on UDP 3503 between two LSRs (10.97.0.1 and
# 10.97.0.2, loopbacks 192.0.2.1 and 192.0.2.9): requests go to 127.0.0.1 with the router alert
# option, as an LSR's ping mpls / traceroute mpls sends them; the kernel here has no MPLS.
RA = bytes.fromhex("94040000")
def tlv(t, v):
    pad = (-len(v)) % 4
    return struct.pack(">HH", t, len(v)) + v + b"\0" * pad
def echo(msg_type, reply_mode, code, subcode, handle, seq, sent, rec, tlvs, flags=0):
    return struct.pack(">HHBBBBIIIIII", 1, flags, msg_type, reply_mode, code, subcode, handle, seq,
                       sent[0], sent[1], rec[0], rec[1]) + tlvs
ip4 = socket.inet_aton
ldp_fec = tlv(1, ip4("192.0.2.9") + bytes([32]))
rsvp_fec = tlv(3, ip4("192.0.2.9") + struct.pack(">HH", 0, 7) + ip4("192.0.2.1") + ip4("192.0.2.1") + struct.pack(">HH", 0, 2))
gen_fec = tlv(14, ip4("198.51.100.0") + bytes([24]))
nil_fec = tlv(16, struct.pack(">I", 0) + b"")
def dsmap(ds_ip, int_ip, labels, mtu=1500, flags=0x02):
    lab = b"".join(struct.pack(">I", (l << 4 | exp << 1 | bos) << 8 | proto) for l, exp, bos, proto in labels)
    return tlv(2, struct.pack(">HBB", mtu, 1, flags) + ip4(ds_ip) + ip4(int_ip) + struct.pack(">BBH", 0, 0, 0) + lab)
T0 = (0xEB5A1C00, 0x40000000)
frames = []
# ping mpls ldp 192.0.2.9/32: echo request, reply via UDP, Target FEC stack (LDP IPv4 prefix), pad
req = echo(1, 2, 0, 0, 0x00001a2b, 1, T0, (0, 0), tlv(1, ldp_fec) + tlv(3, bytes([1]) + b"\xa5" * 11))
frames.append(eth(A, B, udp("10.97.0.1", "127.0.0.1", 3503, 3503, req, ttl=255, options=RA)))
# echo reply: replying router is an egress for the FEC at stack depth 1
rep = echo(2, 2, 3, 1, 0x00001a2b, 1, T0, (0xEB5A1C00, 0x40100000), b"")
frames.append(eth(B, A, udp("10.97.0.2", "10.97.0.1", 3503, 3503, rep)))
# traceroute mpls rsvp-te: TTL 1, Target FEC stack (RSVP IPv4 LSP), downstream mapping (all-routers
# address, one label), reply TOS
req = echo(1, 2, 0, 0, 0x00001a2c, 1, (0xEB5A1C01, 0), (0, 0),
           tlv(1, rsvp_fec) + dsmap("224.0.0.2", "127.0.0.1", [(0, 0, 1, 0)]) + tlv(10, bytes([0xC0, 0, 0, 0])), flags=0)
frames.append(eth(A, B, udp("10.97.0.1", "127.0.0.1", 3503, 3503, req, ttl=1, options=RA)))
# reply: label switched at stack depth 1, the next hop's downstream mapping with its label (RSVP-TE)
rep = echo(2, 2, 8, 1, 0x00001a2c, 1, (0xEB5A1C01, 0), (0xEB5A1C01, 0x00200000),
           dsmap("10.97.1.2", "10.97.1.1", [(16003, 0, 1, 4)], mtu=1500, flags=0))
frames.append(eth(B, A, udp("10.97.0.2", "10.97.0.1", 3503, 3503, rep, tos=0xC0)))
# ping to a generic IPv4 prefix with a nil FEC below it, validate FEC stack (V flag); reply: no
# label entry at stack depth 1, with the errored TLVs
req = echo(1, 2, 0, 0, 0x00001a2d, 2, (0xEB5A1C02, 0x80000000), (0, 0), tlv(1, gen_fec + nil_fec), flags=1)
frames.append(eth(A, B, udp("10.97.0.1", "127.0.0.1", 3503, 3503, req, ttl=255, options=RA)))
rep = echo(2, 2, 4, 1, 0x00001a2d, 2, (0xEB5A1C02, 0x80000000), (0xEB5A1C02, 0x80100000), tlv(9, tlv(1, gen_fec)), flags=1)
frames.append(eth(B, A, udp("10.97.0.2", "10.97.0.1", 3503, 3503, rep)))
for f in frames: print(f.hex())
PYEOF
  import mpls-echo "$work/mpls-echo.raw.pcap"
}

lisp_run() {
  python3 - <<PYEOF | frames_to_pcap "$work/lisp.raw.pcap"
$craft_common
# CRAFTED LISP (RFC 9300 data plane on UDP 4341, RFC 9301 control plane on UDP 4342) between an
# xTR (RLOC 10.97.0.1, EID prefix 192.168.1.0/24) and a map server/resolver (10.97.0.2), and a
# second xTR's RLOC 10.97.0.3 (EID prefix 192.168.2.0/24); no LISP implementation is packaged here.
ip4 = socket.inet_aton
def afi4(a): return struct.pack(">H", 1) + ip4(a)
def afi6(a): return struct.pack(">H", 2) + socket.inet_pton(socket.AF_INET6, a)
def locator(addr, priority=1, weight=100, flags=0x0005):
    return struct.pack(">BBBBH", priority, weight, 255, 0, flags) + (afi4(addr) if ":" not in addr else afi6(addr))
def record(ttl, prefix, masklen, locs, act=0, auth=1, version=0):
    return struct.pack(">IBBHH", ttl, len(locs), masklen, (act << 13) | (auth << 12), version) + afi4(prefix) + b"".join(locs)
NONCE = 0x5A3C9E1F00D2B461
# Map-Request (1) from the xTR for 192.168.2.5: SMR-invoked off, one ITR-RLOC (IRC 0), one record
def map_request(nonce, probe=False, smr=False):
    b0 = (1 << 4) | (0x02 if probe else 0) | (0x01 if smr else 0)
    return (struct.pack(">BBBB", b0, 0, 0, 1) + struct.pack(">Q", nonce) + afi4("192.168.1.1")
            + afi4("10.97.0.1") + struct.pack(">BB", 0, 32) + afi4("192.168.2.5"))
frames = []
mreq = map_request(NONCE)
# Encapsulated Control Message (8) carrying the Map-Request to the map resolver: inner IPv4/UDP 4342
ecm = struct.pack(">BBBB", 8 << 4, 0, 0, 0) + udp("192.168.1.1", "192.168.2.5", 4342, 4342, mreq)
frames.append(eth(A, B, udp("10.97.0.1", "10.97.0.2", 4342, 4342, ecm)))
# Map-Reply (2) from the authoritative xTR: one record, two locators (IPv4 and IPv6)
mrep = struct.pack(">BBBB", 2 << 4, 0, 0, 1) + struct.pack(">Q", NONCE) + record(1440, "192.168.2.0", 24,
        [locator("10.97.0.3", 1, 50, 0x0005), locator("fd97::3", 2, 50, 0x0001)], version=7)
frames.append(eth(B, A, udp("10.97.0.3", "10.97.0.1", 4342, 4342, mrep)))
# Map-Register (3) from the xTR to the map server: proxy map-reply and want-map-notify set, key 1
# (HMAC-SHA-1-96), the authentication data, one record with one locator
auth = bytes.fromhex("8d9e11a2c3540fb6e7d80c21")
mreg = (struct.pack(">BBBB", (3 << 4) | 0x08, 0, 0x01, 1) + struct.pack(">Q", 0x1122334455667788)
        + struct.pack(">HH", 1, len(auth)) + auth + record(1440, "192.168.1.0", 24, [locator("10.97.0.1")]))
frames.append(eth(A, B, udp("10.97.0.1", "10.97.0.2", 4342, 4342, mreg)))
# Map-Notify (4) acknowledging it
mnot = (struct.pack(">BBBB", 4 << 4, 0, 0, 1) + struct.pack(">Q", 0x1122334455667788)
        + struct.pack(">HH", 1, len(auth)) + auth + record(1440, "192.168.1.0", 24, [locator("10.97.0.1")]))
frames.append(eth(B, A, udp("10.97.0.2", "10.97.0.1", 4342, 4342, mnot)))
# An RLOC-probe Map-Request straight to the other xTR (P set)
frames.append(eth(A, B, udp("10.97.0.1", "10.97.0.3", 4342, 4342, map_request(0x0102030405060708, probe=True))))
# Negative Map-Reply: no locators, action 1 (natively forward), TTL 15 minutes
nrep = struct.pack(">BBBB", 2 << 4, 0, 0, 1) + struct.pack(">Q", 0x0102030405060708) + record(15, "192.168.3.0", 24, [], act=1, auth=0)
frames.append(eth(B, A, udp("10.97.0.2", "10.97.0.1", 4342, 4342, nrep)))
# Data: an ICMP echo from EID 192.168.1.1 to 192.168.2.5 encapsulated between the RLOCs, N and I
# flags (nonce, instance ID 5000), then the reply with E-bit and locator status bits
icmp = bytes.fromhex("0800") + b"\0\0" + struct.pack(">HH", 0x4c1a, 1) + b"lisp-ping"
icmp = icmp[:2] + struct.pack(">H", csum(icmp)) + icmp[4:]
inner = ipv4("192.168.1.1", "192.168.2.5", 1, icmp)
data = struct.pack(">B", 0x88) + (0x3A5B7C).to_bytes(3, "big") + struct.pack(">I", (5000 << 8) | 0x01) + inner
frames.append(eth(A, B, udp("10.97.0.1", "10.97.0.3", 61234, 4341, data)))
reply = bytes.fromhex("0000") + b"\0\0" + struct.pack(">HH", 0x4c1a, 1) + b"lisp-ping"
reply = reply[:2] + struct.pack(">H", csum(reply)) + reply[4:]
data = struct.pack(">B", 0xE0) + (0x3A5B7C).to_bytes(3, "big") + struct.pack(">I", 0x00000003) + ipv4("192.168.2.5", "192.168.1.1", 1, reply)
frames.append(eth(B, A, udp("10.97.0.3", "10.97.0.1", 61235, 4341, data)))
for f in frames: print(f.hex())
PYEOF
  import lisp "$work/lisp.raw.pcap"
}

rsvp_run() {
  python3 - <<PYEOF | frames_to_pcap "$work/rsvp.raw.pcap"
$craft_common
# CRAFTED RSVP-TE (RFC 2205, RFC 3209; IP protocol 46) for an LSP tunnel from 192.0.2.1 (head end,
# 10.97.0.1) to 192.0.2.9 (tail end, next hop 10.97.0.2): Path, Resv, PathErr, ResvConf, PathTear
# and ResvTear with their objects, as a Juniper or Cisco router signals them; no RSVP-TE daemon is
# packaged here and the kernel has no MPLS.
ip4 = socket.inet_aton
def obj(cls, ctype, body):
    return struct.pack(">HBB", 4 + len(body), cls, ctype) + body
def msg(mtype, objects, ttl=63):
    body = b"".join(objects)
    hdr = struct.pack(">BBHBBH", 0x10, mtype, 0, ttl, 0, 8 + len(body))
    m = hdr + body
    return m[:2] + struct.pack(">H", csum(m)) + m[4:]
session = obj(1, 7, ip4("192.0.2.9") + struct.pack(">HH", 0, 7) + ip4("192.0.2.1"))
hop_a = obj(3, 1, ip4("10.97.0.1") + struct.pack(">I", 3))
hop_b = obj(3, 1, ip4("10.97.0.2") + struct.pack(">I", 5))
time_values = obj(5, 1, struct.pack(">I", 30000))
label_request = obj(19, 1, struct.pack(">HH", 0, 0x0800))
name = b"dsx-lsp-1"
name += b"\0" * ((-len(name) - 4) % 4)
session_attr = obj(207, 7, struct.pack(">BBBB", 7, 7, 0x04, 9) + name)
sender = obj(11, 7, ip4("192.0.2.1") + struct.pack(">HH", 0, 2))
def intserv_tspec(rate, bucket, peak, m, M):
    return struct.pack(">HH", 0, 7) + struct.pack(">BBH", 1, 0, 6) + struct.pack(">BBH", 127, 0, 5) + struct.pack(">fffII", rate, bucket, peak, m, M)
tspec = obj(12, 2, intserv_tspec(1250000.0, 1000.0, float("inf"), 20, 1500))
def subobj_ipv4(addr, plen=32, loose=False):
    return struct.pack(">BB", (0x80 if loose else 0) | 1, 8) + ip4(addr) + struct.pack(">BB", plen, 0)
ero = obj(20, 1, subobj_ipv4("10.97.0.2") + subobj_ipv4("10.97.1.2") + subobj_ipv4("192.0.2.9", loose=True))
style = obj(8, 1, struct.pack(">I", 0x12))          # shared explicit
flowspec = obj(9, 2, struct.pack(">HH", 0, 7) + struct.pack(">BBH", 5, 0, 6) + struct.pack(">BBH", 127, 0, 5) + struct.pack(">fffII", 1250000.0, 1000.0, float("inf"), 20, 1500))
filter_spec = obj(10, 7, ip4("192.0.2.1") + struct.pack(">HH", 0, 2))
label = obj(16, 1, struct.pack(">I", 299776))
def rro_ipv4(addr, flags=0):
    return struct.pack(">BB", 1, 8) + ip4(addr) + struct.pack(">BB", 32, flags)
def rro_label(l, flags=1):
    return struct.pack(">BBBB", 3, 8, flags, 1) + struct.pack(">I", l)
rro = obj(21, 1, rro_ipv4("10.97.0.2") + rro_label(299776) + rro_ipv4("10.97.1.2") + rro_label(3))
error_spec = obj(6, 1, ip4("10.97.0.2") + struct.pack(">BBH", 0, 24, 5))     # routing problem: no route to destination
resv_confirm = obj(15, 1, ip4("10.97.0.1"))
frames = []
path = msg(1, [session, hop_a, time_values, label_request, session_attr, sender, tspec, ero])
frames.append(eth(A, B, ipv4("10.97.0.1", "192.0.2.9", 46, path, ttl=63, options=bytes.fromhex("94040000"))))
resv = msg(2, [session, hop_b, time_values, resv_confirm, style, flowspec, filter_spec, label, rro])
frames.append(eth(B, A, ipv4("10.97.0.2", "10.97.0.1", 46, resv)))
conf = msg(7, [session, error_spec[:0] + obj(6, 1, ip4("10.97.0.1") + struct.pack(">BBH", 0, 0, 0)), resv_confirm, style, flowspec, filter_spec])
frames.append(eth(A, B, ipv4("10.97.0.1", "10.97.0.2", 46, conf)))
perr = msg(3, [session, error_spec, sender, tspec])
frames.append(eth(B, A, ipv4("10.97.0.2", "10.97.0.1", 46, perr)))
ptear = msg(5, [session, hop_a, sender, tspec])
frames.append(eth(A, B, ipv4("10.97.0.1", "192.0.2.9", 46, ptear, options=bytes.fromhex("94040000"))))
rtear = msg(6, [session, hop_b, style, filter_spec])
frames.append(eth(B, A, ipv4("10.97.0.2", "10.97.0.1", 46, rtear)))
for f in frames: print(f.hex())
PYEOF
  import rsvp "$work/rsvp.raw.pcap"
}

rx_run() {
  python3 - <<PYEOF | frames_to_pcap "$work/rx.raw.pcap"
$craft_common
# CRAFTED AFS Rx (UDP 7000-7009) between an AFS client (10.97.0.1, port 7001, its cache manager's
# callback port) and servers on 10.97.0.2: a volume location lookup (vlserver, 7003) and a file
# server status fetch (7000) with Rx's data, ack, challenge and response (rxkad), busy, ack-all and
# abort packets, as OpenAFS's client sends them; no AFS cell runs here.
EPOCH = 0x65A1B2C3
def rx(cid, call, seq, serial, ptype, flags, payload=b"", userstatus=0, security=0, service=0, spare=0):
    return struct.pack(">IIIIIBBBBHH", EPOCH, cid, call, seq, serial, ptype, flags, userstatus, security, spare, service) + payload
def ack(bufferspace, maxskew, first, prev, serial, reason, acks, trailer=True):
    p = struct.pack(">HHIIIBB", bufferspace, maxskew, first, prev, serial, reason, len(acks)) + bytes(acks)
    if trailer:
        p += b"\0" * 3 + struct.pack(">IIII", 1444, 1444, 32, 4)
    return p
CID = 0x9A3C0000
frames = []
def c2s(port, data): frames.append(eth(A, B, udp("10.97.0.1", "10.97.0.2", 7001, port, data)))
def s2c(port, data): frames.append(eth(B, A, udp("10.97.0.2", "10.97.0.1", port, 7001, data)))
# vlserver: VL_GetEntryByNameN (opcode 527) for volume "root.cell", one data packet each way
name = b"root.cell"
req = struct.pack(">I", 527) + struct.pack(">I", len(name)) + name + b"\0" * ((-len(name)) % 4)
c2s(7003, rx(CID, 1, 1, 1, 1, 0x05, req, service=52))                         # client-initiated, last packet
s2c(7003, rx(CID, 1, 0, 1, 4, 0x00, struct.pack(">i", 363524), service=52))   # abort: VL_NOENT
c2s(7003, rx(CID, 1, 0, 2, 2, 0x01, ack(32, 0, 2, 1, 1, 1, [1]), service=52))  # ack: requested, one ACK
# fileserver with rxkad: the server challenges, the client responds
c2s(7000, rx(CID + 4, 1, 1, 1, 1, 0x05, struct.pack(">IIII", 132, 536870919, 1, 1), security=2, service=1))  # FetchStatus
s2c(7000, rx(CID + 4, 0, 0, 1, 6, 0x00, struct.pack(">IIII", 2, 0x1F2E3D4C, 0, 0), security=2, service=1))
resp = struct.pack(">II", 2, 0) + bytes(range(0x10, 0x38)) + struct.pack(">II", 5, 16) + bytes(range(0xA0, 0xB0))
c2s(7000, rx(CID + 4, 0, 0, 2, 7, 0x01, resp, security=2, service=1))
s2c(7000, rx(CID + 4, 1, 0, 2, 3, 0x00, b"", security=2, service=1))          # busy
s2c(7000, rx(CID + 4, 1, 0, 3, 4, 0x00, struct.pack(">i", -1), security=2, service=1))   # abort: RX_CALL_DEAD
c2s(7000, rx(CID + 4, 1, 0, 3, 5, 0x01, b"", security=2, service=1))          # ack all
for f in frames: print(f.hex())
PYEOF
  import rx "$work/rx.raw.pcap"
}

ipx_run() {
  python3 - <<PYEOF | frames_to_pcap "$work/ipx.raw.pcap"
$craft_common
# CRAFTED IPX (Ethernet II type 0x8137, and one over 802.2 LLC, DSAP 0xE0) as a NetWare server
# (network 0x0000CAFE, node 02:00:00:00:97:02) and a client (02:00:00:00:97:01) exchange it: RIP
# request and response (socket 0x0453), SAP nearest-server query and response (0x0452), and an
# SPX connection (connection request, its acknowledgement, data, end of message); the kernel has
# no IPX any more.
NET = 0x0000CAFE
client, server = bytes.fromhex(A), bytes.fromhex(B)
bcast = b"\xff" * 6
def ipx(ptype, dnet, dnode, dsock, snet, snode, ssock, payload, hops=0):
    return struct.pack(">HHBBI6sHI6sH", 0xFFFF, 30 + len(payload), hops, ptype, dnet, dnode, dsock, snet, snode, ssock) + payload
def frame_ii(src, dst, p):
    f = dst + src + struct.pack(">H", 0x8137) + p
    return f + b"\0" * max(0, 60 - len(f))
def frame_llc(src, dst, p):
    body = b"\xe0\xe0\x03" + p
    f = dst + src + struct.pack(">H", len(body)) + body
    return f + b"\0" * max(0, 60 - len(f))
frames = []
# RIP: the client asks for all networks; the server answers with two routes
frames.append(frame_ii(client, bcast, ipx(1, 0, bcast, 0x0453, 0, client, 0x0453, struct.pack(">HIHH", 1, 0xFFFFFFFF, 0xFFFF, 0xFFFF))))
frames.append(frame_ii(server, client, ipx(1, NET, client, 0x0453, NET, server, 0x0453,
    struct.pack(">H", 2) + struct.pack(">IHH", NET, 1, 1) + struct.pack(">IHH", 0x0000BEEF, 2, 7))))
# SAP: nearest file server query; the server's response (type 4, name, address, hops)
frames.append(frame_ii(client, bcast, ipx(4, 0, bcast, 0x0452, 0, client, 0x4001, struct.pack(">HH", 3, 0x0004))))
name = b"DSX-FS1".ljust(48, b"\0")
frames.append(frame_ii(server, client, ipx(4, NET, client, 0x4001, NET, server, 0x0452,
    struct.pack(">HH", 4, 0x0004) + name + struct.pack(">I6sHH", NET, server, 0x0451, 1))))
# SPX: connection request (system packet, send ack), its ack, data with end of message, ack
def spx(ctl, dtype, src, dst, seq, ack, alloc, data=b""):
    return struct.pack(">BBHHHHH", ctl, dtype, src, dst, seq, ack, alloc) + data
frames.append(frame_ii(client, server, ipx(5, NET, server, 0x5000, NET, client, 0x4002, spx(0xC0, 0, 0x1234, 0xFFFF, 0, 0, 3))))
frames.append(frame_ii(server, client, ipx(5, NET, client, 0x4002, NET, server, 0x5000, spx(0x80, 0, 0x5678, 0x1234, 0, 0, 3))))
frames.append(frame_ii(client, server, ipx(5, NET, server, 0x5000, NET, client, 0x4002, spx(0x50, 0, 0x1234, 0x5678, 0, 0, 3, b"hello over spx"))))
frames.append(frame_ii(server, client, ipx(5, NET, client, 0x4002, NET, server, 0x5000, spx(0x80, 0, 0x5678, 0x1234, 0, 1, 4))))
# The same RIP request over 802.2 LLC
frames.append(frame_llc(client, bcast, ipx(1, 0, bcast, 0x0453, 0, client, 0x0453, struct.pack(">HIHH", 1, 0xFFFFFFFF, 0xFFFF, 0xFFFF))))
for f in frames: print(f.hex())
PYEOF
  import ipx "$work/ipx.raw.pcap"
}

igmp_mld_run() {
  netns_down
  ip netns add "$a"
  ip netns add "$b"
  ip link add dsxmc0 netns "$a" type veth peer name dsxmc1 netns "$b"
  cat > "$work/mcjoin.py" <<'PYEOF'
import socket, struct, sys, time
# A multicast receiver in namespace a: joins and leaves groups with and without source filters,
# as an application does (IPv4 socket options and RFC 3678's protocol-independent ones).
phase = sys.argv[1]
ifname = "dsxmc0"
ifindex = socket.if_nametoindex(ifname)
me = socket.inet_aton("10.97.0.1")
MCAST_JOIN_GROUP, MCAST_BLOCK_SOURCE, MCAST_UNBLOCK_SOURCE = 42, 43, 44
MCAST_LEAVE_GROUP, MCAST_JOIN_SOURCE_GROUP, MCAST_LEAVE_SOURCE_GROUP = 45, 46, 47
IP_UNBLOCK_SOURCE, IP_BLOCK_SOURCE, IP_ADD_SOURCE_MEMBERSHIP, IP_DROP_SOURCE_MEMBERSHIP = 37, 38, 39, 40

def ss6(addr):  # sockaddr_in6 in a sockaddr_storage
    return struct.pack("=HHI16sI", socket.AF_INET6, 0, 0, socket.inet_pton(socket.AF_INET6, addr), 0).ljust(128, b"\0")
def greq6(group):
    return struct.pack("=I4x", ifindex) + ss6(group)
def gsreq6(group, source):
    return struct.pack("=I4x", ifindex) + ss6(group) + ss6(source)
def mreq_src(group, source):
    return socket.inet_aton(group) + me + socket.inet_aton(source)
def mreq(group):
    return socket.inet_aton(group) + me

v4 = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(3)]
v6 = [socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) for _ in range(3)]
IP6 = socket.IPPROTO_IPV6
if phase == "v3":
    # Any-source joins: TO_EX {} (IGMPv3) / TO_EX {} (MLDv2)
    v4[0].setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq("239.1.1.1")); time.sleep(0.5)
    v6[0].setsockopt(IP6, MCAST_JOIN_GROUP, greq6("ff15::1:1")); time.sleep(0.5)
    # Source-specific joins (SSM range): ALLOW / TO_IN with the source
    v4[1].setsockopt(socket.IPPROTO_IP, IP_ADD_SOURCE_MEMBERSHIP, mreq_src("232.1.1.1", "10.97.0.9")); time.sleep(0.5)
    v4[1].setsockopt(socket.IPPROTO_IP, IP_ADD_SOURCE_MEMBERSHIP, mreq_src("232.1.1.1", "10.97.0.10")); time.sleep(0.5)
    v6[1].setsockopt(IP6, MCAST_JOIN_SOURCE_GROUP, gsreq6("ff35::1:2", "fd97::9")); time.sleep(0.5)
    v6[1].setsockopt(IP6, MCAST_JOIN_SOURCE_GROUP, gsreq6("ff35::1:2", "fd97::10")); time.sleep(0.5)
    # Blocking a source of an any-source group: BLOCK (exclude mode grows)
    v4[0].setsockopt(socket.IPPROTO_IP, IP_BLOCK_SOURCE, mreq_src("239.1.1.1", "10.97.0.11")); time.sleep(0.5)
    v6[0].setsockopt(IP6, MCAST_BLOCK_SOURCE, gsreq6("ff15::1:1", "fd97::11")); time.sleep(0.5)
    # Current-state records answer the querier's general queries meanwhile (IS_IN, IS_EX)
    time.sleep(float(sys.argv[2]))
    # Dropping one source of the SSM group: BLOCK; unblocking: ALLOW
    v4[1].setsockopt(socket.IPPROTO_IP, IP_DROP_SOURCE_MEMBERSHIP, mreq_src("232.1.1.1", "10.97.0.9")); time.sleep(0.5)
    v6[1].setsockopt(IP6, MCAST_LEAVE_SOURCE_GROUP, gsreq6("ff35::1:2", "fd97::9")); time.sleep(0.5)
    v4[0].setsockopt(socket.IPPROTO_IP, IP_UNBLOCK_SOURCE, mreq_src("239.1.1.1", "10.97.0.11")); time.sleep(0.5)
    v6[0].setsockopt(IP6, MCAST_UNBLOCK_SOURCE, gsreq6("ff15::1:1", "fd97::11")); time.sleep(0.5)
    # Leaving: TO_IN {} (the querier answers with group-specific queries)
    v4[0].setsockopt(socket.IPPROTO_IP, socket.IP_DROP_MEMBERSHIP, mreq("239.1.1.1")); time.sleep(0.5)
    v6[0].setsockopt(IP6, MCAST_LEAVE_GROUP, greq6("ff15::1:1")); time.sleep(0.5)
    v4[1].close(); v6[1].close()
    time.sleep(3)
else:
    # Older versions (forced by sysctl): v2/v1 reports, leave, MLDv1 report and done
    g4, g6 = ("239.2.2.2", "ff15::2:2") if phase == "v2" else ("239.3.3.3", "ff15::3:3")
    v4[0].setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq(g4)); time.sleep(0.5)
    if phase == "v2":
        v6[0].setsockopt(IP6, MCAST_JOIN_GROUP, greq6(g6))
    time.sleep(float(sys.argv[2]))
    v4[0].close(); v6[0].close()
    time.sleep(2)
PYEOF
  # The receiver's interface is up before the bridge exists, so the capture sees the first queries.
  ip -n "$a" link set dsxmc0 address 02:00:00:00:97:01
  ip -n "$a" link set lo up
  ip -n "$a" addr add 10.97.0.1/24 dev dsxmc0
  ip -n "$a" addr add fd97::1/64 dev dsxmc0 nodad
  # No router solicitations to clutter it (the filter leaves out neighbour discovery).
  ip netns exec "$a" sysctl -qw net.ipv6.conf.dsxmc0.router_solicitations=0
  ip -n "$a" link set dsxmc0 up
  start_capture igmp-mld dsxmc0 'igmp or (ip6 and not icmp6)'
  ip -n "$b" link add br0 address 02:00:00:00:97:03 type bridge mcast_snooping 1 mcast_querier 1 \
    mcast_igmp_version 3 mcast_mld_version 2 mcast_query_interval 1000 \
    mcast_startup_query_interval 200 mcast_startup_query_count 2 \
    mcast_query_response_interval 1500 mcast_last_member_interval 100 mcast_query_use_ifaddr 1
  ip -n "$b" link set dsxmc1 address 02:00:00:00:97:02
  ip -n "$b" link set dsxmc1 master br0
  ip -n "$b" addr add 10.97.0.2/24 dev br0
  ip -n "$b" addr add fd97::2/64 dev br0 nodad
  ip -n "$b" link set lo up
  ip -n "$b" link set dsxmc1 up
  ip -n "$b" link set br0 up
  sleep 1
  # IGMPv3 and MLDv2 (the kernel's defaults)
  ip netns exec "$a" timeout 60 python3 "$work/mcjoin.py" v3 16
  # IGMPv2 and MLDv1, queried as such
  ip netns exec "$a" sysctl -qw net.ipv4.conf.dsxmc0.force_igmp_version=2
  ip netns exec "$a" sysctl -qw net.ipv6.conf.dsxmc0.force_mld_version=1
  ip -n "$b" link set br0 type bridge mcast_igmp_version 2 mcast_mld_version 1
  ip netns exec "$a" timeout 60 python3 "$work/mcjoin.py" v2 11
  # IGMPv1
  ip netns exec "$a" sysctl -qw net.ipv4.conf.dsxmc0.force_igmp_version=1
  ip netns exec "$a" timeout 30 python3 "$work/mcjoin.py" v1 1
  stop_captures
  import igmp-mld "$work/igmp-mld.raw.pcap"
  netns_down
}

for name in "${wanted[@]}"; do
  case $name in
  igmp-mld) igmp_mld_run ;;
  rpki-rtr) rpki_rtr_run ;;
  mpls-echo) mpls_echo_run ;;
  lisp) lisp_run ;;
  rsvp) rsvp_run ;;
  rx) rx_run ;;
  ipx) ipx_run ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
echo "captured: ${wanted[*]}"
