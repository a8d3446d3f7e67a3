#!/usr/bin/env bash
# Captures database and cache protocols from real servers and clients (Debian's packages and
# PyPI), on the loopback of a network namespace of its own (nothing leaves it; every client is
# bounded in time), and records tshark's dissection of the same bytes as the oracle the tests
# compare with.
#
#   scripts/capture-db.sh [pgsql] [mysql] [redis]
#                                          (as root; needs tcpdump, tshark, python3, and Debian's
#                                           postgresql, mariadb-server, mariadb-client,
#                                           redis-server, redis-tools and python3-redis)
#
#   pgsql.pcap     PostgreSQL 15 (postgres) and psql/pgbench on TCP 5432: an SSL request the
#                  server refuses ('N'), the startup message, SCRAM-SHA-256 (SASL, SASL continue,
#                  SASL final), md5 authentication of a second user, a wrong password (a FATAL
#                  error response), parameter status, backend key data, ready for query; simple
#                  queries (CREATE TABLE, INSERT, SELECT with row description and data rows, an
#                  error, a notice), COPY TO STDOUT (copy out response, copy data, copy done), the
#                  extended query protocol (pgbench -M extended: parse, bind, describe, execute,
#                  sync and their completions) and terminate.
#   mysql.pcap     MariaDB 10.11 (mariadbd) and the mariadb client on TCP 3306: server greeting,
#                  login request (mysql_native_password, connection attributes), OK with session
#                  tracking, queries (CREATE, INSERT, SELECT with column definitions, rows and
#                  EOF, UPDATE), an error, init DB, a failed login (ERR), quit.
#   redis.pcap     redis-server 7 with redis-cli and python3-redis on TCP 6379: PING, SET, GET,
#                  INCR, lists, hashes,
#                  a missing key (null bulk string), INCR of a string (an error), DEL, an unknown
#                  command (RESP arrays, bulk strings, simple strings, integers, errors).
#
# MongoDB and memcached are not captured yet: Debian 12 has no mongod, and no real server of the
# MongoDB wire protocol was installed here; memcached is left for later.
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv, read by tshark with TCP reassembly off (segment by segment, as dissect
# reads them). The traffic itself (ports, sequence numbers, salts, nonces, process IDs) differs
# from run to run; running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ns=dsx-db
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(pgsql mysql redis)

work=$(mktemp -d)
chmod 755 "$work"
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ip netns del "$ns" 2>/dev/null || true
ip netns add "$ns"
ip netns exec "$ns" ip link set lo up

in_ns() { ip netns exec "$ns" "$@"; }
server() { ip netns exec "$ns" "$@" >>"$work/server.log" 2>&1 & servers+=($!); sleep 4; }
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

capture_pgsql() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  local data=$work/pgdata
  mkdir -p "$data" "$work/pgsock"; chown postgres "$data" "$work/pgsock"
  runuser -u postgres -- "$bin/initdb" -D "$data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    >/dev/null
  printf 'host all bob 127.0.0.1/32 md5\nhost all all 127.0.0.1/32 scram-sha-256\n' >"$data/pg_hba.conf"
  printf 'local all all trust\n' >>"$data/pg_hba.conf"
  server runuser -u postgres -- "$bin/postgres" -D "$data" -c listen_addresses=127.0.0.1 -c port=5432 \
    -c unix_socket_directories="$work/pgsock" -c ssl=off
  # The roles, over the Unix socket (not captured): alice with a SCRAM secret, bob with an md5 one.
  in_ns runuser -u postgres -- "$bin/psql" -q -h "$work/pgsock" -d postgres -c "CREATE ROLE alice LOGIN PASSWORD 'wonderland'" \
    -c "SET password_encryption = 'md5'" -c "CREATE ROLE bob LOGIN PASSWORD 'builder'" \
    -c "CREATE DATABASE shop OWNER alice" >/dev/null
  start_capture pgsql 'tcp port 5432'
  # alice: sslmode=prefer asks for TLS first (refused: the server has ssl off), then SCRAM.
  PGPASSWORD=wonderland in_ns timeout 20 "$bin/psql" -X "host=127.0.0.1 port=5432 user=alice dbname=shop sslmode=prefer application_name=dissect" \
    -c "CREATE TABLE items (id serial PRIMARY KEY, name text, price numeric(8,2), added date)" \
    -c "INSERT INTO items (name, price, added) VALUES ('apple', 0.5, '2026-01-01'), ('pear', 0.75, NULL)" \
    -c "INSERT INTO items (name, price, added) VALUES ('fig', 2.10, '2026-02-03')" \
    -c "SELECT id, name, price, added FROM items ORDER BY id" \
    -c "SELECT count(*) AS n, sum(price) FROM items" \
    -c "SELECT * FROM missing_table" \
    -c "DROP TABLE IF EXISTS nothing_here" \
    -c "\\copy (SELECT name, price FROM items) TO STDOUT" >/dev/null 2>&1 || true
  # bob: md5, no TLS asked.
  PGPASSWORD=builder in_ns timeout 20 "$bin/psql" -X "host=127.0.0.1 port=5432 user=bob dbname=postgres sslmode=disable" \
    -c "SELECT current_user, 1/0 AS boom" -c "SHOW server_version_num" >/dev/null 2>&1 || true
  # A wrong password: the server's FATAL error response ends the session.
  PGPASSWORD=guess in_ns timeout 20 "$bin/psql" -X "host=127.0.0.1 port=5432 user=alice dbname=shop sslmode=disable" \
    -c "SELECT 1" >/dev/null 2>&1 || true
  # The extended query protocol: parse, bind, describe, execute, sync.
  printf '\\set id 2\nSELECT name, price FROM items WHERE id = :id;\nUPDATE items SET price = price + 1 WHERE id = :id;\n' \
    >"$work/bench.sql"
  PGPASSWORD=wonderland in_ns timeout 20 "$bin/pgbench" -n -M extended -t 1 -f "$work/bench.sql" \
    "host=127.0.0.1 port=5432 user=alice dbname=shop sslmode=disable" >/dev/null 2>&1 || true
  stop_capture pgsql
  stop_servers
}

capture_mysql() {
  local data=$work/mysql
  mkdir -p "$data" "$work/mysqlrun"; chown mysql "$data" "$work/mysqlrun"
  mariadb-install-db --user=mysql --datadir="$data" --auth-root-authentication-method=socket \
    --skip-test-db >/dev/null 2>&1
  server mariadbd --no-defaults --user=mysql --datadir="$data" --bind-address=127.0.0.1 --port=3306 \
    --socket="$work/mysqlrun/mysqld.sock" --pid-file="$work/mysqlrun/mysqld.pid" --skip-log-bin \
    --skip-name-resolve --ssl=0
  # The user, over the Unix socket (not captured).
  in_ns mariadb --no-defaults -S "$work/mysqlrun/mysqld.sock" -u root \
    -e "CREATE USER 'alice'@'127.0.0.1' IDENTIFIED BY 'wonderland'; CREATE DATABASE shop; GRANT ALL ON shop.* TO 'alice'@'127.0.0.1'"
  start_capture mysql 'tcp port 3306'
  # The client sends each statement of -e as a query of its own.
  in_ns timeout 20 mariadb --no-defaults -h 127.0.0.1 -P 3306 -u alice -pwonderland --skip-ssl shop -e "
    CREATE TABLE items (id INT AUTO_INCREMENT PRIMARY KEY, name TEXT, price DECIMAL(8,2), added DATE);
    INSERT INTO items (name, price, added) VALUES ('apple', 0.5, '2026-01-01'), ('pear', 0.75, NULL);
    SELECT id, name, price, added FROM items ORDER BY id;
    SELECT * FROM missing_table;" >/dev/null 2>&1 || true
  in_ns timeout 20 mariadb --no-defaults -h 127.0.0.1 -P 3306 -u alice -pwonderland --skip-ssl shop -e "
    SELECT COUNT(*) AS n, SUM(price) FROM items; UPDATE items SET price = price + 1 WHERE id = 2; USE shop;" \
    >/dev/null 2>&1 || true
  # A wrong password: the server's ERR packet ends the session.
  in_ns timeout 20 mariadb --no-defaults -h 127.0.0.1 -P 3306 -u alice -pguess --skip-ssl shop -e "SELECT 1" \
    >/dev/null 2>&1 || true
  stop_capture mysql
  stop_servers
}

capture_redis() {
  server redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --dir "$work" --protected-mode no
  start_capture redis 'tcp port 6379'
  # redis-cli on a command line of its own (a connection each), then Debian's python3-redis on one
  # connection (redis-cli reading commands from its input first asks for COMMAND DOCS, 100 KB).
  in_ns timeout 10 redis-cli -h 127.0.0.1 -p 6379 PING >/dev/null
  in_ns timeout 10 redis-cli -h 127.0.0.1 -p 6379 SET greeting "hello world" >/dev/null
  in_ns timeout 10 redis-cli -h 127.0.0.1 -p 6379 GET missing >/dev/null
  in_ns timeout 20 /usr/bin/python3 - <<'PY'
import redis
r = redis.Redis(host="127.0.0.1", port=6379, socket_timeout=5)
r.get("greeting"); r.incr("visits"); r.rpush("fruit", "apple", "pear", "fig"); r.lrange("fruit", 0, -1)
r.hset("item:1", mapping={"name": "apple", "price": "0.50"}); r.hgetall("item:1")
for command in (("INCR", "greeting"), ("NOSUCHCOMMAND", "x")):
    try:
        r.execute_command(*command)
    except redis.ResponseError:
        pass
r.delete("greeting", "fruit")
r.close()
PY
  stop_capture redis
  stop_servers
}

for name in "${wanted[@]}"; do
  case $name in
  pgsql) capture_pgsql ;;
  mysql) capture_mysql ;;
  redis) capture_redis ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
