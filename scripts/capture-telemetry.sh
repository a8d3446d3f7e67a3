#!/usr/bin/env bash
# Captures building-automation and telemetry protocols from real servers and clients (PyPI,
# Debian), between two network namespaces of their own joined by a veth pair (10.47.0.1 and
# 10.47.0.2; nothing leaves them; every client is bounded in time), and records tshark's
# dissection of the same bytes as the oracle the tests compare with.
#
#   scripts/capture-telemetry.sh [bacnet] [opcua] [netflow] [synphasor] [ams]
#                                      (as root; needs tcpdump, tshark, python3 with
#                                       venv, PyPI, and for netflow Debian's softflowd)
#
#   bacnet.pcap   bacpypes3's BACnet/IP device (10.47.0.1, instance 1001, an analog and a binary
#                 value) and a bacpypes3 client (10.47.0.2) on UDP 47808: a global Who-Is and
#                 one for 1001 (broadcast, with the NPDU's destination network 65535) and the
#                 I-Am replies; ReadProperty of the device's name, vendor name, protocol version
#                 and object list, of the analog value's present value, units and status flags,
#                 of the binary value's present value (Complex-ACKs); two reads that fail (an
#                 unknown object, an unknown property: Error PDUs); a WriteProperty (Simple-ACK);
#                 a ReadPropertyMultiple and its ACK; Who-Has by name and the I-Have reply.
#   opcua.pcap    asyncua's server (10.47.0.1) and client (10.47.0.2), OPC UA binary with security
#                 None, on TCP 4840: Hello, Acknowledge, OpenSecureChannel, CreateSession,
#                 ActivateSession (anonymous), Browse of the Objects folder and of an object,
#                 TranslateBrowsePathsToNodeIds, Reads of browse names and values (a Double, a
#                 Boolean, a String, the namespace array), a Write of a Double, a Read of a node
#                 that does not exist, CloseSession and CloseSecureChannel.
#   netflow.pcap  softflowd (Debian) reading traffic recorded on the veth of 10.47.0.1 (ICMP
#                 and ICMPv6 echoes, an HTTP GET over IPv4 and IPv6, UDP datagrams), then
#                 exporting every flow to a UDP collector socket at 10.47.0.2: NetFlow v5 and v9
#                 (a template flowset for IPv4 and one for IPv6, then data flowsets) on port 2055,
#                 and IPFIX (templates and data sets) on port 4739; one softflowd run for each.
#   synphasor.pcap  pypmu's PMU (ID 7734, 10 frames a second) and PDC (IEEE C37.118.2) on TCP
#                 4712: the PDC's commands (send header, send CFG-2, send CFG-1, turn on and turn
#                 off transmission), the header frame, configuration frames (pypmu answers CFG-1
#                 with its CFG-2 too)
#                 (three phasors, three analog values, a digital word), five data frames.
#   ams.pcap      pyads (Beckhoff's AdsLib, its AMS router in the client) at 10.47.0.2 against
#                 pyads's ADS test server (10.47.0.1, an AMS/TCP server on 48898 answering as a
#                 TwinCAT PLC, port 851): read device info, read state, read and write of
#                 variables by name (a symbol handle got by read/write, a read or write by
#                 handle, the handle released), and a read of a name the server lacks, which it
#                 leaves unanswered.
#
# The PyPI packages go into a virtual environment ($TELEMETRY_VENV, default
# /tmp/dissect-telemetry-venv), pinned to the versions the captures were made with. Each
# capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv, read by tshark with TCP reassembly off (segment by segment, as dissect
# reads them). The traffic itself (ports, invoke IDs, nonces, session IDs) differs from run to
# run; running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=${TELEMETRY_VENV:-/tmp/dissect-telemetry-venv}
a=dsx-tel-a
b=dsx-tel-b
peers=$root/scripts/corpus/telemetry-peers.py
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(bacnet opcua netflow synphasor ams)

if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install -q bacpypes3==0.0.110 asyncua==2.1.0 synchrophasor==1.0.0a0 pyads==3.6.0
py=$venv/bin/python

work=$(mktemp -d)
chmod 755 "$work"  # softflowd reads its input file after dropping privileges
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ip netns del "$a" 2>/dev/null || true
ip netns del "$b" 2>/dev/null || true
ip netns add "$a"
ip netns add "$b"
ip link add dsx-tel-va type veth peer name dsx-tel-vb
ip link set dsx-tel-va netns "$a"
ip link set dsx-tel-vb netns "$b"
ip -n "$a" addr add 10.47.0.1/24 dev dsx-tel-va
ip -n "$b" addr add 10.47.0.2/24 dev dsx-tel-vb
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set dsx-tel-va up
ip -n "$b" link set dsx-tel-vb up
# The veth pair's MAC addresses are made fixed, so the captures' Ethernet headers are too.
ip -n "$a" link set dsx-tel-va address 02:00:0a:2f:00:01
ip -n "$b" link set dsx-tel-vb address 02:00:0a:2f:00:02
ip -n "$a" addr add fd47::1/64 dev dsx-tel-va nodad
ip -n "$b" addr add fd47::2/64 dev dsx-tel-vb nodad

in_a() { ip netns exec "$a" "$@"; }
in_b() { ip netns exec "$b" "$@"; }
server() { ip netns exec "$a" "$@" >"$work/server.log" 2>&1 & servers+=($!); sleep 3; }
stop_servers() { for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; servers=(); }
start_capture() { # name filter
  ip netns exec "$a" tcpdump -U -q -i dsx-tel-va -w "$work/$1.raw.pcap" "$2" 2>/dev/null &
  capture_pid=$!
  sleep 1
}
# Copies the raw capture's frames into Corpus/captures with fixed timestamps, and writes the oracle.
stop_capture() { # name
  sleep 1; kill "$capture_pid"; wait "$capture_pid" 2>/dev/null || true
  python3 scripts/corpus/import_capture.py "$work/$1.raw.pcap" "$1"
}

for name in "${wanted[@]}"; do
  case $name in
  bacnet)
    start_capture bacnet 'udp port 47808'
    server timeout 60 "$py" "$peers" bacnet-server 10.47.0.1/24
    in_b timeout 60 "$py" "$peers" bacnet-client 10.47.0.2/24 10.47.0.1 >/dev/null
    stop_capture bacnet
    stop_servers ;;
  opcua)
    server timeout 90 "$py" "$peers" opcua-server 10.47.0.1 4840
    start_capture opcua 'tcp port 4840'
    in_b timeout 60 "$py" "$peers" opcua-client 10.47.0.1 4840 >/dev/null
    stop_capture opcua
    stop_servers ;;
  netflow)
    # The traffic the flows describe, recorded first: ICMP and ICMPv6 echoes, an HTTP GET over
    # IPv4 and over IPv6, UDP datagrams.
    in_b timeout 60 python3 -m http.server --bind :: 8080 >/dev/null 2>&1 & servers+=($!)
    sleep 2
    in_a tcpdump -U -q -i dsx-tel-va -w "$work/traffic.pcap" 2>/dev/null &
    traffic_pid=$!
    sleep 1
    in_a ping -c 2 -i 0.2 10.47.0.2 >/dev/null
    in_a ping -6 -c 2 -i 0.2 fd47::2 >/dev/null
    in_a timeout 10 python3 -c 'import urllib.request; urllib.request.urlopen("http://10.47.0.2:8080/").read()'
    in_a timeout 10 python3 -c 'import urllib.request; urllib.request.urlopen("http://[fd47::2]:8080/").read()'
    in_a timeout 10 python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(3): s.sendto(b"telemetry %d" % i, ("10.47.0.2", 9999))
'
    sleep 1; kill "$traffic_pid"; wait "$traffic_pid" 2>/dev/null || true
    stop_servers
    # A collector that reads the export datagrams (so none is refused with ICMP); softflowd
    # reads the recorded traffic and exports its flows when the file ends, once per version.
    in_b timeout 60 python3 -c '
import socket, select
sockets = []
for port in (2055, 4739):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("10.47.0.2", port)); sockets.append(s)
while True:
    for s in select.select(sockets, [], [])[0]: s.recv(65535)
' >/dev/null 2>&1 & servers+=($!)
    sleep 1
    start_capture netflow 'udp port 2055 or udp port 4739'
    for version in 5 9 10; do
      port=2055; [ "$version" = 10 ] && port=4739
      # (softflowd 1.1.0 silently reads nothing when its control socket's path is long: keep it short.)
      in_a timeout 20 softflowd -d -6 -r "$work/traffic.pcap" -v "$version" -n 10.47.0.2:$port \
        -c /tmp/dsx.ct -p /tmp/dsx.pi >/dev/null 2>&1 || true
      rm -f /tmp/dsx.ct /tmp/dsx.pi
      sleep 1
    done
    stop_capture netflow
    stop_servers ;;
  synphasor)
    server timeout 60 "$py" "$peers" pmu 10.47.0.1 4712
    start_capture synphasor 'tcp port 4712'
    in_b timeout 30 "$py" "$peers" pdc 10.47.0.1 4712 >/dev/null
    stop_capture synphasor
    stop_servers ;;
  ams)
    server timeout 60 "$py" "$peers" ads-server 10.47.0.1
    start_capture ams 'tcp port 48898'
    in_b timeout 30 "$py" "$peers" ads-client 10.47.0.1 >/dev/null
    stop_capture ams
    stop_servers ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
