#!/usr/bin/env bash
# Captures the interior routing protocols from FRR's daemons (Debian's frr: zebra, staticd, ospfd,
# ospf6d, ripd, ripngd, babeld, eigrpd), three routers in three network namespaces joined by three
# veth pairs (a triangle; nothing leaves them, every run is bounded in time), and records tshark's
# dissection of the same bytes as the oracle the tests compare with.
#
#   scripts/capture-igp.sh [igp-ospf] [igp-ospfv3] [igp-rip] [igp-ripng] [igp-babel] [igp-eigrp]
#                          [igp-eigrp-crafted]
#                                     (as root; needs tcpdump, tshark, mergecap and Debian's frr)
#
#   r1 --A-- r2          link A 10.30.12.0/24 fd30:12::/64   (r1 igpA1, r2 igpA2)
#    \      /           link B 10.30.23.0/24 fd30:23::/64   (r2 igpB2, r3 igpB3)
#     C    B            link C 10.30.13.0/24 fd30:13::/64   (r1 igpC1, r3 igpC3)
#      \  /             router IDs 1.1.1.1, 2.2.2.2, 3.3.3.3; loopbacks 10.30.255.N/32
#       r3              static (blackhole) routes 198.51.10N.0/24 and 2001:db8:N::/48, redistributed
#
# All the daemons run at once for about 50 s; tcpdump records r1's two links (A and C), which
# mergecap joins, and each capture is the frames of one protocol:
#
#   igp-ospf.pcap     OSPFv2, hellos every 2 s (dead 8 s, so that DR election is quick): area 0 on link A
#                 (MD5 cryptographic authentication), area 1 on link B, area 2 an NSSA on link C.
#                 r1 and r3 redistribute their statics, r2 is the ABR of areas 0 and 1, r1 of 0
#                 and 2; opaque LSAs (capability opaque, MPLS-TE with link parameters, Router
#                 Information). Hello, DB description, LS request, LS update and LS ack carrying
#                 router, network, summary, ASBR-summary, AS-external, NSSA and opaque LSAs.
#   igp-ospfv3.pcap   OSPFv3 (ospf6d) on the same links and areas: its five packet types and router,
#                 network, inter-area prefix, inter-area router, AS-external, NSSA, link and
#                 intra-area prefix LSAs.
#   igp-rip.pcap      ripd: RIPv2 on link A with MD5 authentication, RIPv1 on link C (send and receive
#                 version 1); requests, responses, updates every 5 s.
#   igp-ripng.pcap    ripngd on all links: requests and responses.
#   igp-babel.pcap    Debian's babeld (jech's; FRR 8.4's babeld sends nothing here) on all links,
#                 hellos every 2 s with timestamps, the statics and loopbacks redistributed: hello,
#                 IHU, router-ID, next hop, update and route request TLVs.
#   igp-eigrp.pcap    eigrpd (AS 10) on all IPv4 links: hellos with parameters and software version,
#                 acks, updates with IPv4 internal route TLVs (FRR 8.4's eigrpd sends no external
#                 routes, though it takes "redistribute static", and no IPv6).
#   igp-eigrp-crafted.pcap  CRAFTED with scapy (scripts/corpus/igp_crafted.py), for what eigrpd does
#                 not send: IPv4 external and IPv6 internal and external routes, MD5 authentication,
#                 stub, sequence and next multicast sequence TLVs, query and reply.
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv. IGP_KEEP_LOGS=DIR keeps the daemons' configurations and logs; IGP_SECONDS
# sets the run's length (default 50). Sequence numbers and ages differ from run to run; running
# again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${IGP_SECONDS:-50}
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(igp-ospf igp-ospfv3 igp-rip igp-ripng igp-babel igp-eigrp igp-eigrp-crafted)
ns=(dsx-igp-r1 dsx-igp-r2 dsx-igp-r3)
frr=/usr/lib/frr

work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  for n in "${ns[@]}"; do ip netns del "$n" 2>/dev/null || true; done
  rm -rf /var/run/frr/igp1 /var/run/frr/igp2 /var/run/frr/igp3
  [ -n "${IGP_KEEP_LOGS:-}" ] && cp -r "$work" "$IGP_KEEP_LOGS"
  rm -rf "$work"
}
trap cleanup EXIT
for n in "${ns[@]}"; do ip netns del "$n" 2>/dev/null || true; ip netns add "$n"; done
ip link add igpA1 netns "${ns[0]}" type veth peer name igpA2 netns "${ns[1]}"
ip link add igpB2 netns "${ns[1]}" type veth peer name igpB3 netns "${ns[2]}"
ip link add igpC1 netns "${ns[0]}" type veth peer name igpC3 netns "${ns[2]}"
addr() { # router interface v4 v6
  ip -n "${ns[$1-1]}" addr add "$3" dev "$2"
  ip -n "${ns[$1-1]}" addr add "$4" dev "$2" nodad
  ip -n "${ns[$1-1]}" link set "$2" up
}
for i in 1 2 3; do
  ip -n "${ns[$i-1]}" link set lo up
  ip -n "${ns[$i-1]}" addr add "10.30.255.$i/32" dev lo
  ip netns exec "${ns[$i-1]}" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
done
addr 1 igpA1 10.30.12.1/24 fd30:12::1/64
addr 2 igpA2 10.30.12.2/24 fd30:12::2/64
addr 2 igpB2 10.30.23.2/24 fd30:23::2/64
addr 3 igpB3 10.30.23.3/24 fd30:23::3/64
addr 1 igpC1 10.30.13.1/24 fd30:13::1/64
addr 3 igpC3 10.30.13.3/24 fd30:13::3/64

# Interfaces of each router and their OSPF areas.
declare -A ifaces=([1]="igpA1 igpC1" [2]="igpA2 igpB2" [3]="igpB3 igpC3")
area_of() { case $1 in igpA*) echo 0;; igpB*) echo 1;; igpC*) echo 2;; esac; }

config() { # router -> frr.conf
  local i=$1
  echo "hostname r$i"
  echo "log file $work/r$i/frr.log"
  echo "ip route 198.51.10$i.0/24 blackhole"
  echo "ipv6 route 2001:db8:$i::/48 blackhole"
  echo "key chain igp"
  echo " key 1"
  echo "  key-string secret"
  for ifc in ${ifaces[$i]}; do
    local area; area=$(area_of "$ifc")
    echo "interface $ifc"
    echo " link-params"
    echo "  enable"
    echo "  metric 10"
    echo "  max-bw 1.25e+08"
    echo "  max-rsv-bw 1.25e+08"
    echo "  admin-grp 0x1"
    echo " exit-link-params"
    echo " ip ospf area $area"
    echo " ip ospf hello-interval 2"
    echo " ip ospf dead-interval 8"
    echo " ipv6 ospf6 area $area"
    echo " ipv6 ospf6 hello-interval 2"
    echo " ipv6 ospf6 dead-interval 8"
    if [ "$area" = 0 ]; then
      echo " ip ospf authentication message-digest"
      echo " ip ospf message-digest-key 1 md5 secret"
      echo " ip rip authentication mode md5"
      echo " ip rip authentication key-chain igp"
    fi
    if [ "$area" = 2 ]; then
      echo " ip rip send version 1"
      echo " ip rip receive version 1 2"
    fi
  done
  echo "interface lo"
  [ "$i" = 2 ] && echo " ip ospf area 0"
  cat <<CONF
router ospf
 ospf router-id $i.$i.$i.$i
 capability opaque
 mpls-te on
 mpls-te router-address 10.30.255.$i
 router-info area
CONF
  [ "$i" != 2 ] && echo " redistribute static"
  [ "$i" != 2 ] && echo " area 2 nssa"
  [ "$i" = 1 ] && echo " area 0 authentication message-digest"
  [ "$i" = 2 ] && echo " area 0 authentication message-digest"
  echo "router ospf6"
  echo " ospf6 router-id $i.$i.$i.$i"
  [ "$i" != 2 ] && echo " redistribute static"
  [ "$i" != 2 ] && echo " area 2 nssa"
  echo "router rip"
  echo " network 10.30.0.0/16"
  echo " redistribute static"
  echo " redistribute connected"
  echo " timers basic 5 30 20"
  echo "router ripng"
  for ifc in ${ifaces[$i]}; do echo " network $ifc"; done
  echo " redistribute static"
  echo " redistribute connected"
  echo " timers basic 5 30 20"
  echo "router eigrp 10"
  echo " eigrp router-id $i.$i.$i.$i"
  echo " network 10.30.0.0/16"
  echo " redistribute static metric 10000 100 255 1 1500"
  echo " redistribute connected"
}

start_daemon() { # router daemon
  local i=$1 d=$2 n=${ns[$1-1]}
  ip netns exec "$n" "$frr/$d" -N "igp$i" -f "$work/r$i/frr.conf" -i "$work/r$i/$d.pid" \
    -z "/var/run/frr/igp$i/zserv.api" --vty_socket "/var/run/frr/igp$i" -P 0 \
    --log "file:$work/r$i/$d.log" >"$work/r$i/$d.out" 2>&1 &
  pids+=($!)
}

for i in 1 2 3; do
  mkdir -p "$work/r$i" "/var/run/frr/igp$i"
  chown frr:frr "$work/r$i" "/var/run/frr/igp$i"
  config "$i" > "$work/r$i/frr.conf"
  chmod 644 "$work/r$i/frr.conf"
done

ip netns exec "${ns[0]}" tcpdump -U -q -i igpA1 -w "$work/A.raw.pcap" 2>/dev/null &
capA=$!
ip netns exec "${ns[0]}" tcpdump -U -q -i igpC1 -w "$work/C.raw.pcap" 2>/dev/null &
capC=$!
sleep 1
for i in 1 2 3; do start_daemon "$i" zebra; done
sleep 2
for i in 1 2 3; do
  for d in ${IGP_DAEMONS:-staticd ospfd ospf6d ripd ripngd eigrpd}; do start_daemon "$i" "$d"; done
done
sleep "$seconds"
# Babel: FRR 8.4's babeld queues its packets but sends none here (no sendmsg at all, seen with
# strace), so babel is jech's babeld (Debian's babeld), one per namespace, hellos every 2 s and
# timestamps on, redistributing the statics and the loopbacks.
for i in 1 2 3; do
  ip netns exec "${ns[$i-1]}" timeout 30 babeld -I "$work/r$i/babeld.pid" -S "$work/r$i/babel-state" \
    -L "$work/r$i/babeld.log" -h 2 -H 2 \
    -C 'default type wired enable-timestamps true' -C 'ipv6-subtrees true' \
    -C "redistribute ip 198.51.10$i.0/24 metric 128" -C "redistribute ip 2001:db8:$i::/48 metric 128" \
    -C "redistribute local ip 10.30.255.$i/32" -C 'redistribute local deny' -C 'redistribute deny' \
    ${ifaces[$i]} >"$work/r$i/babeld.out" 2>&1 &
  pids+=($!)
done
sleep 28
for i in 1 2 3; do ip netns exec "${ns[$i-1]}" vtysh -N "igp$i" -c 'show ip ospf database' -c 'show ipv6 ospf6 database' \
  -c 'show ip route' >"$work/r$i/state.txt" 2>&1 || true; done
sleep 1
kill "$capA" "$capC"; wait "$capA" "$capC" 2>/dev/null || true
mergecap -F pcap -w "$work/all.raw.pcap" "$work/A.raw.pcap" "$work/C.raw.pcap"

split() { # name filter
  [[ " ${wanted[*]} " == *" $1 "* ]] || return 0
  tcpdump -r "$work/all.raw.pcap" -w "$work/$1.raw.pcap" "$2" 2>/dev/null
  python3 scripts/corpus/import_capture.py "$work/$1.raw.pcap" "$1"
}
split igp-ospf 'ip proto 89'
split igp-ospfv3 'ip6 proto 89'
split igp-rip 'udp port 520'
split igp-ripng 'udp port 521'
split igp-babel 'udp port 6696'
split igp-eigrp 'ip proto 88'
if [[ " ${wanted[*]} " == *" igp-eigrp-crafted "* ]]; then (cd scripts/corpus && python3 igp_crafted.py); fi
