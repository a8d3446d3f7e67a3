#!/usr/bin/env bash
# Captures VPN and key-exchange protocols from real peers (Debian packages) between two network
# namespaces joined by a veth pair (10.99.0.1 and 10.99.0.2; nothing leaves them, every peer is
# bounded in time), and records tshark's dissection of the same bytes as the oracle the tests
# compare with.
#
#   scripts/capture-vpn.sh [ikev2] [ikev1] [openvpn-udp] [openvpn-tcp] [wireguard] [l2tp]
#                           (as root; needs tcpdump, tshark, openssl and Debian's strongswan-charon,
#                            strongswan-swanctl, libcharon-extra-plugins, openvpn, wireguard-tools,
#                            wireguard-go, xl2tpd)
#
#   ikev2.pcap        strongSwan's charon in each namespace, a pre-shared key, a tunnel between
#                     two /32s: IKE_SA_INIT on UDP 500 (SA with two proposals and their transforms,
#                     KE, Nonce, Notify: NAT detection, fragmentation, signature hash algorithms,
#                     redirect, childless, multiple auth), IKE_AUTH on UDP 4500 behind the non-ESP
#                     marker (the Encrypted payload), ESP in UDP 4500 of three pings through the
#                     CHILD_SA, CREATE_CHILD_SA rekeying it, INFORMATIONAL exchanges deleting the old
#                     CHILD_SA and the IKE SA. The container's kernel has no XFRM, so ESP is
#                     strongSwan's userspace kernel-libipsec (a TUN device), which always
#                     encapsulates in UDP (swanctl's encap = yes).
#   ikev1.pcap        the same peers with IKEv1: main mode (SA with DOI, situation, a proposal
#                     with two transforms and their IKE attributes, Vendor IDs; KE, Nonce, NAT-D;
#                     then encrypted), quick mode (encrypted), ESP in UDP 4500, a quick mode rekey,
#                     and informational deletes.
#   openvpn-udp.pcap  OpenVPN 2.6 with TLS (a throwaway CA made with openssl) and tls-auth over UDP
#                     1194: hard resets, P_CONTROL_V1 carrying the TLS 1.3 handshake, P_ACK_V1,
#                     P_DATA_V2 of three pings through the tunnel.
#   openvpn-tcp.pcap  the same over TCP 1194 (each packet after a 16-bit length).
#   wireguard.pcap    WireGuard between the namespaces (the kernel's module, else wireguard-go, as
#                     here): handshake initiation (both sides), response, transport data of three
#                     pings, keepalives.
#   l2tp.pcap         xl2tpd as LAC and LNS: SCCRQ, SCCRP, SCCCN, ICRQ, ICRP, ICCN, ZLB
#                     acknowledgements, and CDN when pppd cannot start (no /dev/ppp here).
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv, read by tshark with TCP reassembly off. VPN_KEEP_LOGS=DIR keeps the peers'
# configurations and logs. The keys, SPIs and nonces differ
# from run to run; running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(ikev2 ikev1 openvpn-udp openvpn-tcp wireguard l2tp)
a=dsx-vpn-a
b=dsx-vpn-b

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
  [ -n "${VPN_KEEP_LOGS:-}" ] && cp -r "$work" "$VPN_KEEP_LOGS"
  rm -rf "$work"
}
trap cleanup EXIT
ip netns del "$a" 2>/dev/null || true
ip netns del "$b" 2>/dev/null || true
ip netns add "$a"
ip netns add "$b"
ip link add dsxvpn0 netns "$a" type veth peer name dsxvpn1 netns "$b"
ip -n "$a" addr add 10.99.0.1/24 dev dsxvpn0
ip -n "$b" addr add 10.99.0.2/24 dev dsxvpn1
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set dsxvpn0 up
ip -n "$b" link set dsxvpn1 up
sleep 1

start_capture() { # name filter
  ip netns exec "$a" tcpdump -U -q -i dsxvpn0 -w "$work/$1.raw.pcap" "$2" 2>/dev/null &
  capture_pid=$!
  sleep 1
}
# Copies the raw capture's frames into Corpus/captures with fixed timestamps, and writes the oracle.
stop_capture() { # name
  sleep 1; kill "$capture_pid"; wait "$capture_pid" 2>/dev/null || true
  python3 scripts/corpus/import_capture.py "$work/$1.raw.pcap" "$1"
}
stop_peers() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; pids=(); }

# strongSwan: one charon per namespace, each with its own /run (a tmpfs in the namespace's own
# mount namespace) and its own configuration (STRONGSWAN_CONF, swanctl --file).
strongswan_peer() { # ns dir local remote encap local_ts remote_ts ike_version
  local ns=$1 dir=$2 local=$3 remote=$4 encap=$5 version=${8:-2}
  mkdir -p "$dir"
  cat > "$dir/strongswan.conf" <<EOF
charon {
  load_modular = yes
  port = 500
  port_nat_t = 4500
  plugins {
    include /etc/strongswan.d/charon/*.conf
    vici { socket = unix://$dir/charon.vici }
    kernel-libipsec { load = yes }
  }
  filelog { stderr { default = 1 } }
}
swanctl { socket = unix://$dir/charon.vici }
EOF
  cat > "$dir/swanctl.conf" <<EOF
connections {
  peer {
    version = $version
    local_addrs = $local
    remote_addrs = $remote
    proposals = aes128-sha256-modp2048,aes256gcm16-prfsha384-ecp384
    encap = $encap
    local { auth = psk
            id = $local }
    remote { auth = psk
             id = $remote }
    children {
      host {
        mode = tunnel
        local_ts = $6
        remote_ts = $7
        esp_proposals = aes128gcm16-modp2048,aes128-sha256
        start_action = none
      }
    }
  }
}
secrets {
  ike-peer { id-a = 10.99.0.1
             id-b = 10.99.0.2
             secret = "dissect-capture-psk" }
}
EOF
  ip netns exec "$ns" sh -c "mount -t tmpfs dsx-run /run && mkdir -p /run/strongswan && \
    STRONGSWAN_CONF=$dir/strongswan.conf exec timeout 60 /usr/lib/ipsec/charon" >"$dir/charon.log" 2>&1 &
  pids+=($!)
}
ikev2() { # name encap [ike_version]
  ip -n "$a" addr add 10.97.1.1/32 dev lo 2>/dev/null || true
  ip -n "$b" addr add 10.97.2.1/32 dev lo 2>/dev/null || true
  strongswan_peer "$a" "$work/a" 10.99.0.1 10.99.0.2 "$2" 10.97.1.1/32 10.97.2.1/32 "${3:-2}"
  strongswan_peer "$b" "$work/b" 10.99.0.2 10.99.0.1 "$2" 10.97.2.1/32 10.97.1.1/32 "${3:-2}"
  sleep 3
  for side in a b; do
    ns=$a; [ $side = b ] && ns=$b
    ip netns exec "$ns" env STRONGSWAN_CONF="$work/$side/strongswan.conf" \
      swanctl --load-all --file "$work/$side/swanctl.conf" >/dev/null
  done
  start_capture "$1" 'udp port 500 or udp port 4500 or esp'
  ip netns exec "$a" env STRONGSWAN_CONF="$work/a/strongswan.conf" timeout 20 swanctl --initiate --child host >/dev/null || true
  ip netns exec "$a" ping -q -c 3 -i 0.2 -W 1 -I 10.97.1.1 10.97.2.1 >/dev/null || true
  ip netns exec "$a" env STRONGSWAN_CONF="$work/a/strongswan.conf" timeout 20 swanctl --rekey --child host >/dev/null || true
  sleep 1
  ip netns exec "$a" env STRONGSWAN_CONF="$work/a/strongswan.conf" timeout 20 swanctl --terminate --ike peer >/dev/null || true
  stop_capture "$1"
  stop_peers
}

# OpenVPN: a throwaway CA, server and client certificates (openssl), a tls-auth key; the server
# in namespace b, the client in a, each with a tun device; three pings through the tunnel.
openvpn_keys() {
  [ -f "$work/ovpn/ta.key" ] && return
  mkdir -p "$work/ovpn" && cd "$work/ovpn"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 -subj /CN=dsx-ca \
    -keyout ca.key -out ca.crt 2>/dev/null
  for who in server client; do
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=dsx-$who" \
      -keyout $who.key -out $who.csr 2>/dev/null
    printf 'keyUsage=digitalSignature,keyAgreement\nextendedKeyUsage=%s\n' "$([ $who = server ] && echo serverAuth || echo clientAuth)" > $who.ext
    openssl x509 -req -in $who.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 30 -extfile $who.ext \
      -out $who.crt 2>/dev/null
  done
  openvpn --genkey secret ta.key >/dev/null
  cd "$root"
}
openvpn_run() { # name proto
  openvpn_keys
  local o=$work/ovpn
  local common="--dev tun --ca $o/ca.crt --tls-auth $o/ta.key --verb 3 --ping 1 --data-ciphers AES-128-GCM"
  ip netns exec "$b" timeout 40 openvpn --mode server --tls-server --proto "$([ $2 = tcp ] && echo tcp-server || echo udp)" --local 10.99.0.2 --port 1194 \
    --topology subnet --ifconfig 10.98.0.1 255.255.255.0 --ifconfig-pool 10.98.0.2 10.98.0.9 --push "topology subnet" \
    --cert $o/server.crt --key $o/server.key --dh none --key-direction 0 $common >"$o/server-$1.log" 2>&1 &
  pids+=($!)
  sleep 2
  start_capture "$1" "$2 port 1194"
  ip netns exec "$a" timeout 40 openvpn --client --proto "$([ $2 = tcp ] && echo tcp-client || echo udp)" --remote 10.99.0.2 1194 --nobind \
    --cert $o/client.crt --key $o/client.key --key-direction 1 --remote-cert-tls server $common \
    >"$o/client-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 20); do ip netns exec "$a" ip -4 addr show dev tun0 2>/dev/null | grep -q 10.98.0 && break; sleep 0.5; done
  ip netns exec "$a" ping -q -c 3 -i 0.2 -W 1 10.98.0.1 >/dev/null || true
  sleep 1
  stop_peers
  stop_capture "$1"
}

# WireGuard: the kernel's module when it is there, else wireguard-go (userspace, a TUN device);
# fresh keys each run; a handshake, three pings through the tunnel, a persistent keepalive.
wireguard_run() { # name
  local w=$work/wg
  mkdir -p "$w"
  for side in a b; do (umask 077; wg genkey > "$w/$side.key"); wg pubkey < "$w/$side.key" > "$w/$side.pub"; done
  start_capture "$1" 'udp port 51820'
  for side in a b; do
    # one interface name per side: wireguard-go's control sockets share /run/wireguard
    ns=$a; peer=b; addr=10.96.0.1; peer_ip=10.99.0.2; dev=dsxwg0
    [ $side = b ] && { ns=$b; peer=a; addr=10.96.0.2; peer_ip=10.99.0.1; dev=dsxwg1; }
    if ! ip -n "$ns" link add $dev type wireguard 2>/dev/null; then
      ip netns exec "$ns" env WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD=1 timeout 40 wireguard-go -f $dev \
        >"$w/wireguard-go-$side.log" 2>&1 &
      pids+=($!)
      for _ in $(seq 1 20); do ip -n "$ns" link show $dev >/dev/null 2>&1 && break; sleep 0.2; done
    fi
    ip netns exec "$ns" wg set $dev listen-port 51820 private-key "$w/$side.key" \
      peer "$(cat "$w/$peer.pub")" endpoint "$peer_ip:51820" allowed-ips 10.96.0.0/24 persistent-keepalive 1
    ip -n "$ns" addr add "$addr/24" dev $dev
    ip -n "$ns" link set $dev up
  done
  ip netns exec "$a" ping -q -c 3 -i 0.2 -W 2 10.96.0.2 >/dev/null || true
  sleep 1.5
  stop_capture "$1"
  stop_peers
  ip -n "$a" link del dsxwg0 2>/dev/null || true
  ip -n "$b" link del dsxwg1 2>/dev/null || true
}

# L2TPv2: xl2tpd as LNS in namespace b and LAC in a (each with its own pid and control files,
# as /run is shared). The control connection (SCCRQ, SCCRP, SCCCN, ZLB acknowledgements, HELLO)
# and the session (ICRQ, ICRP, ICCN) are real; PPP over it needs pppd and the kernel's PPP
# support (/dev/ppp), which this container lacks, so the session is torn down (CDN, StopCCN).
l2tp_run() { # name
  local l=$work/l2tp
  mkdir -p "$l"
  printf 'noauth\nnodefaultroute\nlcp-echo-interval 0\n' > "$l/options"
  cat > "$l/lns.conf" <<EOF
[global]
listen-addr = 10.99.0.2
port = 1701
access control = no
[lns default]
ip range = 10.95.0.10-10.95.0.20
local ip = 10.95.0.1
require authentication = no
pppoptfile = $l/options
length bit = yes
EOF
  cat > "$l/lac.conf" <<EOF
[global]
listen-addr = 10.99.0.1
port = 1701
access control = no
[lac dsx]
lns = 10.99.0.2
pppoptfile = $l/options
length bit = yes
autodial = yes
redial = no
EOF
  ip netns exec "$b" timeout 20 xl2tpd -D -c "$l/lns.conf" -p "$l/lns.pid" -C "$l/lns-control" -s /dev/null \
    >"$l/lns.log" 2>&1 &
  pids+=($!)
  sleep 1
  start_capture "$1" 'udp port 1701'
  ip netns exec "$a" timeout 8 xl2tpd -D -c "$l/lac.conf" -p "$l/lac.pid" -C "$l/lac-control" -s /dev/null \
    >"$l/lac.log" 2>&1 &
  pids+=($!)
  sleep 9
  stop_capture "$1"
  stop_peers
}

for name in "${wanted[@]}"; do
  case $name in
  ikev2) ikev2 ikev2 yes ;;
  ikev1) ikev2 ikev1 yes 1 ;;
  openvpn-udp) openvpn_run openvpn-udp udp ;;
  openvpn-tcp) openvpn_run openvpn-tcp tcp ;;
  wireguard) wireguard_run wireguard ;;
  l2tp) l2tp_run l2tp ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
echo "captured: ${wanted[*]}"
