#!/usr/bin/env bash
# Captures industrial-control protocols from real servers and clients (PyPI), on the loopback of
# a network namespace of its own (nothing leaves it; every client is bounded in time), and
# records tshark's dissection of the same bytes as the oracle the tests compare with.
#
#   scripts/capture-ics.sh [modbus] [s7comm] [enip] [dnp3] [iec104]
#                                                          (as root; needs tcpdump, tshark,
#                                                           python3 with venv, and PyPI)
#
#   modbus.pcap   pymodbus's client and server on TCP 502: read coils, discrete inputs, holding
#                 and input registers; write single and multiple coils and registers; read/write
#                 multiple registers; mask write; read device identification (MEI 14); read
#                 exception status; diagnostics (return query data); report server ID; an
#                 illegal data address and an illegal function exception.
#   s7comm.pcap   python-snap7 (its pure-Python client and server) on TCP 102: TPKT + COTP
#                 connection request and confirm, S7 setup communication, read var and write var
#                 of a DB and of merkers, a read of a DB that does not exist (an item error),
#                 a userdata read SZL, COTP disconnect request and confirm.
#   enip.pcap     pycomm3 and cpppo's client against cpppo's EtherNet/IP server on TCP and UDP
#                 44818: register and unregister session, list identity (TCP and UDP), CIP get
#                 attribute single and get attributes all of the identity object (SendRRData,
#                 unconnected), CIP read tag and write tag through the connection manager's
#                 unconnected send, and a read of a tag the server lacks (an encapsulation error).
#   dnp3.pcap     dnp3py (pure Python) master and outstation on TCP 20000: link reset and its
#                 ACK, integrity poll (class 0123), class 123 poll, a read of analog inputs 0 to
#                 3 (group 30 variation 1), direct operate, select and operate of a CROB (group
#                 12), delay measurement, and the responses.
#   iec104.pcap   c104's client and server (IEC 60870-5-104) on TCP 2404: STARTDT, the station
#                 interrogation with its single-point and short float replies, clock
#                 synchronization, a read, a single command, and S-format acknowledgements.
#
# The PyPI packages go into a virtual environment ($ICS_VENV, default /tmp/dissect-ics-venv),
# pinned to the versions the captures were made with. Each capture is copied frame by frame into
# Corpus/captures/<name>.pcap with fixed timestamps (scripts/corpus/common.py's write_capture),
# with its oracle Corpus/oracle/<name>.json and <name>.checksums.tsv, read by tshark with TCP
# reassembly off (segment by segment, as dissect reads them). The traffic itself (ports,
# sequence numbers, session handles) differs from run to run; running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=${ICS_VENV:-/tmp/dissect-ics-venv}
ns=dsx-ics
peers=$root/scripts/corpus/ics-peers.py
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(modbus s7comm enip dnp3 iec104)

if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install -q pymodbus==3.16.1 python-snap7==3.3.0 cpppo==5.2.5 pycomm3==1.2.16 \
  dnp3py==0.6.0 c104==2.2.1
py=$venv/bin/python

work=$(mktemp -d)
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ip netns del "$ns" 2>/dev/null || true
ip netns add "$ns"
ip netns exec "$ns" ip link set lo up

in_ns() { ip netns exec "$ns" "$@"; }
server() { ip netns exec "$ns" "$@" >"$work/server.log" 2>&1 & servers+=($!); sleep 3; }
stop_servers() { for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; servers=(); }
start_capture() { # name filter
  ip netns exec "$ns" tcpdump -U -q -i lo -w "$work/$1.raw.pcap" "$2" 2>/dev/null &
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
  modbus)
    server "$py" "$peers" modbus-server
    start_capture modbus 'tcp port 502'
    in_ns timeout 60 "$py" "$peers" modbus-client >/dev/null
    stop_capture modbus
    stop_servers ;;
  s7comm)
    server "$py" "$peers" s7-server
    start_capture s7comm 'tcp port 102'
    in_ns timeout 60 "$py" "$peers" s7-client >/dev/null
    stop_capture s7comm
    stop_servers ;;
  enip)
    server "$py" -m cpppo.server.enip --no-config -a 127.0.0.1:44818 'Temps=INT[10]' 'Count=DINT'
    start_capture enip 'port 44818'
    in_ns timeout 30 "$py" "$peers" enip-client >/dev/null
    in_ns timeout 30 "$py" -m cpppo.server.enip.client -a 127.0.0.1 -t 5 'Temps[0-3]' 'Count=(DINT)42' 'Count' \
      >/dev/null 2>&1 || true
    in_ns timeout 30 "$py" -m cpppo.server.enip.client -a 127.0.0.1 -t 5 'Missing' >/dev/null 2>&1 || true
    in_ns timeout 30 "$py" -m cpppo.server.enip.client -a 127.0.0.1 -t 5 -u -i >/dev/null 2>&1 || true
    stop_capture enip
    stop_servers ;;
  dnp3)
    server "$py" "$peers" dnp3-outstation
    start_capture dnp3 'tcp port 20000'
    in_ns timeout 60 "$py" "$peers" dnp3-master >/dev/null
    stop_capture dnp3
    stop_servers ;;
  iec104)
    server "$py" "$peers" iec104-server
    start_capture iec104 'tcp port 2404'
    in_ns timeout 60 "$py" "$peers" iec104-client >/dev/null
    stop_capture iec104
    stop_servers ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
