#!/usr/bin/env bash
# Captures RDP's connection sequence and NFS from real servers and clients (Debian's xrdp with
# freerdp2-x11's xfreerdp; nfs-ganesha with libnfs-utils' clients), between two network namespaces of their own
# joined by a veth pair (nothing leaves them; every client is bounded in time), and records
# tshark's dissection of the same bytes as the oracle the tests compare with.
#
#   scripts/capture-rdp-nfs.sh [rdp] [rdp-tls] [nfs]
#                                          (as root; needs tcpdump, tshark, python3, Debian's
#                                           xrdp, freerdp2-x11 and xvfb, rpcbind, nfs-ganesha,
#                                           nfs-ganesha-vfs and libnfs-utils)
#
#   rdp.pcap       xrdp with standard RDP security (security_layer=rdp, 40-bit RC4) and
#                  `xfreerdp /sec:rdp +auth-only`: the X.224 connection request with its
#                  mstshash cookie and RDP negotiation request, the connection confirm (no
#                  negotiation response: the legacy answer), MCS Connect-Initial and
#                  Connect-Response (the GCC client and server data), erect domain, attach
#                  user, the channel joins, then the security exchange and the encrypted
#                  client info and licensing PDUs (MCS send data with RDP security headers).
#   nfs.pcap       nfs-ganesha (NFSv3 over TCP, MOUNT v3) and libnfs-utils' nfs-ls and nfs-cat
#                  (libnfs, a user-space client: the kernel client does not mount here): MOUNT
#                  NULL, MNT and EXPORT; NFSv3 NULL, FSINFO, GETATTR, READDIRPLUS, LOOKUP, ACCESS
#                  and READ (NFSv3 only: see capture_nfs). The portmap GETPORT calls before them
#                  go to 111, not captured.
#   rdp-tls.pcap   xrdp negotiating (security_layer=negotiate): xfreerdp asking for RDP, TLS and
#                  CredSSP gets TLS selected (a negotiation response) and then a TLS handshake;
#                  and xrdp requiring TLS (security_layer=tls), asked for standard RDP security
#                  alone by `/sec:rdp`, answers with a negotiation failure (SSL_REQUIRED_BY_SERVER).
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv, read by tshark with TCP reassembly off (segment by segment, as dissect
# reads them). Keys, random values and ports differ from run to run; running again rewrites the
# files.
set -euo pipefail
cd "$(dirname "$0")/.."
server_ns=dsx-rdp-srv
client_ns=dsx-rdp-cli
server_ip=10.29.7.1
client_ip=10.29.7.2
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(rdp rdp-tls nfs)

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
ip link add dsxrdp0 netns "$server_ns" type veth peer name dsxrdp1 netns "$client_ns"
ip -n "$server_ns" addr add "$server_ip/24" dev dsxrdp0
ip -n "$client_ns" addr add "$client_ip/24" dev dsxrdp1
for ns in "$server_ns" "$client_ns"; do ip -n "$ns" link set lo up; done
ip -n "$server_ns" link set dsxrdp0 up
ip -n "$client_ns" link set dsxrdp1 up

in_cli() { ip netns exec "$client_ns" "$@"; }
server() { setsid ip netns exec "$server_ns" "$@" >>"$work/server.log" 2>&1 & servers+=($!); }
client_bg() { setsid ip netns exec "$client_ns" "$@" >>"$work/client.log" 2>&1 & servers+=($!); }
stop_servers() { for pid in "${servers[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; servers=(); }
start_capture() { # name filter
  ip netns exec "$server_ns" tcpdump -U -q -i dsxrdp0 -w "$work/$1.raw.pcap" "$2" 2>/dev/null &
  capture_pid=$!
  sleep 1
}
# Copies the raw capture's frames into Corpus/captures with fixed timestamps, and writes the oracle.
stop_capture() { # name
  sleep 1; kill "$capture_pid"; wait "$capture_pid" 2>/dev/null || true
  python3 scripts/corpus/import_capture.py "$work/$1.raw.pcap" "$1"
}

# xrdp in the server's namespace with its Debian configuration but the given security layer.
start_xrdp() { # security_layer
  sed -e "s/^security_layer=.*/security_layer=$1/" -e 's/^crypt_level=.*/crypt_level=low/' \
    -e "s/^port=3389/port=tcp:\/\/$server_ip:3389/" /etc/xrdp/xrdp.ini >"$work/xrdp.ini"
  mkdir -p /run/xrdp/sockdir
  server xrdp --nodaemon --config "$work/xrdp.ini"
  sleep 2
}
# xfreerdp needs an X display even to authenticate only: Xvfb in the client's namespace.
xfreerdp_auth() { # options...
  DISPLAY=:47 in_cli timeout 15 xfreerdp "/v:$server_ip" /u:alice /p:secret /cert:ignore /size:64x64 \
    +auth-only "$@" >/dev/null 2>&1 || true
}

capture_rdp() {
  client_bg Xvfb :47 -nolisten tcp
  start_xrdp rdp
  start_capture rdp 'tcp port 3389'
  xfreerdp_auth /sec:rdp
  stop_capture rdp
  stop_servers
}

capture_rdp_tls() {
  client_bg Xvfb :47 -nolisten tcp
  start_xrdp negotiate
  start_capture rdp-tls 'tcp port 3389'
  xfreerdp_auth
  stop_servers
  client_bg Xvfb :47 -nolisten tcp
  start_xrdp tls
  xfreerdp_auth /sec:nla
  stop_capture rdp-tls
  stop_servers
}

capture_nfs() {
  # nfs-ganesha (Linux's kernel NFS server does not run in a container) serving a small directory
  # over NFSv3 on TCP 2049, MOUNT on 20048, registered with rpcbind; libnfs-utils'
  # nfs-ls and nfs-cat as the clients (user-space libnfs: no kernel mount).
  mkdir -p "$work/export/sub"
  echo "hello from nfs" >"$work/export/hello.txt"
  echo x >"$work/export/sub/a"
  cat >"$work/ganesha.conf" <<CONF
NFS_CORE_PARAM { Protocols = 3, 4; NFS_Port = 2049; MNT_Port = 20048; Bind_addr = $server_ip; Enable_RQUOTA = false; Enable_NLM = false; }
NFSV4 { Graceless = true; }
EXPORT { Export_Id = 1; Path = $work/export; Pseudo = /export; Access_Type = RO; Squash = No_Root_Squash; Protocols = 3, 4; Transports = TCP; SecType = sys; FSAL { Name = VFS; } }
LOG { Default_Log_Level = WARN; }
CONF
  server rpcbind -f -h "$server_ip"
  sleep 1
  server ganesha.nfsd -F -f "$work/ganesha.conf" -L "$work/ganesha.log" -p "$work/ganesha.pid"
  sleep 4
  start_capture nfs 'tcp port 2049 or tcp port 20048'
  # NFSv3: MOUNT's MNT, FSINFO, GETATTR, READDIRPLUS (nfs-ls); LOOKUP, ACCESS, READ (nfs-cat).
  in_cli timeout 10 nfs-ls "nfs://$server_ip$work/export?version=3" >/dev/null 2>&1 || true
  in_cli timeout 10 nfs-cat "nfs://$server_ip$work/export/hello.txt?version=3" >/dev/null 2>&1 || true
  # Not NFSv4 (`nfs-ls "nfs://$server_ip/export?version=4"` makes COMPOUNDs of SETCLIENTID,
  # PUTROOTFH, LOOKUP, GETFH, GETATTR and READDIR): nfs.schema reads a COMPOUND call's operations
  # but not their results, which tshark decodes with the RPC fields the oracle test compares.
  stop_capture nfs
  stop_servers
}

for name in "${wanted[@]}"; do
  case $name in
  rdp) capture_rdp ;;
  rdp-tls) capture_rdp_tls ;;
  nfs) capture_nfs ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
