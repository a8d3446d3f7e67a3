#!/usr/bin/env bash
# Captures real exchanges that dissect once called malformed where tshark sees well-formed
# frames (issue 29): SSH packets after NEWKEYS with each kind of cipher (AES-GCM and -etm MACs
# leave the packet length in the clear, AES-CTR with a plain MAC and ChaCha20-Poly1305 hide
# it), syslog messages without a <PRI>, MQTT 5 packets with properties, MQTT 3.1.1 binary
# messages that look like 5.0 properties; and, crafted, GVRP PDUs
# (which share STP's LLC SAPs), TLS 1.3 draft hellos and gQUIC (Q043, Q046) packets. Each real exchange runs in a network
# namespace of its own (dissect-fixes), on its loopback, so nothing leaves the machine and no
# port of the host is taken.
#
#   scripts/capture-fixes.sh [ssh] [syslog] [mqtt] [gvrp] [tls] [gquic]   (default: all)
#     as root; needs tcpdump, tshark, openssh-server and -client, mosquitto, python3 with
#     paho-mqtt and scapy
#
# Writes Corpus/captures/{ssh-ciphers,syslog-nopri,mqtt5-props,mqtt-binary,gvrp,tls13-drafts,gquic}.pcap and their
# oracle files, Corpus/oracle/<name>.json and <name>.checksums.tsv, and Corpus/depth/ssh-gcm.pcap
# (no oracle: see below). Running again rewrites them (the real traffic's keys, ports and
# sequence numbers differ from run to run; the crafted captures are the same bytes).
set -euo pipefail
cd "$(dirname "$0")/.."
captures=Corpus/captures
oracle=Corpus/oracle
ns=dissect-fixes
work=$(mktemp -d)
trap 'ip netns pids $ns 2>/dev/null | xargs -r kill 2>/dev/null || true; ip netns del $ns 2>/dev/null || true; rm -rf "$work"' EXIT
ip netns del $ns 2>/dev/null || true
ip netns add $ns
ip -n $ns link set lo up
run() { ip netns exec $ns "$@"; }
wanted=" ${*:-ssh syslog mqtt gvrp tls gquic} "   # families (default all)
want() { [[ $wanted == *" $1 "* ]]; }

start_capture() { # name filter [folder]
  ip netns exec $ns tcpdump -U -q -i lo -w "${3:-$captures}/$1.pcap" "$2" 2>/dev/null &
  capture_pid=$!
  sleep 1
}
stop_capture() { sleep 1; kill "$capture_pid"; wait "$capture_pid" 2>/dev/null || true; }

if want ssh; then
# SSH: sshd on port 22 with a throwaway host key and user key; one session per cipher kind, each
# running two commands after the key exchange.
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/user_key"
mkdir -p "$work/home"
cp "$work/user_key.pub" "$work/authorized_keys"
cat > "$work/sshd_config" <<CONF
ListenAddress 127.0.0.1:22
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
PidFile $work/sshd.pid
CONF
mkdir -p /run/sshd
run /usr/sbin/sshd -f "$work/sshd_config" -E "$work/sshd.log"
sleep 1
ssh_session() { # cipher mac
  timeout 20 ip netns exec $ns ssh -q -i "$work/user_key" -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile=/dev/null -o BatchMode=yes -c "$1" -m "$2" 127.0.0.1 'uname -s; echo done' \
    >/dev/null </dev/null
}
start_capture ssh-ciphers 'tcp port 22'
ssh_session aes128-ctr hmac-sha2-256-etm@openssh.com
ssh_session aes256-ctr hmac-sha2-256
ssh_session chacha20-poly1305@openssh.com hmac-sha2-256
stop_capture
# AES-GCM apart, in Corpus/depth (read by scripts/depth-vs-tshark, not by the oracle tests):
# tshark 4.0, which follows NEWKEYS but has no keys, reads its packets' ciphertext as padding
# length, message code and padding (Unknown (244), BoundError); dissect shows encrypted_packet.
start_capture ssh-gcm 'tcp port 22' Corpus/depth
ssh_session aes128-gcm@openssh.com hmac-sha2-256
stop_capture
kill "$(cat "$work/sshd.pid")"
fi

if want syslog; then
# Syslog over UDP (port 514) without a <PRI> (RFC 3164 §4.3.3: a relay must accept it; BSD
# programs and embedded devices send such lines), sent from Python
# (as such a program would), and one with a <PRI> for comparison. (TCP port 514 is rsh to tshark.)
ip netns exec $ns python3 -c '
import socket
u=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); u.bind(("127.0.0.1",514)); u.settimeout(8)
try:
    while True: u.recv(4096)
except Exception: pass
' &
sink=$!
sleep 1
start_capture syslog-nopri 'udp port 514'
run python3 - <<'PY'
import socket
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for line in [b"Nov 28 01:30:00 host sshd[42]: Accepted publickey for root",
             b"kernel: usb 1-1: new high-speed USB device number 2",
             b"<13>Nov 28 01:30:01 host root: with a priority"]:
    u.sendto(line, ("127.0.0.1", 514))
PY
stop_capture
kill "$sink" 2>/dev/null || true
fi

if want mqtt; then
# MQTT 5 with properties: mosquitto, and paho-mqtt as an MQTTv5 client connecting with a session
# expiry, publishing with user properties, content type, message expiry and a response topic.
ip netns exec $ns mosquitto -p 1883 >/dev/null 2>&1 &
broker=$!
sleep 1
start_capture mqtt5-props 'tcp port 1883'
timeout 20 ip netns exec $ns python3 - <<'PY'
import time, paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.packettypes import PacketTypes
try:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="fixes", protocol=mqtt.MQTTv5)
except AttributeError:
    c = mqtt.Client(client_id="fixes", protocol=mqtt.MQTTv5)
cp = Properties(PacketTypes.CONNECT); cp.SessionExpiryInterval = 60; cp.ReceiveMaximum = 10
c.connect("127.0.0.1", 1883, properties=cp)
c.loop_start()
sp = Properties(PacketTypes.SUBSCRIBE); sp.SubscriptionIdentifier = 7
c.subscribe("fixes/#", qos=1, properties=sp)
time.sleep(0.5)
pp = Properties(PacketTypes.PUBLISH)
pp.UserProperty = [("source", "capture-fixes"), ("n", "1")]
pp.ContentType = "text/plain"; pp.MessageExpiryInterval = 30; pp.ResponseTopic = "fixes/reply"
pp.CorrelationData = b"\x01\x02"; pp.PayloadFormatIndicator = 1
c.publish("fixes/a", b"hello", qos=1, properties=pp).wait_for_publish(5)
c.publish("fixes/b", b"world", qos=0, properties=pp)
time.sleep(0.5)
c.disconnect(); c.loop_stop()
PY
# A second client: user name and password, QoS 2 flows, a topic alias (a PUBLISH with an empty
# topic), a retained message, DISCONNECT with a reason code and properties. (A will and an
# UNSUBSCRIBE are left out until the oracle mappings name their paths: mqtt.body.will_properties,
# mqtt.body.topics[i].)
timeout 20 ip netns exec $ns python3 -W ignore - <<'PY'
import time, paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.packettypes import PacketTypes
def client(cid):
    try: return mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=cid, protocol=mqtt.MQTTv5)
    except AttributeError: return mqtt.Client(client_id=cid, protocol=mqtt.MQTTv5)
c = client("fixes2")
c.username_pw_set("user", "pass")
cp = Properties(PacketTypes.CONNECT); cp.SessionExpiryInterval = 0; cp.TopicAliasMaximum = 5; cp.RequestProblemInformation = 1; cp.MaximumPacketSize = 65536
c.connect("127.0.0.1", 1883, properties=cp)
c.loop_start()
c.subscribe([("fixes/q2", mqtt.SubscribeOptions(qos=2, noLocal=False)), ("fixes/r", mqtt.SubscribeOptions(qos=1))])
time.sleep(0.3)
pp = Properties(PacketTypes.PUBLISH); pp.TopicAlias = 1
c.publish("fixes/q2", b"\x00binary", qos=2, properties=pp).wait_for_publish(5)
pp2 = Properties(PacketTypes.PUBLISH); pp2.TopicAlias = 1
c.publish("", b"via alias", qos=2, properties=pp2)
c.publish("fixes/r", b"retained", qos=1, retain=True)
time.sleep(0.3)
dp = Properties(PacketTypes.DISCONNECT); dp.ReasonString = "bye"; dp.SessionExpiryInterval = 0
c.disconnect(reasoncode=mqtt.ReasonCodes(PacketTypes.DISCONNECT, "Normal disconnection"), properties=dp); c.loop_stop()
PY
stop_capture
# MQTT 3.1.1 with binary messages that start like a 5.0 property list (a length, then property 3,
# content type, whose string length does not fit): port 1883's guess once read them as 5.0 and
# called them malformed. (A message that is a whole valid property list, or starts with byte 0,
# stays ambiguous without the session's CONNECT: see mqtt.schema's limits.)
start_capture mqtt-binary 'tcp port 1883'
timeout 20 ip netns exec $ns python3 -W ignore - <<'PY'
import time, paho.mqtt.client as mqtt
try:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="fixes311", protocol=mqtt.MQTTv311)
except AttributeError:
    c = mqtt.Client(client_id="fixes311", protocol=mqtt.MQTTv311)
c.connect("127.0.0.1", 1883)
c.loop_start()
c.subscribe("sensor/#", qos=1)
time.sleep(0.3)
for message in [b"\x05\x03\x00\x10abc", b"\x07\x26\x00\x09ab", b"\x04\x08\x00\x07xy"]:
    c.publish("sensor/raw", message, qos=0)
c.publish("sensor/raw", b"\x05\x03\x00\x10abc", qos=1).wait_for_publish(5)
time.sleep(0.5)
c.disconnect(); c.loop_stop()
PY
stop_capture
kill "$broker"
fi

# GVRP, TLS 1.3 draft hellos, gQUIC: crafted (no GVRP speaker, TLS 1.3 draft implementation or
# gQUIC endpoint runs here; see scripts/corpus/gvrp.py, tls13-drafts.py, gquic.py), with their oracles.
if want gvrp; then
  (cd scripts/corpus && python3 gvrp.py)
fi
if want tls; then
  (cd scripts/corpus && python3 tls13-drafts.py)
fi
if want gquic; then
  (cd scripts/corpus && python3 gquic.py)
fi

# The oracle of each, read by tshark with TCP reassembly off (segment by segment, as dissect reads
# them): Corpus/oracle/<name>.json and <name>.checksums.tsv (scripts/corpus/common.py's write_oracle).
for name in $(want ssh && echo ssh-ciphers) $(want syslog && echo syslog-nopri) $(want mqtt && echo mqtt5-props mqtt-binary); do
  python3 -c 'import sys; sys.path.insert(0, "scripts/corpus"); from common import write_oracle
write_oracle(sys.argv[1], sys.argv[2], ("-o", "tcp.desegment_tcp_streams:FALSE"))' "$name" "$captures/$name.pcap"
done
echo "captured:$wanted"
