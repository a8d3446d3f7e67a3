#!/usr/bin/env bash
# Captures remote procedure call and remote desktop protocols from real servers and clients
# (Debian's rpcbind, nfs-kernel-server's rpc.mountd, samba, smbclient and tigervnc-standalone-server; PyPI's vncdotool), between two
# network namespaces of their own joined by a veth pair (nothing leaves them; every client is
# bounded in time), and records tshark's dissection of the same bytes as the oracle the tests
# compare with.
#
#   scripts/capture-rpc.sh [onc-rpc] [dcerpc] [vnc]
#                                          (as root; needs tcpdump, tshark, python3, Debian's
#                                           rpcbind, nfs-kernel-server, samba, smbclient, samba-common-bin and
#                                           tigervnc-standalone-server, and vncdotool from PyPI)
#
#   onc-rpc.pcap   rpcbind on UDP and TCP 111, rpc.mountd, rpcinfo and showmount: `rpcinfo -p`
#                  (PMAPPROC_DUMP over TCP, with its record marking), NULL calls to portmap
#                  versions 2, 3 and 4 over UDP and TCP, each after an rpcbind V4 GETADDR, a
#                  GETADDR for a program nobody registered (an empty address), NULL calls to
#                  MOUNT v3 over UDP and TCP on mountd's port, and showmount -e (MOUNT EXPORT).
#   dcerpc.pcap    samba (smbd and samba-dcerpcd) and rpcclient: `srvinfo` and `enumdomusers` over
#                  ncacn_np (DCE/RPC bind, bind_ack, requests and responses carried in SMB2 writes,
#                  reads and ioctls on the srvsvc and samr pipes), then over ncacn_ip_tcp: the
#                  endpoint mapper on TCP 135 (ept_map), then srvsvc on the port it names; and
#                  once more NTLMSSP-signed (anonymous): bind and bind_ack with auth verifiers,
#                  auth3, a signed request, and the fault samba answers it with.
#   vnc.pcap       Xtigervnc (RFB 3.8, security type None) and vncdotool: the version exchange, the
#                  security handshake, ClientInit/ServerInit, SetPixelFormat, SetEncodings,
#                  FramebufferUpdateRequest, FramebufferUpdate, and KeyEvents (a key press and release).
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv, read by tshark with TCP reassembly off (segment by segment, as dissect
# reads them). The traffic itself (ports, transaction IDs, handles) differs from run to run;
# running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
server_ns=dsx-rpc-srv
client_ns=dsx-rpc-cli
server_ip=10.29.1.1
client_ip=10.29.1.2
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(onc-rpc dcerpc vnc)

work=$(mktemp -d)
chmod 755 "$work"
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
  sleep 1
  ip netns del "$server_ns" 2>/dev/null || true
  ip netns del "$client_ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for ns in "$server_ns" "$client_ns"; do ip netns del "$ns" 2>/dev/null || true; ip netns add "$ns"; done
ip link add dsxrpc0 netns "$server_ns" type veth peer name dsxrpc1 netns "$client_ns"
ip -n "$server_ns" addr add "$server_ip/24" dev dsxrpc0
ip -n "$client_ns" addr add "$client_ip/24" dev dsxrpc1
for ns in "$server_ns" "$client_ns"; do ip -n "$ns" link set lo up; done
ip -n "$server_ns" link set dsxrpc0 up
ip -n "$client_ns" link set dsxrpc1 up

in_cli() { ip netns exec "$client_ns" "$@"; }
server() { setsid ip netns exec "$server_ns" "$@" >>"$work/server.log" 2>&1 & servers+=($!); }
stop_servers() { for pid in "${servers[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; servers=(); }
start_capture() { # name filter
  ip netns exec "$server_ns" tcpdump -U -q -i dsxrpc0 -w "$work/$1.raw.pcap" "$2" 2>/dev/null &
  capture_pid=$!
  sleep 1
}
# Copies the raw capture's frames into Corpus/captures with fixed timestamps, and writes the oracle.
stop_capture() { # name
  sleep 1; kill "$capture_pid"; wait "$capture_pid" 2>/dev/null || true
  python3 scripts/corpus/import_capture.py "$work/$1.raw.pcap" "$1"
}

capture_onc_rpc() {
  # rpcbind in the server's namespace (-f foreground), and rpc.mountd registered with it (-F
  # foreground; no kernel NFS server is needed for the MOUNT protocol's EXPORT and NULL).
  server rpcbind -f -h "$server_ip"
  sleep 2
  server rpc.mountd -F -N 2 -p 20048
  sleep 2
  start_capture onc-rpc 'tcp or udp'
  in_cli timeout 10 rpcinfo -p "$server_ip" >/dev/null 2>&1 || true
  for version in 2 3 4; do
    in_cli timeout 10 rpcinfo -T udp "$server_ip" 100000 "$version" >/dev/null 2>&1 || true
    in_cli timeout 10 rpcinfo -T tcp "$server_ip" 100000 "$version" >/dev/null 2>&1 || true
  done
  in_cli timeout 10 rpcinfo -u "$server_ip" portmapper 2 >/dev/null 2>&1 || true
  # GETADDR for a program nobody registered (NFS): an empty universal address.
  in_cli timeout 10 rpcinfo -n 111 -u "$server_ip" 100003 3 >/dev/null 2>&1 || true
  # MOUNT on mountd's port (20048): NULL over UDP and TCP, and showmount's EXPORT.
  in_cli timeout 10 rpcinfo -u "$server_ip" mountd 3 >/dev/null 2>&1 || true
  in_cli timeout 10 rpcinfo -t "$server_ip" mountd 3 >/dev/null 2>&1 || true
  in_cli timeout 10 showmount -e "$server_ip" >/dev/null 2>&1 || true
  stop_capture onc-rpc
  stop_servers
}

capture_dcerpc() {
  mkdir -p "$work/state" "$work/cache" "$work/private" "$work/lock" "$work/pid" "$work/log" "$work/ncalrpc"
  cat >"$work/smb.conf" <<CONF
[global]
  workgroup = DSXGROUP
  netbios name = DSXRPC
  server string = dissect rpc test server
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
  map to guest = bad user
  restrict anonymous = 0
  load printers = no
  printcap name = /dev/null
  disable spoolss = yes
  server min protocol = SMB2_02
  smb ports = 445
  rpc start on demand helpers = no
CONF
  cat >"$work/client.conf" <<CONF
[global]
  workgroup = DSXGROUP
  netbios name = DSXCLIENT
  state directory = $work/cstate
  cache directory = $work/ccache
  lock directory = $work/clock
  private dir = $work/cprivate
  client min protocol = SMB2_02
  name resolve order = host
CONF
  mkdir -p "$work/cstate" "$work/ccache" "$work/clock" "$work/cprivate"
  server /usr/libexec/samba/samba-dcerpcd --libexec-rpcds -F --no-process-group -s "$work/smb.conf" --debug-stdout -d 1
  server smbd -F --no-process-group -s "$work/smb.conf" --debug-stdout -d 1
  sleep 5
  start_capture dcerpc 'tcp port 445 or tcp port 135 or tcp portrange 49152-65535'
  in_cli timeout 20 rpcclient -s "$work/client.conf" -U% "$server_ip" -c 'srvinfo;enumdomusers' >/dev/null 2>&1 || true
  in_cli timeout 20 rpcclient -s "$work/client.conf" -U% "ncacn_ip_tcp:$server_ip" -c 'srvinfo' >/dev/null 2>&1 || true
  # Over TCP again, NTLMSSP-signed (anonymous): bind with an auth verifier, auth3, signed requests.
  in_cli timeout 20 rpcclient -s "$work/client.conf" -U% "ncacn_ip_tcp:$server_ip[sign]" -c 'srvinfo' >/dev/null 2>&1 || true
  stop_capture dcerpc
  stop_servers
}

capture_vnc() {
  # Xtigervnc as display :29, no authentication, listening on the server's address only.
  server Xtigervnc :29 -geometry 16x16 -depth 24 -SecurityTypes None -rfbport 5929 -interface "$server_ip" \
    -localhost=0 -AlwaysShared -nolisten unix
  sleep 3
  start_capture vnc 'tcp port 5929'
  # A handshake, a key press and release, a pointer move and click, then a framebuffer update request and the update (capture).
  in_cli timeout 20 vncdo -s "$server_ip::5929" key a move 10 10 click 1 capture "$work/screen.png" >/dev/null 2>&1 || true
  stop_capture vnc
  stop_servers
}

for name in "${wanted[@]}"; do
  case $name in
  onc-rpc) capture_onc_rpc ;;
  dcerpc) capture_dcerpc ;;
  vnc) capture_vnc ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
