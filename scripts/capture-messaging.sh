#!/usr/bin/env bash
# Captures message brokers, caches and document databases from real clients (PyPI) and real
# servers (Debian's packages) where Debian has one, on the loopback of a network namespace of its
# own (nothing leaves it; every client and server is bounded in time), and records tshark's
# dissection of the same bytes as the oracle the tests compare with.
#
#   scripts/capture-messaging.sh [amqp] [memcache] [mongo] [kafka] [tds]
#                                   (as root; needs tcpdump, tshark, python3, Debian's
#                                    rabbitmq-server, memcached and freetds-bin (tsql), and from
#                                    PyPI pika, pymemcache, python-binary-memcached, pymongo,
#                                    kafka-python;
#                                    pymongo 3 in $PYMONGO3, default /opt/pymongo3)
#
#   amqp.pcap      RabbitMQ 3.10 (Debian's rabbitmq-server) and pika on TCP 5672, AMQP 0-9-1: the
#                  protocol header, Connection.Start/Start-Ok (server and client property tables,
#                  PLAIN), Tune, Open; Channel.Open; Exchange.Declare (topic), Queue.Declare, Bind,
#                  Basic.Qos, Confirm.Select; two Basic.Publish with content headers (content type,
#                  a headers table, delivery mode, priority, correlation id, reply to, message id)
#                  and bodies (JSON, text), the broker's Basic.Ack confirms; Basic.Get/Get-Ok,
#                  Basic.Ack; Basic.Consume, Deliver, Reject, Cancel; Queue.Purge, Unbind, Delete;
#                  Exchange.Delete; Channel.Close; a passive Queue.Declare of a missing queue (the
#                  broker's Channel.Close 404 NOT_FOUND); Connection.Close; a wrong password (the
#                  broker's Connection.Close 403 ACCESS_REFUSED).
#   memcache.pcap  memcached 1.6 (Debian's memcached) on TCP 11211: the text protocol from
#                  pymemcache (set, get, get of two keys, add, incr, decr, append, gets, delete of
#                  a missing key, touch, version, stats, quit, with noreply where pymemcache sends
#                  it) and the binary protocol from python-binary-memcached (set, get, a missing
#                  key, add of an existing key, increment, delete, replace of a missing key, get
#                  of several keys: GETKQ/GETK and NOOP).
#   mongo.pcap     pymongo 4 (the real client) on TCP 27017 against scripts/corpus/mongo_wire_server.py:
#                  Debian 12 has no mongod, and no real MongoDB server installs from PyPI, so this
#                  small wire-level server answers. The client's handshake (OP_QUERY isMaster on
#                  admin.$cmd, answered by OP_REPLY), then OP_MSG commands with their replies:
#                  insert (a document sequence, kind 1), find, update, aggregate ($count), delete,
#                  ping, an unknown command (an error reply), endSessions; then pymongo 3.13 against
#                  the server saying it is MongoDB 3.4: isMaster, insert and find as OP_QUERY on
#                  shop.$cmd, answered by OP_REPLY. Wireshark 4.0 registers
#                  port 27017 for MongoDB over TLS, so the oracle is made with
#                  `-d tcp.port==27017,mongo`.
#   kafka.pcap     kafka-python 3 (the real client, scripts/corpus/kafka_client.py) on TCP 9092 against
#                  scripts/corpus/kafka_broker_stub.py (Debian has no Kafka broker, and none installs
#                  from PyPI): a producer's ApiVersions v4 (flexible: tagged fields, compact strings),
#                  Metadata v1 and three Produce v2 requests (message sets of format v1, one with a
#                  key), a consumer's ApiVersions, Metadata and Fetch v3; the stub's responses (its
#                  ApiVersions lists only the versions it answers, so the client picks these).
#   tds.pcap       FreeTDS's tsql (the real client, TDS 7.4) on TCP 1433 against
#                  scripts/corpus/tds_server_stub.py (Debian has no SQL Server): PRELOGIN and its
#                  answer, LOGIN7 (user, application, server, library, language, database) and the
#                  stub's ENVCHANGE, INFO, LOGINACK and DONE; a SQL batch (ALL_HEADERS, a SELECT)
#                  answered by COLMETADATA (INT and NVARCHAR columns), two ROWs and DONE; a query of
#                  a missing table answered by ERROR and DONE with its error bit.
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv, read by tshark with TCP reassembly off (segment by segment, as dissect
# reads them). The traffic itself (ports, sequence numbers, process IDs, consumer tags) differs
# from run to run; running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ns=dsx-msg
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(amqp memcache mongo kafka tds)

work=$(mktemp -d)
chmod 755 "$work"
servers=()
# Ends the servers this script started and everything else left running in its namespace
# (RabbitMQ's epmd daemonizes) but a running capture.
kill_namespace() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  for pid in $(ip netns pids "$ns" 2>/dev/null); do
    [ "$pid" = "${capture_pid:-}" ] || kill "$pid" 2>/dev/null || true
  done
  sleep 1
}
cleanup() {
  capture_pid=
  kill_namespace
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ip netns del "$ns" 2>/dev/null || true
ip netns add "$ns"
ip netns exec "$ns" ip link set lo up

in_ns() { ip netns exec "$ns" "$@"; }
server() { ip netns exec "$ns" "$@" >>"$work/server.log" 2>&1 & servers+=($!); }
# Waits (at most 60 s) until something listens on the port in the namespace.
wait_port() { for _ in $(seq 60); do in_ns bash -c "echo > /dev/tcp/127.0.0.1/$1" 2>/dev/null && return 0; sleep 1; done; echo "nothing on port $1" >&2; return 1; }
stop_servers() { kill_namespace; servers=(); }
start_capture() { # name filter
  ip netns exec "$ns" tcpdump -U -q -i lo -w "$work/$1.raw.pcap" "$2" 2>/dev/null &
  capture_pid=$!
  sleep 1
}
# Copies the raw capture's frames into Corpus/captures with fixed timestamps, and writes the oracle.
stop_capture() { # name [tshark options...]
  local name=$1; shift
  sleep 1; kill "$capture_pid"; wait "$capture_pid" 2>/dev/null || true
  capture_pid=
  python3 - "$work/$name.raw.pcap" "$name" "$@" <<'PY'
import struct, sys
sys.path.insert(0, "scripts/corpus")
from common import write_capture
data = open(sys.argv[1], "rb").read()
assert struct.unpack("<I", data[:4])[0] == 0xA1B2C3D4 and struct.unpack("<I", data[20:24])[0] == 1
offset, frames = 24, []
while offset + 16 <= len(data):
    captured = struct.unpack("<IIII", data[offset:offset + 16])[2]
    frames.append(data[offset + 16:offset + 16 + captured])
    offset += 16 + captured
write_capture(sys.argv[2], 1, frames, ("-o", "tcp.desegment_tcp_streams:FALSE", *sys.argv[3:]))
PY
}

capture_amqp() {
  local base=$work/rabbitmq
  mkdir -p "$base"
  chown -R rabbitmq "$base" 2>/dev/null || true
  echo '[].' >"$base/enabled_plugins"
  printf 'loopback_users = none\n' >"$base/rabbitmq.conf"
  server env HOME="$base" RABBITMQ_NODENAME=rabbit@localhost RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
    RABBITMQ_NODE_PORT=5672 RABBITMQ_MNESIA_BASE="$base/mnesia" RABBITMQ_LOG_BASE="$base/log" \
    RABBITMQ_CONFIG_FILE="$base/rabbitmq" RABBITMQ_ENABLED_PLUGINS_FILE="$base/enabled_plugins" \
    RABBITMQ_PID_FILE="$base/pid" timeout 120 /usr/lib/rabbitmq/bin/rabbitmq-server
  wait_port 5672
  sleep 3
  start_capture amqp 'tcp port 5672'
  in_ns timeout 30 python3 - <<'PY'
import pika
params = pika.ConnectionParameters(host="127.0.0.1", port=5672, credentials=pika.PlainCredentials("guest", "guest"),
                                   heartbeat=0, blocked_connection_timeout=5, socket_timeout=5)
conn = pika.BlockingConnection(params)
ch = conn.channel()
ch.exchange_declare("shop", exchange_type="topic", durable=False)
ch.queue_declare("orders", durable=False, arguments={"x-message-ttl": 60000, "x-queue-mode": "default"})
ch.queue_bind("orders", "shop", routing_key="order.*")
ch.basic_qos(prefetch_count=10)
ch.confirm_delivery()
props = pika.BasicProperties(content_type="application/json", delivery_mode=2, priority=1, correlation_id="c-1",
                             reply_to="replies", message_id="m-1", headers={"source": "dissect", "n": 3})
ch.basic_publish("shop", "order.new", b'{"item": "apple", "qty": 3}', props)
ch.basic_publish("shop", "order.cancel", b"cancel 42", pika.BasicProperties(content_type="text/plain",
    content_encoding="utf-8", expiration="60000", type="cancel", user_id="guest", app_id="shop-app", timestamp=1767225600))
method, header, body = ch.basic_get("orders")
ch.basic_ack(method.delivery_tag)
def on_message(channel, method, properties, body):
    channel.basic_reject(method.delivery_tag, requeue=False)
    channel.stop_consuming()
ch.basic_consume("orders", on_message, arguments={"x-priority": 5})
ch.start_consuming()
ch.basic_get("orders")   # the queue is empty now: Basic.Get-Empty
ch.basic_recover(requeue=True)
ch.queue_purge("orders")
ch.queue_unbind("orders", "shop", routing_key="order.*")
ch.queue_delete("orders")
ch.exchange_delete("shop")
ch.close()
tx = conn.channel()   # a transaction: Tx.Select, a publish, Tx.Commit, a publish, Tx.Rollback
tx.tx_select()
tx.basic_publish("", "nowhere", b"in a transaction")
tx.tx_commit()
tx.basic_publish("", "nowhere", b"rolled back")
tx.tx_rollback()
tx.close()
ch2 = conn.channel()
try:
    ch2.queue_declare("no-such-queue", passive=True)
except pika.exceptions.ChannelClosedByBroker:
    pass
conn.close()
try:   # a wrong password: the broker closes the connection (403 ACCESS_REFUSED)
    pika.BlockingConnection(pika.ConnectionParameters(host="127.0.0.1", port=5672, socket_timeout=5,
        credentials=pika.PlainCredentials("guest", "wrong"), connection_attempts=1))
except pika.exceptions.AMQPError:
    pass
PY
  stop_capture amqp
  stop_servers
}

capture_memcache() {
  server timeout 60 memcached -u nobody -l 127.0.0.1 -p 11211 -U 0
  wait_port 11211
  start_capture memcache 'tcp port 11211'
  in_ns timeout 30 python3 - <<'PY'
from pymemcache.client.base import Client
c = Client(("127.0.0.1", 11211), timeout=5)
c.set("greeting", "hello world", expire=300)
c.get("greeting"); c.get_many(["greeting", "missing"])
c.add("counter", "10"); c.incr("counter", 5); c.decr("counter", 2)
c.append("greeting", "!"); c.gets("greeting")
c.delete("missing", noreply=False); c.touch("greeting", 60)
c.version(); c.stats()
c.quit()
import bmemcached
b = bmemcached.Client(("127.0.0.1:11211",), socket_timeout=5)
b.set("bin:key", "binary value", 300); b.get("bin:key"); b.get("bin:missing")
b.add("bin:key", "again"); b.set("bin:n", 7); b.incr("bin:n", 3)
b.delete("bin:key"); b.replace("bin:gone", "x")
b.get_multi(["bin:n", "bin:key"])
b.disconnect_all()
PY
  stop_capture memcache
  stop_servers
}

capture_mongo() {
  server timeout 60 python3 scripts/corpus/mongo_wire_server.py --port 27017 --seconds 50
  wait_port 27017
  start_capture mongo 'tcp port 27017'
  in_ns timeout 30 python3 - <<'PY'
import pymongo
# heartbeatFrequencyMS: the monitor's next hello falls after the run.
c = pymongo.MongoClient("mongodb://127.0.0.1:27017/?directConnection=true&appname=dissect",
                        serverSelectionTimeoutMS=5000, heartbeatFrequencyMS=60000)
db = c.shop
db.items.insert_one({"name": "apple", "price": 0.5, "qty": 3})
db.items.insert_many([{"name": "pear", "price": 0.75}, {"name": "fig", "price": 2.1, "tags": ["dried", "sweet"]}])
list(db.items.find({"name": "apple"}))
db.items.update_one({"name": "pear"}, {"$set": {"price": 0.8}})
db.items.count_documents({})
db.items.delete_one({"name": "fig"})
db.command("ping")
try:
    db.command("nosuchcommand")
except pymongo.errors.OperationFailure:
    pass
c.close()
PY
  stop_servers
  # pymongo 3 (PYMONGO3: a folder holding it, e.g. pip install --target /opt/pymongo3 pymongo==3.13.0)
  # against a server that says it is MongoDB 3.4 (wire version 5): the handshake and every command
  # as OP_QUERY on <db>.$cmd, answered by OP_REPLY.
  if [ -d "${PYMONGO3:-/opt/pymongo3}/pymongo" ]; then
    server timeout 60 python3 scripts/corpus/mongo_wire_server.py --port 27017 --seconds 30 --max-wire-version 5
    sleep 2   # (not wait_port: its probe would be in the capture)
    in_ns env PYTHONPATH="${PYMONGO3:-/opt/pymongo3}" timeout 30 python3 - <<'PY'
import pymongo
assert pymongo.version_tuple[0] == 3
c = pymongo.MongoClient("127.0.0.1", 27017, serverSelectionTimeoutMS=5000, heartbeatFrequencyMS=60000, appname="legacy")
db = c.shop
db.items.insert_one({"name": "plum", "price": 1.25})
list(db.items.find({"name": "plum"}))
c.close()
PY
  fi
  stop_capture mongo -d tcp.port==27017,mongo
  stop_servers
}

capture_kafka() {
  server timeout 60 python3 scripts/corpus/kafka_broker_stub.py --port 9092 --seconds 50
  wait_port 9092
  start_capture kafka 'tcp port 9092'
  in_ns timeout 40 python3 scripts/corpus/kafka_client.py
  stop_capture kafka
  stop_servers
}

capture_tds() {
  server timeout 60 python3 scripts/corpus/tds_server_stub.py --port 1433 --seconds 50
  wait_port 1433
  start_capture tds 'tcp port 1433'
  printf 'SELECT id, name FROM items\ngo\nSELECT * FROM missing\ngo\nquit\n' \
    | in_ns env TDSVER=7.4 timeout 20 tsql -H 127.0.0.1 -p 1433 -U sa -P secret -D shop >/dev/null 2>&1 || true
  stop_capture tds
  stop_servers
}

for name in "${wanted[@]}"; do
  case $name in
  amqp) capture_amqp ;;
  memcache) capture_memcache ;;
  mongo) capture_mongo ;;
  kafka) capture_kafka ;;
  tds) capture_tds ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
