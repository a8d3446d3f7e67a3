#!/usr/bin/env bash
# Real traffic between two network namespaces joined by a veth pair, from real clients and
# servers of Debian's packages, captured into Corpus/depth/ for scripts/depth-vs-tshark (how
# deep dissect decodes what users meet, against tshark). Nothing leaves the namespaces; every
# loop is bounded in count and time.
#
#   scripts/corpus/real-traffic.sh        (as root; needs iproute2, tcpdump, dnsmasq, dig, curl,
#                                          openssl, sshd, mosquitto, snmpd, chronyd, lldpd, socat,
#                                          udhcpc, logger, ping)
#
# Writes Corpus/depth/lan.pcap (ARP, NDP, ICMP, DNS, DHCP, HTTP, TLS, SSH, MQTT, SNMP, syslog,
# NTP, LLDP, IGMP/MLD), Corpus/depth/stp.pcap (a Linux bridge's BPDUs) and
# Corpus/depth/vxlan.pcap (ping through a VXLAN tunnel).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=Corpus/depth
mkdir -p "$out"
work=$(mktemp -d)
A=dsx-a
B=dsx-b
. scripts/corpus/namespaces.sh
veth_pair va vb 02:00:00:00:00:0a 02:00:00:00:00:0b
in_a ip addr add 10.9.0.1/24 dev va
in_b ip addr add 10.9.0.2/24 dev vb
in_a ip addr add fd00:9::1/64 dev va nodad
in_b ip addr add fd00:9::2/64 dev vb nodad
in_a ip link set va up
in_b ip link set vb up

capture() { # name interface-in-A
  # Not through in_a: $! must be tcpdump itself (ip netns exec execs it), not a subshell.
  ip netns exec $A tcpdump -U -q -i "$2" -w "$out/$1.pcap" 2>/dev/null & capture_pid=$!
  sleep 1
}
stop_capture() { sleep 1; kill "$capture_pid"; wait "$capture_pid" 2>/dev/null || true; }

# Servers in B.
mkdir -p "$work/www" "$work/ssh"
echo "hello from the corpus" > "$work/www/index.html"
background_b python3 -m http.server 8080 --bind 10.9.0.2 --directory "$work/www"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 1 \
  -subj "/CN=server.corpus.test" >/dev/null 2>&1
background_b openssl s_server -accept 10.9.0.2:4433 -cert "$work/cert.pem" -key "$work/key.pem" -www -quiet
background_b dnsmasq --no-daemon --no-resolv --no-hosts --listen-address=10.9.0.2 --bind-interfaces --port=53 \
  --host-record=www.corpus.test,10.9.0.2,fd00:9::2 --mx-host=corpus.test,mail.corpus.test,10 \
  --dhcp-range=10.9.0.100,10.9.0.150,1h --dhcp-leasefile="$work/leases" --pid-file="$work/dnsmasq.pid"
ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/host_key"
mkdir -p /run/sshd
background_b /usr/sbin/sshd -D -h "$work/ssh/host_key" -o ListenAddress=10.9.0.2 -o PidFile="$work/sshd.pid"
cat > "$work/mosquitto.conf" <<'EOF'
listener 1883 10.9.0.2
allow_anonymous true
EOF
background_b mosquitto -c "$work/mosquitto.conf"
cat > "$work/snmpd.conf" <<'EOF'
agentAddress udp:10.9.0.2:161
rocommunity public 10.9.0.0/24
EOF
background_b snmpd -f -Lo -C -c "$work/snmpd.conf"
cat > "$work/chrony-server.conf" <<'EOF'
local stratum 8
allow 10.9.0.0/24
bindaddress 10.9.0.2
port 123
cmdport 0
EOF
background_b chronyd -d -x -f "$work/chrony-server.conf"
background_b socat -u UDP4-RECV:514,bind=10.9.0.2 OPEN:/dev/null
sleep 2

capture lan va
in_a ping -q -c 2 -W 1 10.9.0.2 >/dev/null || true
in_a ping -q -6 -c 2 -W 1 fd00:9::2 >/dev/null || true
in_a dig +tries=1 +time=2 @10.9.0.2 www.corpus.test A >/dev/null || true
in_a dig +tries=1 +time=2 @10.9.0.2 www.corpus.test AAAA >/dev/null || true
in_a dig +tries=1 +time=2 @10.9.0.2 corpus.test MX >/dev/null || true
in_a dig +tcp +tries=1 +time=2 @10.9.0.2 www.corpus.test A >/dev/null || true
in_a timeout 10 udhcpc -i va -n -q -f -s /bin/true >/dev/null 2>&1 || true
in_a curl -s -m 5 -o /dev/null http://10.9.0.2:8080/index.html || true
in_a timeout 5 openssl s_client -connect 10.9.0.2:4433 -servername server.corpus.test -alpn h2,http/1.1 \
  </dev/null >/dev/null 2>&1 || true
in_a timeout 5 ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes \
  -o ConnectTimeout=3 nobody@10.9.0.2 true >/dev/null 2>&1 || true
in_a timeout 5 mosquitto_pub -h 10.9.0.2 -p 1883 -t corpus/test -m "hello" -q 1 || true
in_a timeout 5 snmpget -v2c -c public -t 1 -r 0 10.9.0.2 1.3.6.1.2.1.1.1.0 >/dev/null 2>&1 || true
in_a logger --server 10.9.0.2 --port 514 --udp --rfc5424 "corpus syslog message" || true
in_a timeout 8 chronyd -Q -t 6 "server 10.9.0.2 iburst port 123" >/dev/null 2>&1 || true
in_a timeout 6 socat -u UDP4-RECV:5000,ip-add-membership=239.1.1.1:va OPEN:/dev/null >/dev/null 2>&1 || true
in_a timeout 6 lldpd -d -c -I va -S "corpus test system" >/dev/null 2>&1 || true
stop_capture

# A Linux bridge with the spanning tree on sends BPDUs every 2 seconds out of its ports.
in_a ip link add br0 type bridge stp_state 1 hello_time 200
in_a ip link add vx0 type veth peer name vx1
in_a ip link set vx0 master br0
in_a ip link set br0 up
in_a ip link set vx0 up
in_a ip link set vx1 up
capture stp vx1
sleep 5
stop_capture

# VXLAN between the namespaces (UDP 4789), pinged through.
in_a ip link add vxa type vxlan id 42 remote 10.9.0.2 local 10.9.0.1 dstport 4789 dev va
in_b ip link add vxb type vxlan id 42 remote 10.9.0.1 local 10.9.0.2 dstport 4789 dev vb
in_a ip addr add 10.42.0.1/24 dev vxa
in_b ip addr add 10.42.0.2/24 dev vxb
in_a ip link set vxa up
in_b ip link set vxb up
capture vxlan va
in_a ping -q -c 3 -W 1 10.42.0.2 >/dev/null || true
stop_capture

for name in lan stp vxlan; do
  echo "$out/$name.pcap: $(tshark -r "$out/$name.pcap" 2>/dev/null | wc -l) frames"
done
