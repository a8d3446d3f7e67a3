#!/usr/bin/env bash
# Captures transport variants from the Linux kernel between two network namespaces joined by two
# veth pairs (10.98.1.0/24 and 10.98.2.0/24, fd00:98::/64; nothing leaves them, every peer is
# bounded in time and count), then the crafted ones (scripts/corpus/transport_variants.py), and
# records tshark's dissection of the same bytes as the oracle the tests compare with.
#
#   scripts/capture-transport.sh [mptcp] [udplite] [seg6] [crafted]
#                                 (as root; needs tcpdump, tshark, mergecap, iproute2, python3, scapy)
#
#   mptcp.pcap     the kernel's MPTCP (net.mptcp.enabled=1; sockets of protocol IPPROTO_MPTCP, 262;
#                  scripts/corpus/transport-peers.py), captured on both veth pairs and merged:
#                  MP_CAPABLE (SYN, SYN/ACK, ACK with both keys, the first data), MP_JOIN (SYN with
#                  token and nonce, SYN/ACK with truncated HMAC, ACK with full HMAC) for a subflow from
#                  the client's second address (`ip mptcp endpoint ... subflow`), ADD_ADDR (and its
#                  echo) of the server's second address (`... signal`), DSS (data ACK, DSN, subflow
#                  sequence, data-level length, DATA_FIN), MP_PRIO (`ip mptcp endpoint change ...
#                  backup`), REMOVE_ADDR (`ip mptcp endpoint delete`); a second connection with DSS
#                  checksums (net.mptcp.checksum_enabled=1) closed with SO_LINGER 0: MP_FASTCLOSE and
#                  MP_TCPRST on the RSTs.
#   udplite.pcap   UDP-Lite (IP protocol 136; IPPROTO_UDPLITE sockets with UDPLITE_SEND_CSCOV) over
#                  IPv4 and IPv6: checksum coverages 8, 20 and 0 (the whole datagram), and replies.
#   seg6.pcap      the kernel's SRv6 (`ip -6 route ... encap seg6 mode inline|encap`): pings carrying a
#                  segment routing header (routing type 4), inline and in an outer IPv6 header; the
#                  namespaces' own MLDv2 reports with their hop-by-hop router alert, neighbour
#                  discovery, and the ICMPv6 errors the far end returns.
#   crafted        scripts/corpus/transport_variants.py (scapy; nothing here runs these): MPTCP
#                  MP_FAIL, ADD_ADDR with a port and IPv6, MP_CAPABLE v0 (mptcp-crafted.pcap); SCTP
#                  chunks the kernel module would send (no sctp module loads here: INIT parameters,
#                  SACK gap blocks and duplicate TSNs, ERROR/ABORT causes, FORWARD-TSN, ASCONF and its
#                  ACK, RE-CONFIG, AUTH, I-DATA, PAD; sctp-chunks.pcap); IPv6 extension headers
#                  (hop-by-hop jumbo payload, router alert, PadN; routing types 0, 2, 3 and 4 with
#                  TLVs; destination options with a home address; fragment; ipv6-ext-full.pcap); the
#                  Mobility header (binding update, acknowledgement, refresh request, home test init;
#                  mip6.pcap); DCCP (no dccp module loads here: request, response, ack, data, dataack,
#                  close, reset, with options; dccp.pcap); PGM (SPM, ODATA, RDATA, NAK, NCF, with
#                  options; pgm.pcap).
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv, read by tshark with TCP reassembly off. Keys, tokens, ports and sequence
# numbers differ from run to run; running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(mptcp udplite seg6 crafted)
a=dsx-tp-a
b=dsx-tp-b
peers=$root/scripts/corpus/transport-peers.py

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

namespaces() {
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
  ip netns add "$a"
  ip netns add "$b"
  ip link add dsxtp0 netns "$a" type veth peer name dsxtp1 netns "$b"
  ip link add dsxtp2 netns "$a" type veth peer name dsxtp3 netns "$b"
  ip -n "$a" addr add 10.98.1.1/24 dev dsxtp0
  ip -n "$b" addr add 10.98.1.2/24 dev dsxtp1
  ip -n "$a" addr add 10.98.2.1/24 dev dsxtp2
  ip -n "$b" addr add 10.98.2.2/24 dev dsxtp3
  ip -n "$a" addr add fd00:98::1/64 dev dsxtp0 nodad
  ip -n "$b" addr add fd00:98::2/64 dev dsxtp1 nodad
  for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
  for dev in dsxtp0 dsxtp2; do ip -n "$a" link set "$dev" up; done
  for dev in dsxtp1 dsxtp3; do ip -n "$b" link set "$dev" up; done
  sleep 1
}

capture_pids=()
start_capture() { # name filter interface...
  local name=$1 filter=$2; shift 2
  capture_pids=()
  for dev in "$@"; do
    ip netns exec "$a" tcpdump -U -q -i "$dev" -w "$work/$name.$dev.pcap" "$filter" 2>/dev/null &
    capture_pids+=($!)
  done
  sleep 1
}
# Merges the interfaces' captures by time, copies the frames into Corpus/captures with fixed
# timestamps, and writes the oracle.
stop_capture() { # name
  sleep 1
  for pid in "${capture_pids[@]}"; do kill "$pid"; wait "$pid" 2>/dev/null || true; done
  mergecap -F pcap -w "$work/$1.raw.pcap" "$work/$1".*.pcap
  python3 scripts/corpus/import_capture.py "$work/$1.raw.pcap" "$1"
}

mptcp() {
  namespaces
  for ns in "$a" "$b"; do
    ip netns exec "$ns" sysctl -qw net.mptcp.enabled=1 net.mptcp.checksum_enabled=0
    ip -n "$ns" mptcp limits set subflows 2 add_addr_accepted 2
  done
  ip -n "$b" mptcp endpoint add 10.98.2.2 dev dsxtp3 id 2 signal
  ip -n "$a" mptcp endpoint add 10.98.2.1 dev dsxtp2 id 3 subflow
  start_capture mptcp 'tcp port 5000' dsxtp0 dsxtp2
  ip netns exec "$b" timeout 30 python3 "$peers" mptcp-server 5000 2 & server=$!
  sleep 0.5
  ip netns exec "$a" timeout 20 python3 "$peers" mptcp-client 10.98.1.2 5000 close 6 & client=$!
  sleep 1.2
  ip -n "$a" mptcp endpoint change id 3 backup
  sleep 0.8
  ip -n "$b" mptcp endpoint delete id 2
  wait "$client" || true
  for ns in "$a" "$b"; do ip netns exec "$ns" sysctl -qw net.mptcp.checksum_enabled=1; done
  ip netns exec "$a" timeout 20 python3 "$peers" mptcp-client 10.98.1.2 5000 abort 2 || true
  sleep 1
  kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
  stop_capture mptcp
}

udplite() {
  namespaces
  start_capture udplite 'ip proto 136 or ip6 proto 136' dsxtp0
  ip netns exec "$b" timeout 10 python3 "$peers" udplite-server 10.98.1.2 5001 3 & server=$!
  sleep 0.5
  ip netns exec "$a" timeout 10 python3 "$peers" udplite-client 10.98.1.2 5001
  wait "$server" || true
  ip netns exec "$b" timeout 10 python3 "$peers" udplite-server fd00:98::2 5001 3 & server=$!
  sleep 0.5
  ip netns exec "$a" timeout 10 python3 "$peers" udplite-client fd00:98::2 5001
  wait "$server" || true
  stop_capture udplite
}

seg6() {
  namespaces
  ip -n "$b" addr add fd00:97::2/128 dev lo
  ip netns exec "$b" sysctl -qw net.ipv6.conf.all.seg6_enabled=1 net.ipv6.conf.dsxtp1.seg6_enabled=1 \
    net.ipv6.conf.all.forwarding=1
  ip -n "$a" -6 route add fd00:97::/64 encap seg6 mode inline segs fd00:98::2 dev dsxtp0
  ip -n "$a" -6 route add fd00:96::/64 encap seg6 mode encap segs fd00:98::2,fd00:97::2 dev dsxtp0
  start_capture seg6 'ip6' dsxtp0
  ip netns exec "$a" ping -6 -q -c 2 -i 0.2 -W 1 fd00:97::2 >/dev/null || true
  ip netns exec "$a" ping -6 -q -c 2 -i 0.2 -W 1 fd00:96::5 >/dev/null || true
  stop_capture seg6
}

for name in "${wanted[@]}"; do
  case $name in
    mptcp|udplite|seg6) $name ;;
    crafted) (cd scripts/corpus && python3 transport_variants.py) ;;
    *) (cd scripts/corpus && python3 transport_variants.py "$name") ;;
  esac
done
