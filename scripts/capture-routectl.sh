#!/usr/bin/env bash
# Captures routing control protocols beyond the IGPs from FRR's daemons (Debian's frr 8.4: zebra,
# isisd, ldpd, bgpd, pimd) running in network namespaces joined by veth pairs (10.98.0.1 and
# 10.98.0.2, fd98::1 and fd98::2; nothing leaves them, every daemon is bounded in time), and records
# tshark's dissection of the same bytes as the oracle the tests compare with.
#
#   scripts/capture-routectl.sh [isis] [ldp] [bgp-frr] [pim-register] [clnp-esis] [nhrp]
#                               (as root; needs tcpdump, tshark, mergecap, Debian's frr, and scapy
#                                for clnp-esis)
#
#   isis.pcap          isisd in two namespaces, IPv4 and IPv6, level-1-2, on a broadcast link
#                      (LAN IIHs of both levels, LSPs, CSNPs from the DIS, PSNPs) and a
#                      point-to-point link (P2P IIHs, padded, with the three-way adjacency TLV) merged into
#                      one capture: over 802.3 with LLC (DSAP/SSAP 0xFE), TLVs area addresses, IS
#                      neighbors, protocols supported, IP interface address, hostname, extended IS
#                      reachability, extended IP reachability, IPv6 reachability and interface
#                      address, router capability, LSP entries, padding, authentication (HMAC-MD5
#                      on the LAN's hellos and level-1 LSPs and SNPs, cleartext at level 2).
#   ldp.pcap           ldpd in two namespaces, IPv4 and IPv6: hellos on UDP 646 (common hello
#                      parameters, IPv4 and IPv6 transport addresses, configuration sequence number,
#                      dual-stack transport preference), the TCP 646
#                      session: initialization (common session parameters, capabilities),
#                      keepalives, address messages, label mappings (FEC, generic label). The
#                      container's kernel has no MPLS (zebra says "no kernel support"); LDP itself
#                      runs all the same.
#   bgp-frr.pcap       bgpd AS 65001 and AS 4200000002 (a 4-octet AS) over IPv4 with IPv4 and IPv6
#                      unicast (MP_REACH_NLRI/MP_UNREACH_NLRI), capabilities multiprotocol, route
#                      refresh, enhanced route refresh, 4-octet AS, add-path, graceful restart,
#                      long-lived GR, extended message, FQDN, software version, ORF; updates with
#                      ORIGIN, AS_PATH, NEXT_HOP, MED, communities, large communities, extended
#                      communities, ATOMIC_AGGREGATE, AGGREGATOR; a route refresh (clear soft in),
#                      withdrawals, and the NOTIFICATION of an administrative shutdown with its
#                      message. A second session over IPv6 without capability negotiation (the
#                      4-octet AS appears as AS_TRANS 23456) carries 2-octet AS_PATHs with AS4_PATH
#                      and AS4_AGGREGATOR.
#   pim-register.pcap  pimd in two namespaces, first-hop router 10.98.0.1 and RP 10.98.0.2, a
#                      source namespace behind the first-hop router sending UDP to 239.1.1.1 (ten
#                      datagrams): PIM hellos (holdtime, DR priority, generation ID, LAN prune
#                      delay), registers carrying the source's IP/UDP packet, null registers,
#                      register-stops, join/prunes, and the IGMP of the RP's static group.
#   clnp-esis.pcap     CRAFTED with scapy (no OSI end system runs on Linux): ES-IS ESH and ISH,
#                      CLNP data and error reports over 802.3 LLC, as an OSI end system and router
#                      would send them.
#   nhrp.pcap          CRAFTED (the container's kernel has no GRE, so FRR's nhrpd cannot run): NHRP in
#                      GRE between a DMVPN hub and spoke: registration request and reply,
#                      resolution request and reply, purge request and reply, error indication,
#                      traffic indication; client information entries and extensions (responder
#                      address, forward and reverse transit NHS records, authentication, NAT
#                      address, end), as nhrpd sends them.
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/import_capture.py), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv. ROUTECTL_KEEP_LOGS=DIR keeps the daemons' configurations and logs. The
# timers, generation IDs and sequence numbers differ from run to run; running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(isis ldp bgp-frr pim-register clnp-esis nhrp)
a=dsx-rt-a
b=dsx-rt-b
s=dsx-rt-s
r=dsx-rt-r

work=$(mktemp -d)
chmod 755 "$work"
pids=()
capture_pids=()
netns_down() { for ns in "$a" "$b" "$s" "$r"; do ip netns del "$ns" 2>/dev/null || true; done; }
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
  [ -n "${ROUTECTL_KEEP_LOGS:-}" ] && cp -r "$work" "$ROUTECTL_KEEP_LOGS"
  rm -rf "$work"
}
trap cleanup EXIT

# Two namespaces joined by veth dsxrt0 (a) / dsxrt1 (b); link2 adds a second pair dsxrt2/dsxrt3.
netns_up() { # [link2]
  netns_down
  ip netns add "$a"
  ip netns add "$b"
  ip link add dsxrt0 netns "$a" type veth peer name dsxrt1 netns "$b"
  ip -n "$a" addr add 10.98.0.1/24 dev dsxrt0
  ip -n "$b" addr add 10.98.0.2/24 dev dsxrt1
  ip -n "$a" addr add fd98::1/64 dev dsxrt0 nodad
  ip -n "$b" addr add fd98::2/64 dev dsxrt1 nodad
  if [ "${1:-}" = link2 ]; then
    ip link add dsxrt2 netns "$a" type veth peer name dsxrt3 netns "$b"
    ip -n "$a" addr add 10.98.2.1/24 dev dsxrt2
    ip -n "$b" addr add 10.98.2.2/24 dev dsxrt3
    ip -n "$a" link set dsxrt2 up
    ip -n "$b" link set dsxrt3 up
  fi
  for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
  ip -n "$a" addr add 192.0.2.1/32 dev lo
  ip -n "$b" addr add 198.51.100.1/32 dev lo
  ip -n "$a" link set dsxrt0 up
  ip -n "$b" link set dsxrt1 up
  sleep 1
}

# FRR's daemons in a namespace: each under its own path space (-N, /var/run/frr/<ns>/), run as frr.
frr_daemon() { # ns seconds daemon config
  mkdir -p "/var/run/frr/$1"
  chown frr:frr "/var/run/frr/$1"
  chmod 644 "$4"
  ip netns exec "$1" timeout "$2" "/usr/lib/frr/$3" -N "$1" -A 127.0.0.1 -P 0 -f "$4" \
    >"$work/$1-$3.log" 2>&1 &
  pids+=($!)
}
vtysh_in() { # ns command...
  local ns=$1; shift
  ip netns exec "$ns" vtysh -N "$ns" "$@" >>"$work/$ns-vtysh.log" 2>&1 || true
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

isis_run() {
  netns_up link2
  for side in a b; do
    if [ $side = a ]; then ns=$a; i0=dsxrt0; i2=dsxrt2; sys=0001; else ns=$b; i0=dsxrt1; i2=dsxrt3; sys=0002; fi
    cat > "$work/$side-isis.conf" <<EOF
hostname rt-$side
interface lo
 ip router isis DSX
 ipv6 router isis DSX
 isis passive
interface $i0
 ip router isis DSX
 ipv6 router isis DSX
 isis hello-interval 3
 no isis hello padding
 isis csnp-interval 5
 isis password md5 dsx-hello-key
 isis priority $([ $side = a ] && echo 90 || echo 64)
interface $i2
 ip router isis DSX
 isis network point-to-point
 isis hello-interval 10
router isis DSX
 net 49.0001.0000.0000.$sys.00
 is-type level-1-2
 area-password md5 dsx-area-key
 domain-password clear dsx-domain
 metric-style wide
 log-adjacency-changes
 lsp-gen-interval 1
 topology ipv6-unicast
EOF
    frr_daemon "$ns" 40 zebra /dev/null
  done
  sleep 2
  frr_daemon "$a" 36 isisd "$work/a-isis.conf"
  start_capture isis-lan dsxrt0 'iso'
  ip netns exec "$a" tcpdump -U -q -i dsxrt2 -w "$work/isis-p2p.raw.pcap" iso 2>/dev/null &
  capture_pids+=($!)
  sleep 1
  frr_daemon "$b" 34 isisd "$work/b-isis.conf"
  sleep 22
  ip -n "$b" addr add 203.0.113.1/32 dev lo   # a new prefix: new LSPs, PSNPs
  sleep 8
  stop_captures
  stop_peers
  mergecap -F pcap -w "$work/isis.raw.pcap" "$work/isis-lan.raw.pcap" "$work/isis-p2p.raw.pcap"
  import isis "$work/isis.raw.pcap"
}

ldp_run() {
  netns_up
  for side in a b; do
    if [ $side = a ]; then ns=$a; i0=dsxrt0; id=10.98.0.1; id6=fd98::1; else ns=$b; i0=dsxrt1; id=10.98.0.2; id6=fd98::2; fi
    cat > "$work/$side-ldp.conf" <<EOF
hostname rt-$side
mpls ldp
 router-id $id
 dual-stack cisco-interop
 address-family ipv4
  discovery transport-address $id
  discovery hello interval 3
  label local advertise explicit-null
  interface $i0
 exit-address-family
 address-family ipv6
  discovery transport-address $id6
  interface $i0
 exit-address-family
EOF
    cat > "$work/$side-zebra.conf" <<EOF
hostname rt-$side
ip route 10.97.$([ $side = a ] && echo 1 || echo 2).0/24 Null0
EOF
    frr_daemon "$ns" 40 zebra "$work/$side-zebra.conf"
    frr_daemon "$ns" 40 staticd "$work/$side-zebra.conf"
  done
  sleep 2
  start_capture ldp dsxrt0 'port 646'
  frr_daemon "$a" 30 ldpd "$work/a-ldp.conf"
  frr_daemon "$b" 30 ldpd "$work/b-ldp.conf"
  sleep 18
  ip -n "$b" addr add 203.0.113.1/32 dev lo   # a new address: an address message and a mapping
  sleep 6
  vtysh_in "$b" -c 'clear mpls ldp neighbor'
  sleep 4
  stop_captures
  stop_peers
  import ldp "$work/ldp.raw.pcap"
}

bgp_run() {
  netns_up
  cat > "$work/a-bgp.conf" <<EOF
hostname rt-a
ip prefix-list ORF seq 5 permit 198.51.100.0/24 le 32
route-map SET permit 10
 set community 65001:100 65001:200 no-export
 set large-community 65001:1:2 65001:3:4
 set extcommunity rt 65001:42 1.2.3.4:7
 set extcommunity soo 65001:9
 set metric 50
router bgp 65001
 bgp router-id 10.98.0.1
 no bgp ebgp-requires-policy
 no bgp network import-check
 bgp graceful-restart
 bgp long-lived-graceful-restart stale-time 30
 neighbor 10.98.0.2 remote-as 4200000002
 neighbor 10.98.0.2 capability dynamic
 neighbor 10.98.0.2 capability extended-nexthop
 neighbor fd98::2 remote-as 23456
 neighbor fd98::2 dont-capability-negotiate
 address-family ipv4 unicast
  network 192.0.2.0/24 route-map SET
  network 192.0.2.128/25
  network 192.0.2.192/26
  aggregate-address 192.0.2.0/23 summary-only
  neighbor 10.98.0.2 route-map SET out
  neighbor 10.98.0.2 addpath-tx-all-paths
  neighbor 10.98.0.2 capability orf prefix-list both
  neighbor 10.98.0.2 prefix-list ORF in
  neighbor fd98::2 activate
 exit-address-family
 address-family ipv6 unicast
  network 2001:db8:1::/48 route-map SET
  neighbor 10.98.0.2 activate
  neighbor 10.98.0.2 route-map SET out
 exit-address-family
EOF
  cat > "$work/b-bgp.conf" <<EOF
hostname rt-b
router bgp 4200000002
 bgp router-id 10.98.0.2
 no bgp ebgp-requires-policy
 no bgp network import-check
 bgp graceful-restart
 neighbor 10.98.0.1 remote-as 65001
 neighbor 10.98.0.1 capability extended-nexthop
 neighbor fd98::1 remote-as 65001
 neighbor fd98::1 dont-capability-negotiate
 address-family ipv4 unicast
  network 198.51.100.0/24
  network 198.51.100.64/26
  neighbor 10.98.0.1 addpath-rx-paths-limit 2
  neighbor 10.98.0.1 capability orf prefix-list both
  neighbor fd98::1 activate
  aggregate-address 198.51.100.0/23
 exit-address-family
 address-family ipv6 unicast
  network 2001:db8:2::/48
  neighbor 10.98.0.1 activate
 exit-address-family
EOF
  for side in a b; do
    if [ $side = a ]; then ns=$a; else ns=$b; fi
    frr_daemon "$ns" 45 zebra /dev/null
  done
  sleep 2
  start_capture bgp-frr dsxrt0 'tcp port 179'
  frr_daemon "$a" 40 bgpd "$work/a-bgp.conf"
  frr_daemon "$b" 40 bgpd "$work/b-bgp.conf"
  sleep 15
  vtysh_in "$a" -c 'clear bgp 10.98.0.2 soft in'
  vtysh_in "$b" -c 'clear bgp ipv6 unicast 10.98.0.1 soft in'
  sleep 3
  vtysh_in "$a" -c 'configure terminal' -c 'router bgp 65001' -c 'address-family ipv4 unicast' \
    -c 'no network 192.0.2.192/26' -c 'address-family ipv6 unicast' -c 'no network 2001:db8:1::/48'
  sleep 4
  vtysh_in "$a" -c 'configure terminal' -c 'router bgp 65001' \
    -c 'neighbor 10.98.0.2 shutdown message maintenance window' -c 'neighbor fd98::2 shutdown'
  sleep 3
  stop_captures
  stop_peers
  import bgp-frr "$work/bgp-frr.raw.pcap"
}

pim_run() {
  netns_up
  # the source's namespace behind the first-hop router, and a receiver's link behind the RP
  ip netns add "$s"
  ip link add dsxrt4 netns "$a" type veth peer name dsxrt5 netns "$s"
  ip -n "$a" addr add 10.98.4.1/24 dev dsxrt4
  ip -n "$s" addr add 10.98.4.2/24 dev dsxrt5
  ip -n "$a" link set dsxrt4 up
  ip -n "$s" link set dsxrt5 up
  ip -n "$s" link set lo up
  ip -n "$s" route add default via 10.98.4.1
  ip netns add "$r"
  ip link add dsxrt6 netns "$b" type veth peer name dsxrt7 netns "$r"
  ip -n "$b" addr add 10.98.6.1/24 dev dsxrt6
  ip -n "$r" addr add 10.98.6.2/24 dev dsxrt7
  ip -n "$b" link set dsxrt6 up
  ip -n "$r" link set dsxrt7 up
  ip -n "$b" route add 10.98.4.0/24 via 10.98.0.1
  ip -n "$a" route add 10.98.6.0/24 via 10.98.0.2
  for side in a b; do
    if [ $side = a ]; then ns=$a; i0=dsxrt0; i1=dsxrt4; else ns=$b; i0=dsxrt1; i1=dsxrt6; fi
    cat > "$work/$side-pim.conf" <<EOF
hostname rt-$side
interface $i0
 ip pim
 ip pim hello 5
interface $i1
 ip pim
 ip igmp
$([ $side = b ] && echo ' ip igmp join 239.1.1.2')
ip pim rp 10.98.0.2 224.0.0.0/4
ip pim register-suppress-time 5
EOF
    frr_daemon "$ns" 45 zebra /dev/null
  done
  sleep 2
  start_capture pim-register dsxrt0 'ip proto 103 or igmp or ip multicast'
  frr_daemon "$a" 38 pimd "$work/a-pim.conf"
  frr_daemon "$b" 38 pimd "$work/b-pim.conf"
  sleep 10
  ip netns exec "$s" timeout 25 python3 - <<'EOF' &
import socket, time
so = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
so.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 8)
for i in range(10):
    so.sendto(b"dissect pim register %d" % i, ("239.1.1.1", 5000))
    so.sendto(b"dissect pim register to the joined group %d" % i, ("239.1.1.2", 5000))
    time.sleep(2)
EOF
  pids+=($!)
  sleep 24
  stop_captures
  stop_peers
  import pim-register "$work/pim-register.raw.pcap"
}

clnp_esis_run() {
  python3 - "$work/clnp-esis.raw.pcap" <<'EOF'
import struct, sys
# Crafted OSI frames over 802.3 + LLC (DSAP/SSAP 0xFE, UI): ES-IS hellos and CLNP PDUs as an end
# system (NSAP 49.0001.aabb.ccdd.ee01.00) and an intermediate system would send them.
es_mac = bytes.fromhex("020000000e01"); is_mac = bytes.fromhex("020000000e02")
all_es = bytes.fromhex("09002b000004"); all_is = bytes.fromhex("09002b000005")
es_nsap = bytes.fromhex("490001aabbccddee0100"); is_nsap = bytes.fromhex("490001aabbccddee0200")
dst_nsap = bytes.fromhex("490002112233445566fe")

def checksum(pdu, pos):
    """ISO 8473 checksum (Fletcher) with its two octets at pos."""
    pdu = bytearray(pdu); pdu[pos:pos + 2] = b"\0\0"
    c0 = c1 = 0
    for b in pdu:
        c0 = (c0 + b) % 255; c1 = (c1 + c0) % 255
    n = len(pdu); x = ((n - pos - 1) * c0 - c1) % 255; y = (c1 - (n - pos) * c0) % 255
    pdu[pos] = x or 255; pdu[pos + 1] = y or 255
    return bytes(pdu)

def frame(dst, src, pdu):
    llc = b"\xfe\xfe\x03" + pdu
    f = dst + src + struct.pack(">H", len(llc)) + llc
    return f + b"\0" * max(0, 60 - len(f))

def esis(kind, holding, body):
    hdr = bytes([0x82, 9 + len(body), 1, 0, kind]) + struct.pack(">H", holding)
    pdu = hdr + b"\0\0" + body
    return checksum(pdu, 7)

def clnp(kind, src, dst, data, options=b"", seg=None, lifetime=32, more=False, extra=0):
    """A CLNP PDU; seg is the data unit identifier and segment offset (the segmentation part's
    total length is this PDU's, plus extra octets in later segments)."""
    addr = bytes([len(dst)]) + dst + bytes([len(src)]) + src
    hlen = 9 + len(addr) + (6 if seg else 0) + len(options)
    total = hlen + len(data)
    segpart = struct.pack(">HHH", seg[0], seg[1], total + extra) if seg else b""
    flags = (0x80 if seg else 0) | (0x40 if more else 0) | (0x20 if kind != 0x01 else 0) | kind
    hdr = bytes([0x81, hlen, 1, lifetime, flags]) + struct.pack(">H", total) + b"\0\0"
    return checksum(hdr + addr + segpart + options, 7) + data

frames = []
# ES hello (ESH) from the end system to all intermediate systems: one NSAP
frames.append(frame(all_is, es_mac, esis(2, 300, bytes([1, len(es_nsap)]) + es_nsap)))
# IS hello (ISH) from the intermediate system to all end systems: its NET, with a security option
frames.append(frame(all_es, is_mac, esis(4, 600, bytes([len(is_nsap)]) + is_nsap + bytes([0xc6, 2, 0, 30]))))
# ESH with two NSAPs
frames.append(frame(all_is, es_mac, esis(2, 300, bytes([2, len(es_nsap)]) + es_nsap + bytes([len(es_nsap)]) + es_nsap[:-1] + b"\x01")))
# CLNP data PDU (DT) carrying a 12-octet payload, with segmentation part and QoS and priority options
opts = bytes([0xc3, 1, 0xc0]) + bytes([0xcd, 1, 0x05])
frames.append(frame(is_mac, es_mac, clnp(0x1c, es_nsap, dst_nsap, b"hello, osi!\n", opts, seg=(1, 0), lifetime=64)))
# CLNP data PDU, the first of two segments
frames.append(frame(is_mac, es_mac, clnp(0x1c, es_nsap, dst_nsap, b"first segment ", b"", seg=(2, 0), more=True,
                                          extra=24)))
# CLNP echo request (ER type 0x1e) and echo response (0x1f) without segmentation part
frames.append(frame(is_mac, es_mac, clnp(0x1e, es_nsap, dst_nsap, b"echo payload")))
frames.append(frame(es_mac, is_mac, clnp(0x1f, dst_nsap, es_nsap, b"echo payload")))
# CLNP error report (ER type 0x01) from the IS: reason option "lifetime expired" (0xc1), the
# header of the discarded PDU as data
bad = clnp(0x1c, es_nsap, dst_nsap, b"", b"", seg=(3, 0), lifetime=1)
frames.append(frame(es_mac, is_mac, clnp(0x01, is_nsap, es_nsap, bad, bytes([0xc1, 2, 0x80, 0]))))
# RD (redirect, ES-IS type 6): destination, subnetwork address, NET of the better IS
rd = bytes([len(dst_nsap)]) + dst_nsap + bytes([6]) + is_mac + bytes([len(is_nsap)]) + is_nsap
frames.append(frame(es_mac, is_mac, esis(6, 300, rd)))

with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for i, fr in enumerate(frames):
        f.write(struct.pack("<IIII", 1, i * 1000, len(fr), len(fr)) + fr)
EOF
  import clnp-esis "$work/clnp-esis.raw.pcap"
}

nhrp_run() {
  python3 - "$work/nhrp.raw.pcap" <<'EOF'
import struct, sys
# Crafted NHRP (RFC 2332, with Cisco's and FRR's extensions) in GRE (protocol type 0x2001) between
# a DMVPN hub (NBMA 192.0.2.1, tunnel 10.255.0.1) and a spoke (NBMA 192.0.2.2, tunnel 10.255.0.2),
# as FRR's nhrpd sends them; the kernel here has no GRE, so nhrpd cannot run.
hub_mac = bytes.fromhex("020000000201"); spoke_mac = bytes.fromhex("020000000202")
hub_nbma, spoke_nbma = bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2])
hub_tun, spoke_tun, other_tun = bytes([10, 255, 0, 1]), bytes([10, 255, 0, 2]), bytes([10, 255, 0, 3])

def csum(data):
    if len(data) % 2: data += b"\0"
    total = sum(struct.unpack(">%dH" % (len(data) // 2), data))
    while total >> 16: total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF

def cie(code=0, prefix=32, mtu=1400, htime=7200, nbma=b"", proto=b"", pref=0):
    return struct.pack(">BBHHHBBBB", code, prefix, 0, mtu, htime, len(nbma), 0, len(proto), pref) + nbma + proto

def ext(type_, value=b"", compulsory=False):
    return struct.pack(">HH", (0x8000 if compulsory else 0) | type_, len(value)) + value

def nhrp(op, mandatory, exts=b"", hopcnt=255):
    extoff = 20 + len(mandatory) if exts else 0
    body = mandatory + exts
    hdr = struct.pack(">HH5sBHHHBBBB", 1, 0x0800, b"\0" * 5, hopcnt, 20 + len(body), 0, extoff, 1, op, 4, 0)
    pkt = hdr + body
    return pkt[:12] + struct.pack(">H", csum(pkt)) + pkt[14:]

def common(flags, reqid, src_nbma, src_proto, dst_proto):
    return struct.pack(">BBHI", len(src_proto), len(dst_proto), flags, reqid) + src_nbma + src_proto + dst_proto

def error_part(code, offset, src_nbma, src_proto, dst_proto):
    return struct.pack(">BBHHH", len(src_proto), len(dst_proto), 0, code, offset) + src_nbma + src_proto + dst_proto

ip_id = [0x1000]
def frame(src_mac, dst_mac, src_ip, dst_ip, payload):
    gre = struct.pack(">HH", 0, 0x2001) + payload
    ip_id[0] += 1
    hdr = struct.pack(">BBHHHBBH4s4s", 0x45, 0xC0, 20 + len(gre), ip_id[0], 0x4000, 64, 47, 0, src_ip, dst_ip)
    hdr = hdr[:10] + struct.pack(">H", csum(hdr)) + hdr[12:]
    f = dst_mac + src_mac + b"\x08\x00" + hdr + gre
    return f + b"\0" * max(0, 60 - len(f))

end = ext(0, compulsory=True)
responder = ext(3, b"", True)
fwd, rev = ext(4, b"", True), ext(5, b"", True)
nat = ext(9, cie(prefix=32, nbma=spoke_nbma, proto=spoke_tun))
frames = []
# Registration Request (3), U flag, a CIE for the spoke's own address; responder address, transit
# NHS records, authentication (SPI 1, a cleartext password), end
frames.append(frame(spoke_mac, hub_mac, spoke_nbma, hub_nbma, nhrp(3,
    common(0x8000, 0x2a, spoke_nbma, spoke_tun, hub_tun) + cie(prefix=32, htime=7200),
    responder + fwd + rev + ext(7, struct.pack(">HH", 0, 1) + spoke_tun + b"secret") + end)))
# Registration Reply (4): code 0 (success), the responder address extension filled in, NAT address
frames.append(frame(hub_mac, spoke_mac, hub_nbma, spoke_nbma, nhrp(4,
    common(0x8000, 0x2a, spoke_nbma, spoke_tun, hub_tun) + cie(prefix=32, htime=7200),
    ext(3, cie(prefix=32, htime=7200, nbma=hub_nbma, proto=hub_tun), True) + fwd + rev + nat + end)))
# Resolution Request (1) for 10.255.0.3: Q, U and S flags
frames.append(frame(spoke_mac, hub_mac, spoke_nbma, hub_nbma, nhrp(1,
    common(0x9800, 0x2b, spoke_nbma, spoke_tun, other_tun) + cie(prefix=0, htime=7200),
    responder + fwd + rev + end)))
# Resolution Reply (2): the other spoke's NBMA and protocol addresses as a CIE
frames.append(frame(hub_mac, spoke_mac, hub_nbma, spoke_nbma, nhrp(2,
    common(0xD800, 0x2b, spoke_nbma, spoke_tun, other_tun)
    + cie(prefix=32, htime=7200, nbma=bytes([192, 0, 2, 3]), proto=other_tun),
    ext(3, cie(prefix=32, nbma=bytes([192, 0, 2, 3]), proto=other_tun), True) + fwd + rev + end)))
# Purge Request (5), one CIE
frames.append(frame(hub_mac, spoke_mac, hub_nbma, spoke_nbma, nhrp(5,
    common(0x8000, 0x2c, hub_nbma, hub_tun, spoke_tun) + cie(prefix=32, htime=0, proto=other_tun), end)))
# Purge Reply (6)
frames.append(frame(spoke_mac, hub_mac, spoke_nbma, hub_nbma, nhrp(6,
    common(0x8000, 0x2c, hub_nbma, hub_tun, spoke_tun) + cie(prefix=32, htime=0, proto=other_tun), end)))
# Error Indication (7): code 6 (protocol address unreachable), the errored packet after it
frames.append(frame(hub_mac, spoke_mac, hub_nbma, spoke_nbma, nhrp(7,
    error_part(6, 0, hub_nbma, hub_tun, spoke_tun)
    + nhrp(1, common(0x8000, 0x2d, spoke_nbma, spoke_tun, other_tun) + cie(prefix=0)))))
# Traffic Indication (8, Cisco's redirect): traffic code, the start of the packet that caused it
# (a ping from the spoke to the other spoke through the hub: its IP header and ICMP header)
quoted = bytes.fromhex("4500005400004000400100000aff00020aff0003")
quoted = quoted[:10] + struct.pack(">H", csum(quoted)) + quoted[12:] + bytes.fromhex("0800f7fe00010001")
frames.append(frame(hub_mac, spoke_mac, hub_nbma, spoke_nbma, nhrp(8,
    error_part(0, 0, hub_nbma, hub_tun, spoke_tun) + quoted)))

with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for i, fr in enumerate(frames):
        f.write(struct.pack("<IIII", 1, i * 1000, len(fr), len(fr)) + fr)
EOF
  import nhrp "$work/nhrp.raw.pcap"
}

for name in "${wanted[@]}"; do
  case $name in
  isis) isis_run ;;
  ldp) ldp_run ;;
  bgp-frr) bgp_run ;;
  pim-register) pim_run ;;
  clnp-esis) clnp_esis_run ;;
  nhrp) nhrp_run ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
echo "captured: ${wanted[*]}"
