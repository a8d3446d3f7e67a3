#!/usr/bin/env bash
# Captures time, storage and data-centre protocols between network namespaces joined by veth pairs
# (10.98.0.1 in dsx-tdc-a, 10.98.0.2 in dsx-tdc-b, 10.98.1.3 in dsx-tdc-c behind an Open vSwitch
# bridge in dsx-tdc-a; nothing leaves them, every daemon is bounded in time), and records tshark's
# dissection of the same bytes as the oracle the tests compare with.
#
#   scripts/capture-timedc.sh [ptp-l2] [ptp-udp] [aoe] [openflow] [sflow] [vxlan-gpe]
#                           (as root; needs tcpdump, tshark, python3-scapy and Debian's linuxptp,
#                            vblade, openvswitch-switch, openvswitch-testcontroller)
#
#   ptp-l2.pcap        linuxptp's ptp4l in two namespaces, software timestamps (-S), PTP over
#                      Ethernet (ethertype 0x88F7), peer-to-peer delay: Announce, Sync and
#                      Follow_Up (two-step), Pdelay_Req, Pdelay_Resp, Pdelay_Resp_Follow_Up; then
#                      pmc's management GETs (data sets, clock description, user description, ...)
#                      and a SET, and ptp4l's RESPONSEs with their TLVs (and a management error
#                      status TLV for the SET ptp4l does not support).
#   ptp-udp.pcap       ptp4l over UDP/IPv4 (ports 319 and 320), end-to-end delay, the slave
#                      negotiating unicast service from a unicast master table: Signaling with
#                      REQUEST/GRANT_UNICAST_TRANSMISSION TLVs, Announce, Sync, Follow_Up,
#                      Delay_Req, Delay_Resp; pmc's management over UDP.
#   aoe.pcap           vblade exporting a small file-backed disk (shelf 1, slot 2). The client is
#                      CRAFTED with scapy (the aoe kernel module aoetools needs is missing here):
#                      Query Config Information (read, set), MAC mask list, reserve/release, ATA
#                      IDENTIFY DEVICE, READ SECTORS (EXT) and WRITE SECTORS (EXT); the answers are
#                      vblade's own.
#   openflow-v1.pcap … openflow-v6.pcap
#                      Open vSwitch (ovs-vswitchd, userspace netdev datapath: no openvswitch
#                      module here) with ovs-testcontroller on TCP 6653 speaking OpenFlow 1.0 (v1),
#                      1.1, 1.2, 1.3, 1.4, 1.5 (v6): HELLO, FEATURES, SET_CONFIG, FLOW_MOD,
#                      PACKET_IN and PACKET_OUT of pings through the bridge; then ovs-ofctl
#                      connecting to the bridge's own listener (add-flow, show, dump-flows,
#                      dump-ports, get-frags, probe): multipart/stats requests and replies (flow
#                      stats, port stats, port descriptions), GET_CONFIG, BARRIER, ECHO. ovs-ofctl
#                      runs with --no-names: otherwise it asks 1.3+ switches for their table
#                      features, a megabyte per connection.
#   sflow.pcap         the same bridge's sFlow v5 export on UDP 6343 (Open vSwitch's agent,
#                      sampling 1): flow samples with their sampled headers and extended switch data.
#                      Counter polling is left at 60 s so that no counter sample is sent: Open
#                      vSwitch's counter samples carry its own record formats (2203, 1004, ...)
#                      after which tshark 4 loses its place and calls the datagram malformed.
#   vxlan-gpe.pcap     CRAFTED with scapy (no daemon here speaks it): VXLAN-GPE on UDP 4790
#                      carrying IPv4, IPv6, Ethernet and NSH (MD type 1 and 2) with Ethernet and IPv4
#                      after it; NSH directly over Ethernet (ethertype 0x894F).
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv. Clock identities, MAC addresses, TCP sequence numbers and the timestamps
# inside PTP differ from run to run; running again rewrites the files. TIMEDC_KEEP_LOGS=DIR keeps
# the daemons' logs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(ptp-l2 ptp-udp aoe openflow sflow vxlan-gpe)
a=dsx-tdc-a
b=dsx-tdc-b
c=dsx-tdc-c

work=$(mktemp -d)
pids=()
ovs_up=
ovs_stop() {
  [ -n "$ovs_up" ] || return 0
  for f in "$work/ovs/vs.pid" "$work/ovs/db.pid"; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
  ovs_up=
  sleep 1
}
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  ovs_stop
  sleep 1
  for ns in "$a" "$b" "$c"; do ip netns del "$ns" 2>/dev/null || true; done
  [ -n "${TIMEDC_KEEP_LOGS:-}" ] && cp -r "$work" "$TIMEDC_KEEP_LOGS"
  rm -rf "$work"
}
trap cleanup EXIT
for ns in "$a" "$b" "$c"; do ip netns del "$ns" 2>/dev/null || true; ip netns add "$ns"; ip -n "$ns" link set lo up; done
ip link add dsxtdc0 netns "$a" type veth peer name dsxtdc1 netns "$b"
ip -n "$a" addr add 10.98.0.1/24 dev dsxtdc0
ip -n "$b" addr add 10.98.0.2/24 dev dsxtdc1
ip -n "$a" link set dsxtdc0 up
ip -n "$b" link set dsxtdc1 up
ip link add dsxtdc2 netns "$a" type veth peer name dsxtdc3 netns "$c"
ip -n "$c" addr add 10.98.1.3/24 dev dsxtdc3
ip -n "$a" link set dsxtdc2 up
ip -n "$c" link set dsxtdc3 up
sleep 1

start_capture() { # name filter
  ip netns exec "$a" tcpdump -U -q -i dsxtdc0 -w "$work/$1.raw.pcap" "$2" 2>/dev/null &
  capture_pid=$!
  sleep 1
}
stop_capture() { # name
  sleep 1; kill "$capture_pid"; wait "$capture_pid" 2>/dev/null || true
  python3 scripts/corpus/import_capture.py "$work/$1.raw.pcap" "$1"
}
stop_peers() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; pids=(); }

# PTP: the master (priority1 100, faster announce and sync) in a, the slave in b.
ptp_run() { # name transport(-2|-4) delay(-P|-E)
  local p=$work/ptp-$1
  mkdir -p "$p"
  cat > "$p/master.cfg" <<EOF
[global]
priority1 100
logAnnounceInterval 0
logSyncInterval -1
announceReceiptTimeout 2
unicast_listen 1
userDescription dissect master;dsx-tdc-a
EOF
  cat > "$p/slave.cfg" <<EOF
[global]
priority1 200
logAnnounceInterval 0
announceReceiptTimeout 2
EOF
  if [ "$2" = -4 ]; then
    cat >> "$p/slave.cfg" <<EOF
[unicast_master_table]
table_id 1
logQueryInterval 0
UDPv4 10.98.0.1
[dsxtdc1]
unicast_master_table 1
unicast_req_duration 10
EOF
    filter='udp port 319 or udp port 320'
  else
    filter='ether proto 0x88f7'
  fi
  start_capture "$1" "$filter"
  ip netns exec "$a" timeout 9 ptp4l -f "$p/master.cfg" -i dsxtdc0 "$2" -S "$3" -m >"$p/master.log" 2>&1 &
  pids+=($!)
  ip netns exec "$b" timeout 9 ptp4l -f "$p/slave.cfg" -i dsxtdc1 "$2" -S "$3" -m >"$p/slave.log" 2>&1 &
  pids+=($!)
  sleep 6
  ip netns exec "$b" timeout 3 pmc "$2" -i dsxtdc1 -b 1 -d 0 'GET CURRENT_DATA_SET' 'GET PORT_DATA_SET' \
    'GET DEFAULT_DATA_SET' 'GET PARENT_DATA_SET' 'GET TIME_PROPERTIES_DATA_SET' 'GET CLOCK_DESCRIPTION' \
    'GET USER_DESCRIPTION' 'GET PRIORITY1' 'GET DOMAIN' 'GET NULL_MANAGEMENT' \
    'SET PRIORITY2 127' >"$p/pmc.log" 2>&1 || true
  sleep 3
  stop_capture "$1"
  stop_peers
}

# AoE: vblade in b exports an 8-sector file; scapy in a plays the initiator (no aoe module here).
aoe_run() { # name
  local d=$work/aoe
  mkdir -p "$d"
  python3 -c "import sys; sys.stdout.buffer.write(bytes(range(256)) * 16)" > "$d/disk.img"
  start_capture "$1" 'ether proto 0x88a2'
  ip netns exec "$b" timeout 10 vblade 1 2 dsxtdc1 "$d/disk.img" >"$d/vblade.log" 2>&1 &
  pids+=($!)
  sleep 1
  ip netns exec "$a" python3 - <<'EOF'
import struct, time
from scapy.all import Ether, Raw, sendp, get_if_hwaddr
iface = "dsxtdc0"
me = get_if_hwaddr(iface)
tag = 0x1000
def aoe(command, body, major=1, minor=2, dst="ff:ff:ff:ff:ff:ff", flags=0):
    global tag
    tag += 1
    header = struct.pack(">BBHBBI", 0x10 | flags, 0, major, minor, command, tag)
    sendp(Ether(src=me, dst=dst, type=0x88A2) / Raw(header + body), iface=iface, verbose=False)
    time.sleep(0.2)
def config(ccmd, text=b""):  # buffer count, firmware, sector count, version|ccmd, string length, string
    return struct.pack(">HHBBH", 0, 0, 0, 0x10 | ccmd, len(text)) + text
def ata(aflags, feature, count, cmd, lba, data=b""):
    return struct.pack(">BBBB", aflags, feature, count, cmd) + lba.to_bytes(6, "little") + b"\0\0" + data
aoe(1, config(0), major=0xFFFF, minor=0xFF)                 # query config, any shelf and slot
aoe(1, config(3, b"dissect-host"))                          # set config string if empty
aoe(1, config(1, b"dissect"))                               # test the config string exactly
aoe(1, config(0))
aoe(0, ata(0, 0, 1, 0xEC, 0))                               # IDENTIFY DEVICE
aoe(0, ata(0x40, 0, 1, 0x24, 0))                            # READ SECTORS EXT, LBA 0
aoe(0, ata(0x00, 0, 1, 0x20, 3))                            # READ SECTORS (28-bit LBA 3)
aoe(0, ata(0x41, 0, 1, 0x34, 5, bytes(range(256)) * 2))     # WRITE SECTORS EXT (E and W flags), LBA 5
aoe(0, ata(0x40, 0, 1, 0xE7, 0))                            # FLUSH CACHE
aoe(2, struct.pack(">BBBB", 0, 0, 0, 1) + b"\0\x01" + bytes.fromhex(me.replace(":", "")))  # MAC mask: add
aoe(2, struct.pack(">BBBB", 0, 0, 0, 0))                    # MAC mask: read
aoe(3, struct.pack(">BBH", 0, 0, 0))                        # reserve/release: read
EOF
  sleep 1
  stop_capture "$1"
  stop_peers
}

# Open vSwitch in a, userspace datapath, bridge br0 with port dsxtdc2 (to c) and its internal port
# 10.98.1.1; controller at 10.98.0.2:6653, and its own listener on 6653 for ovs-ofctl.
ovs_start() {
  local o=$work/ovs
  mkdir -p "$o"
  export OVS_RUNDIR=$o OVS_DBDIR=$o OVS_LOGDIR=$o OVS_SYSCONFDIR=$o
  rm -f "$o/conf.db"
  ovsdb-tool create "$o/conf.db" /usr/share/openvswitch/vswitch.ovsschema
  ip netns exec "$a" ovsdb-server "$o/conf.db" --remote="punix:$o/db.sock" --pidfile="$o/db.pid" --detach \
    --log-file="$o/db.log"
  ovs_up=1
  vsctl() { ip netns exec "$a" ovs-vsctl --db="unix:$o/db.sock" "$@"; }
  vsctl --no-wait init
  ip netns exec "$a" ovs-vswitchd "unix:$o/db.sock" --pidfile="$o/vs.pid" --detach --log-file="$o/vs.log"
  sleep 1
  vsctl add-br br0 -- set bridge br0 datapath_type=netdev fail_mode=secure
  vsctl add-port br0 dsxtdc2
  ip -n "$a" addr add 10.98.1.1/24 dev br0
  ip -n "$a" link set br0 up
}
openflow_run() { # version number 1..6
  local v=$1 proto
  proto=$(echo "OpenFlow10 OpenFlow11 OpenFlow12 OpenFlow13 OpenFlow14 OpenFlow15" | cut -d' ' -f"$v")
  local o=$work/ovs
  vsctl set bridge br0 protocols="$proto"
  vsctl del-controller br0
  start_capture "openflow-v$v" 'tcp port 6653'
  ip netns exec "$b" timeout 6 ovs-testcontroller -O "$proto" --no-chdir --log-file="$o/tc-$v.log" ptcp:6653 &
  pids+=($!)
  sleep 1
  vsctl set-controller br0 tcp:10.98.0.2:6653 ptcp:6653
  sleep 2
  ip netns exec "$c" ping -q -c 2 -i 0.3 -W 1 10.98.1.1 >/dev/null || true
  local ofctl="ip netns exec $b timeout 3 ovs-ofctl --no-names -O $proto"
  $ofctl add-flow tcp:10.98.0.1:6653 "priority=300,tcp,nw_src=10.98.1.3,tp_dst=80,actions=drop" || true
  $ofctl show tcp:10.98.0.1:6653 >/dev/null || true
  $ofctl dump-flows tcp:10.98.0.1:6653 >/dev/null || true
  $ofctl dump-ports tcp:10.98.0.1:6653 >/dev/null || true
  $ofctl get-frags tcp:10.98.0.1:6653 >/dev/null || true
  $ofctl probe tcp:10.98.0.1:6653 >/dev/null || true
  sleep 3
  stop_capture "openflow-v$v"
  stop_peers
}
sflow_run() { # name
  local o=$work/ovs
  vsctl del-controller br0
  vsctl set bridge br0 fail_mode=standalone
  start_capture "$1" 'udp port 6343'
  vsctl -- --id=@s create sflow agent=dsxtdc0 target=\"10.98.0.2:6343\" sampling=1 polling=60 header=128 \
    -- set bridge br0 sflow=@s >/dev/null
  sleep 1
  ip netns exec "$c" ping -q -c 4 -i 0.6 -W 1 10.98.1.1 >/dev/null || true
  sleep 2
  vsctl clear bridge br0 sflow
  stop_capture "$1"
}

# VXLAN-GPE and NSH: crafted (common.write_capture writes the capture and its oracle).
vxlan_gpe_run() { # name
  python3 - "$1" <<'EOF'
import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "scripts", "corpus"))
from common import write_capture
from scapy.all import Ether, IP, IPv6, UDP, ICMP, ICMPv6EchoRequest, Raw
from scapy.layers.vxlan import VXLAN
from scapy.contrib.nsh import NSH, NSHTLV
outer = lambda: Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP(src="10.98.2.1", dst="10.98.2.2", id=1)
inner_eth = Ether(src="02:00:00:00:01:01", dst="02:00:00:00:01:02") / IP(src="192.168.7.1", dst="192.168.7.2", id=7) / ICMP(id=1, seq=1) / Raw(b"gpe")
inner_ip = IP(src="192.168.7.1", dst="192.168.7.2", id=8) / ICMP(id=1, seq=2) / Raw(b"gpe")
inner_ip6 = IPv6(src="fd00::1", dst="fd00::2") / ICMPv6EchoRequest(id=1, seq=3)
frames = [
    outer() / UDP(sport=49152, dport=4790) / VXLAN(flags="Instance+NextProtocol", NextProtocol=1, vni=100) / inner_ip,
    outer() / UDP(sport=49153, dport=4790) / VXLAN(flags="Instance+NextProtocol", NextProtocol=2, vni=100) / inner_ip6,
    outer() / UDP(sport=49154, dport=4790) / VXLAN(flags="Instance+NextProtocol", NextProtocol=3, vni=200) / inner_eth,
    outer() / UDP(sport=49155, dport=4790) / VXLAN(flags="Instance+NextProtocol+OAM", NextProtocol=4, vni=300)
      / NSH(mdtype=1, nextproto=3, spi=42, si=255, context_header=bytes.fromhex("00000001000000020000000300000004")) / inner_eth,
    outer() / UDP(sport=49156, dport=4790) / VXLAN(flags="Instance+NextProtocol", NextProtocol=4, vni=300)
      / NSH(mdtype=2, nextproto=1, spi=43, si=254, ttl=32,
            vlch=[NSHTLV(class_=0x0101, type=1, metadata=[0x11223344]),
                  NSHTLV(class_=0x0102, type=0x82, metadata=[0x61626364, 0x65660000])]) / inner_ip,
    Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02", type=0x894F)
      / NSH(mdtype=2, nextproto=2, spi=44, si=253) / inner_ip6,
]
write_capture(sys.argv[1], 1, [bytes(f) for f in frames])
EOF
}

for name in "${wanted[@]}"; do
  case $name in
  ptp-l2) ptp_run ptp-l2 -2 -P ;;
  ptp-udp) ptp_run ptp-udp -4 -E ;;
  aoe) aoe_run aoe ;;
  openflow) [ -n "$ovs_up" ] || ovs_start; for v in 1 2 3 4 5 6; do openflow_run "$v"; done ;;
  sflow) [ -n "$ovs_up" ] || ovs_start; sflow_run sflow ;;
  vxlan-gpe) vxlan_gpe_run vxlan-gpe ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
echo "captured: ${wanted[*]}"
