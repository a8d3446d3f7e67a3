#!/usr/bin/env bash
# Captures the real traffic the tests dissect, on this machine's loopback, and
# records tshark's dissection of the same bytes as the oracle the tests compare with.
#
#   scripts/capture-samples.sh        (as root; needs tcpdump, tshark, ping, dig, dnsmasq, curl, python3 with scapy)
#
# Writes Corpus/captures/*.pcap and Corpus/oracle/*.json. The tests read only those
# files, so CI needs none of these tools.
set -euo pipefail
cd "$(dirname "$0")/.."
captures=Corpus/captures
oracle=Corpus/oracle
mkdir -p "$captures" "$oracle"

start_capture() { # name filter [interface] [linktype]
  local interface=${3:-lo}
  tcpdump -U -q -i "$interface" ${4:+-y "$4"} -w "$captures/$1.pcap" "$2" 2>/dev/null &
  capture_pid=$!
  sleep 1
}
stop_capture() { sleep 1; kill "$capture_pid"; wait "$capture_pid" 2>/dev/null || true; }

# ICMP and ICMPv6 echo.
start_capture icmp 'icmp or (icmp6 and (ip6[40] == 128 or ip6[40] == 129))'
ping -q -c 2 127.0.0.1 >/dev/null
ping -q -6 -c 2 ::1 >/dev/null
stop_capture

# DNS: a local dnsmasq answers A, AAAA, CNAME, MX, TXT and PTR; a second, authoritative one SOA and NS.
dnsmasq --no-daemon --no-resolv --no-hosts --listen-address=127.0.0.1 --bind-interfaces --port=53 \
  --host-record=www.example.test,192.0.2.10,2001:db8::10 --cname=alias.example.test,www.example.test \
  --mx-host=example.test,mail.example.test,10 --txt-record=example.test,"v=spf1 -all","hello world" \
  --ptr-record=10.2.0.192.in-addr.arpa,www.example.test 2>/dev/null &
resolver=$!
dnsmasq --no-daemon --no-resolv --no-hosts --listen-address=127.0.0.2 --bind-interfaces --port=53 \
  --auth-zone=example.test --auth-server=ns1.example.test,127.0.0.2 \
  --auth-soa=2026112101,hostmaster.example.test 2>/dev/null &
authority=$!
sleep 1
start_capture dns 'udp port 53'
for query in "www.example.test A" "www.example.test AAAA" "alias.example.test A" "example.test MX" \
             "example.test TXT" "-x 192.0.2.10"; do
  dig +tries=1 +time=2 @127.0.0.1 $query >/dev/null
done
dig +tries=1 +time=2 @127.0.0.2 example.test SOA >/dev/null
dig +tries=1 +time=2 @127.0.0.2 example.test NS >/dev/null
stop_capture
kill "$resolver" "$authority"

# TCP: handshake, an HTTP request and response with data, and the close.
python3 -m http.server 8765 --bind 127.0.0.1 --directory Schemas >/dev/null 2>&1 &
server=$!
sleep 1
start_capture tcp 'tcp port 8765'
curl -s -o /dev/null http://127.0.0.1:8765/udp.schema
stop_capture
kill "$server"

# Linux cooked captures (the "any" interface) of ICMP echo.
start_capture sll 'icmp' any LINUX_SLL
ping -q -c 1 127.0.0.1 >/dev/null
stop_capture
start_capture sll2 'icmp6 and ip6[40] == 128' any LINUX_SLL2
ping -q -6 -c 1 ::1 >/dev/null
stop_capture

# IPv6 TCP with data, as pcapng (dumpcap's format): the pcapng path through libpcap.
python3 -m http.server 8766 --bind ::1 --directory Schemas >/dev/null 2>&1 &
server=$!
sleep 1
dumpcap -q -i lo -f 'tcp port 8766' -w "$captures/tcp6.pcapng" 2>/dev/null &
capture_pid=$!
sleep 2
curl -s -o /dev/null 'http://[::1]:8766/arp.schema'
stop_capture
kill "$server"

# DNS over UDP with nanosecond timestamps (a pcap with the nanosecond magic number).
dnsmasq --no-daemon --no-resolv --no-hosts --listen-address=127.0.0.1 --bind-interfaces --port=53 \
  --host-record=ns.example.test,192.0.2.20 2>/dev/null &
resolver=$!
sleep 1
tcpdump -U -q -i lo --time-stamp-precision=nano -w "$captures/dns-nsec.pcap" 'udp port 53' 2>/dev/null &
capture_pid=$!
sleep 1
dig +tries=1 +time=2 @127.0.0.1 ns.example.test A >/dev/null
stop_capture
kill "$resolver"

# Link types loopback cannot produce (DLT_NULL, DLT_LOOP, raw IP, 802.1Q, QinQ, an IPv6
# extension-header chain): built from the IP packets captured above.
python3 scripts/derive-samples.py "$captures"

for capture in "$captures"/*.pcap "$captures"/*.pcapng; do
  name=$(basename "$capture"); name=${name%.pcap}; name=${name%.pcapng}
  tshark -r "$capture" -T json -x --no-duplicate-keys > "$oracle/$name.json"
done

# tshark's checksum verdicts for every frame of every capture, every layer's checking on:
# 0 bad, 1 good, 2 unverified, 3 not present, 4 illegal (BundledSchemaOracleTests compares them).
status="$oracle/checksum-status.tsv"
printf 'capture\tframe\tip\tip.calculated\ttcp\ttcp.calculated\tudp\tudp.calculated\ticmp\ticmpv6\texpert\n' > "$status"
for capture in "$captures"/*.pcap "$captures"/*.pcapng; do
  tshark -r "$capture" -o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE -o udp.check_checksum:TRUE \
    -T fields -E occurrence=a -E aggregator=';' -e frame.number \
    -e ip.checksum.status -e ip.checksum_calculated -e tcp.checksum.status -e tcp.checksum_calculated \
    -e udp.checksum.status -e udp.checksum_calculated -e icmp.checksum.status -e icmpv6.checksum.status \
    -e _ws.expert.message | sed "s|^|$(basename "$capture")\t|" >> "$status"
done
echo "captured: $(ls "$captures")"
