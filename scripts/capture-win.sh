#!/usr/bin/env bash
# Captures enterprise and Windows protocols from real servers and clients (Debian's samba,
# smbclient and samba-common-bin), between two network namespaces of their own joined by a veth
# pair (nothing leaves them; every client is bounded in time), and records tshark's dissection of
# the same bytes as the oracle the tests compare with.
#
#   scripts/capture-win.sh [netbios] [smb2]
#                                          (as root; needs tcpdump, tshark, python3, and Debian's
#                                           samba, smbclient and samba-common-bin)
#
#   netbios.pcap   nmbd (Samba 4.17) and nmblookup on UDP 137 and 138: nmbd's name registrations
#                  at start (broadcast, repeated) and its query for the workgroup's master browser,
#                  nmblookup's broadcast queries and their positive responses, a node status
#                  request and its response (the name table and statistics), and nmbd's browser
#                  datagrams (a host announcement, election requests) on NetBIOS Datagram Service.
#                  The unicast queries (-U -R) and the one for a name nobody holds get no answer
#                  on the wire from this nmbd (no WINS server), so no negative response is in it.
#   smb2.pcap      smbd and smbclient on TCP 445 (SMB2/3 direct-hosted) and 139 (a NetBIOS
#                  session request, its positive response, then SMB): negotiate, NTLMSSP session
#                  setup (the last response signed), tree connect to IPC$ and a share, create, close, read,
#                  write, query info, find, an ioctl, a share listing (srvsvc over IPC$), get and
#                  put of a small file, tree disconnect; the session on 139 encrypted (SMB3
#                  transform headers) after its session setup.
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv, read by tshark with TCP reassembly off (segment by segment, as dissect
# reads them). The traffic itself (ports, transaction IDs, challenges, session IDs) differs
# from run to run; running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
server_ns=dsx-win-srv
client_ns=dsx-win-cli
server_ip=10.29.0.1
client_ip=10.29.0.2
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(netbios smb2)

work=$(mktemp -d)
chmod 755 "$work"
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  ip netns del "$server_ns" 2>/dev/null || true
  ip netns del "$client_ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for ns in "$server_ns" "$client_ns"; do ip netns del "$ns" 2>/dev/null || true; ip netns add "$ns"; done
ip link add dsxwin0 netns "$server_ns" type veth peer name dsxwin1 netns "$client_ns"
ip -n "$server_ns" addr add "$server_ip/24" broadcast 10.29.0.255 dev dsxwin0
ip -n "$client_ns" addr add "$client_ip/24" broadcast 10.29.0.255 dev dsxwin1
for ns in "$server_ns" "$client_ns"; do ip -n "$ns" link set lo up; done
ip -n "$server_ns" link set dsxwin0 up
ip -n "$client_ns" link set dsxwin1 up

# Samba's configuration: everything under $work, one share, a user alice.
mkdir -p "$work/share" "$work/state" "$work/cache" "$work/private" "$work/lock" "$work/pid" "$work/log" "$work/ncalrpc"
chmod 777 "$work/share"
echo "hello from the share" >"$work/share/hello.txt"
cat >"$work/smb.conf" <<CONF
[global]
  workgroup = DSXGROUP
  netbios name = DSXSERVER
  server string = dissect test server
  interfaces = $server_ip/24
  bind interfaces only = yes
  state directory = $work/state
  cache directory = $work/cache
  private dir = $work/private
  lock directory = $work/lock
  pid directory = $work/pid
  ncalrpc dir = $work/ncalrpc
  log file = $work/log/%m.log
  passdb backend = tdbsam:$work/private/passdb.tdb
  server role = standalone server
  local master = yes
  preferred master = yes
  os level = 65
  domain master = no
  wins support = no
  dns proxy = no
  load printers = no
  printcap name = /dev/null
  disable spoolss = yes
  server min protocol = SMB2_02
  smb ports = 445 139
  server signing = auto
[files]
  path = $work/share
  read only = no
  guest ok = no
CONF
cat >"$work/client.conf" <<CONF
[global]
  workgroup = DSXGROUP
  netbios name = DSXCLIENT
  interfaces = $client_ip/24
  bind interfaces only = yes
  state directory = $work/cstate
  cache directory = $work/ccache
  lock directory = $work/clock
  private dir = $work/cprivate
  client min protocol = SMB2_02
  name resolve order = bcast host
CONF
mkdir -p "$work/cstate" "$work/ccache" "$work/clock" "$work/cprivate"

in_srv() { ip netns exec "$server_ns" "$@"; }
in_cli() { ip netns exec "$client_ns" "$@"; }
server() { setsid ip netns exec "$server_ns" "$@" >>"$work/server.log" 2>&1 & servers+=($!); }
stop_servers() { for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; servers=(); }
start_capture() { # name filter
  ip netns exec "$server_ns" tcpdump -U -q -i dsxwin0 -w "$work/$1.raw.pcap" "$2" 2>/dev/null &
  capture_pid=$!
  sleep 1
}
# Copies the raw capture's frames into Corpus/captures with fixed timestamps, and writes the oracle.
stop_capture() { # name
  sleep 1; kill "$capture_pid"; wait "$capture_pid" 2>/dev/null || true
  python3 scripts/corpus/import_capture.py "$work/$1.raw.pcap" "$1"
}

capture_netbios() {
  start_capture netbios 'udp port 137 or udp port 138'
  # nmbd registers its names by broadcast at start, becomes the workgroup's local master browser
  # and sends its announcements on port 138.
  server nmbd -F --no-process-group -s "$work/smb.conf" --debug-stdout -d 1
  sleep 12
  in_cli timeout 10 nmblookup -s "$work/client.conf" -B 10.29.0.255 DSXSERVER >/dev/null 2>&1 || true
  in_cli timeout 10 nmblookup -s "$work/client.conf" -B 10.29.0.255 'DSXGROUP#1d' >/dev/null 2>&1 || true
  in_cli timeout 10 nmblookup -s "$work/client.conf" -U "$server_ip" -R DSXSERVER >/dev/null 2>&1 || true
  in_cli timeout 10 nmblookup -s "$work/client.conf" -U "$server_ip" -R NOBODYHERE >/dev/null 2>&1 || true
  in_cli timeout 10 nmblookup -s "$work/client.conf" -A "$server_ip" >/dev/null 2>&1 || true
  in_cli timeout 10 nmblookup -s "$work/client.conf" -M -B 10.29.0.255 DSXGROUP >/dev/null 2>&1 || true
  sleep 3
  stop_capture netbios
  stop_servers
}

capture_smb2() {
  printf 'wonderland\nwonderland\n' | smbpasswd -c "$work/smb.conf" -s -a alice >/dev/null 2>&1 || {
    id alice >/dev/null 2>&1 || useradd -M -s /usr/sbin/nologin alice
    printf 'wonderland\nwonderland\n' | smbpasswd -c "$work/smb.conf" -s -a alice >/dev/null
  }
  server smbd -F --no-process-group -s "$work/smb.conf" --debug-stdout -d 1
  sleep 4
  echo "a small file put by smbclient" >"$work/upload.txt"
  start_capture smb2 'tcp port 445 or tcp port 139'
  # Direct-hosted SMB on 445: list the shares, then get and put a file.
  in_cli timeout 20 smbclient -s "$work/client.conf" -p 445 -L "//$server_ip" -U alice%wonderland >/dev/null 2>&1 || true
  (cd "$work" && in_cli timeout 20 smbclient -s "$work/client.conf" -p 445 "//$server_ip/files" -U alice%wonderland \
    -c "ls; get hello.txt $work/got.txt; put $work/upload.txt upload.txt; rm upload.txt" >/dev/null 2>&1) || true
  # NetBIOS Session Service on 139: a session request first; then SMB3 encryption from the
  # tree connect on (transform headers: --client-protection=encrypt).
  in_cli timeout 20 smbclient -s "$work/client.conf" -p 139 --client-protection=encrypt "//$server_ip/files" -U alice%wonderland -c "ls" \
    >/dev/null 2>&1 || true
  stop_capture smb2
  stop_servers
}

for name in "${wanted[@]}"; do
  case $name in
  netbios) capture_netbios ;;
  smb2) capture_smb2 ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
