#!/usr/bin/env bash
# Captures directory and authentication protocols from real servers and clients (Debian's
# packages), on the loopback of a network namespace of its own (nothing leaves it; every client
# is bounded in time), and records tshark's dissection of the same bytes as the oracle the tests
# compare with.
#
#   scripts/capture-dir.sh [ldap] [cldap] [kerberos] [ldap-sasl]
#                                  (as root; needs tcpdump, tshark, python3, and Debian's slapd,
#                                   ldap-utils, krb5-kdc, krb5-user and libsasl2-modules-gssapi-mit)
#
#   ldap.pcap      OpenLDAP 2.5 (slapd, its own slapd.conf with an mdb database for
#                  dc=example,dc=org) and ldap-utils on TCP 389: anonymous and simple binds,
#                  ldapadd of the base, an organizational unit and two people (addRequest,
#                  addResponse), ldapsearch with several filters (equality, presence, substrings,
#                  and/or/not, >=, an attribute list, size limit, the paged-results control, the
#                  root DSE with base scope:
#                  searchRequest, searchResEntry, searchResDone), ldapmodify (replace, add and
#                  delete of values: modifyRequest), ldapmodrdn (modDNRequest), ldapcompare
#                  (compareRequest), ldapdelete (delRequest), a search of a base that does not
#                  exist (noSuchObject), ldapwhoami (extendedRequest), a bind with a wrong
#                  password (invalidCredentials) and unbind.
#   cldap.pcap     Connectionless LDAP on UDP 389: Debian's slapd is built without it, so the
#                  request is the one a Windows client's domain-controller locator sends (a
#                  searchRequest for NetLogon with (&(DnsDomain=…)(NtVer=…))), written by
#                  python3 from its bytes, and the answer (searchResEntry, searchResDone in one
#                  datagram, as Active Directory sends them) by a python3 responder: both made
#                  here, not by a real directory.
#   kerberos.pcap  MIT Kerberos 1.20 (krb5kdc, a realm EXAMPLE.ORG of its own) and krb5-user on
#                  UDP 88 and TCP 88: kinit with the right password (AS-REQ, the KDC's
#                  PREAUTH_REQUIRED KRB-ERROR with its e-data, AS-REQ with PA-ENC-TIMESTAMP,
#                  AS-REP), klist (nothing on the wire), kvno for a service ticket (TGS-REQ with
#                  its AP-REQ, TGS-REP), kinit with a wrong password (PREAUTH_FAILED), a
#                  principal that does not exist (C_PRINCIPAL_UNKNOWN), and kinit and kvno over
#                  TCP (udp_preference_limit = 1: the 4-byte record mark before each message).
#   ldap-sasl.pcap slapd with a keytab for ldap/localhost and ldapwhoami/ldapsearch -Y GSSAPI with
#                  alice's ticket: the TGS-REQ and TGS-REP for the LDAP service (UDP 88), then the
#                  SASL bind (saslBindInProgress rounds: the GSS-API token with the AP-REQ, the
#                  AP-REP, the security-layer negotiation wrapped by GSS-API), and a search in
#                  clear after it (-O maxssf=0: no security layer); then ldapwhoami -Y GSS-SPNEGO, as
#                  Active Directory's clients bind: SPNEGO NegTokenInit and NegTokenResp around the
#                  same Kerberos tokens; then a search with a security layer (the default, as Active
#                  Directory signs and seals): SASL buffers holding sealed wrap tokens.
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv, read by tshark with TCP reassembly off (segment by segment, as dissect
# reads them). The traffic itself (ports, sequence numbers, nonces, keys, times) differs from run
# to run; running again rewrites the files.
set -euo pipefail
cd "$(dirname "$0")/.."
ns=dsx-dir
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(ldap cldap kerberos ldap-sasl)

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
server() { ip netns exec "$ns" "$@" >>"$work/server.log" 2>&1 & servers+=($!); sleep 3; }
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

capture_ldap() {
  local db=$work/ldapdb
  mkdir -p "$db"
  cat >"$work/slapd.conf" <<EOF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
pidfile $work/slapd.pid
modulepath /usr/lib/ldap
moduleload back_mdb
sizelimit 50
database mdb
maxsize 10485760
suffix "dc=example,dc=org"
rootdn "cn=admin,dc=example,dc=org"
rootpw secret
directory $db
access to * by * write
EOF
  server slapd -d 0 -f "$work/slapd.conf" -h "ldap://127.0.0.1:389/"
  cat >"$work/base.ldif" <<'EOF'
dn: dc=example,dc=org
objectClass: dcObject
objectClass: organization
o: Example
dc: example

dn: ou=people,dc=example,dc=org
objectClass: organizationalUnit
ou: people

dn: uid=alice,ou=people,dc=example,dc=org
objectClass: inetOrgPerson
uid: alice
cn: Alice Liddell
sn: Liddell
mail: alice@example.org
telephoneNumber: +1 555 0100
userPassword: wonderland

dn: uid=bob,ou=people,dc=example,dc=org
objectClass: inetOrgPerson
uid: bob
cn: Bob Builder
sn: Builder
mail: bob@example.org
EOF
  cat >"$work/modify.ldif" <<'EOF'
dn: uid=alice,ou=people,dc=example,dc=org
changetype: modify
replace: mail
mail: alice@wonderland.example.org
-
add: description
description: follows white rabbits
-
delete: telephoneNumber
EOF
  local admin=(-x -H ldap://127.0.0.1:389 -D cn=admin,dc=example,dc=org -w secret)
  start_capture ldap 'tcp port 389'
  in_ns timeout 10 ldapadd "${admin[@]}" -f "$work/base.ldif" >/dev/null
  in_ns timeout 10 ldapsearch -x -H ldap://127.0.0.1:389 -s base -b '' '(objectClass=*)' namingContexts \
    supportedLDAPVersion >/dev/null
  in_ns timeout 10 ldapsearch -x -H ldap://127.0.0.1:389 -b dc=example,dc=org '(uid=alice)' >/dev/null
  in_ns timeout 10 ldapsearch "${admin[@]}" -b ou=people,dc=example,dc=org -s one -z 5 \
    '(&(objectClass=inetOrgPerson)(|(cn=Ali*)(sn=*uild*)(mail=*@example.org))(!(uid=carol))(mail=*))' cn mail >/dev/null
  in_ns timeout 10 ldapsearch -x -H ldap://127.0.0.1:389 -b dc=example,dc=org -A -E pr=10/noprompt '(uid>=b)' uid >/dev/null
  in_ns timeout 10 ldapmodify "${admin[@]}" -f "$work/modify.ldif" >/dev/null
  in_ns timeout 10 ldapcompare "${admin[@]}" uid=bob,ou=people,dc=example,dc=org sn:Builder >/dev/null || true
  in_ns timeout 10 ldapmodrdn "${admin[@]}" -r uid=bob,ou=people,dc=example,dc=org uid=robert >/dev/null
  in_ns timeout 10 ldapdelete "${admin[@]}" uid=robert,ou=people,dc=example,dc=org >/dev/null
  in_ns timeout 10 ldapsearch -x -H ldap://127.0.0.1:389 -b ou=nowhere,dc=example,dc=org '(cn=*)' \
    >/dev/null 2>&1 || true
  in_ns timeout 10 ldapwhoami -x -H ldap://127.0.0.1:389 -D uid=alice,ou=people,dc=example,dc=org \
    -w wonderland >/dev/null
  # A wrong password: invalidCredentials (49).
  in_ns timeout 10 ldapwhoami -x -H ldap://127.0.0.1:389 -D uid=alice,ou=people,dc=example,dc=org \
    -w guess >/dev/null 2>&1 || true
  stop_capture ldap
  stop_servers
}

capture_cldap() {
  # The responder answers each search with an entry holding a NetLogon value and a done.
  cat >"$work/cldap.py" <<'PY'
import socket, sys

def tlv(tag, body):
    n = len(body)
    length = bytes([n]) if n < 0x80 else bytes([0x81, n]) if n < 0x100 else bytes([0x82, n >> 8, n & 0xFF])
    return bytes([tag]) + length + body

def integer(n):
    return tlv(0x02, n.to_bytes(max(1, (n.bit_length() + 8) // 8), "big"))

def octets(s):
    return tlv(0x04, s if isinstance(s, bytes) else s.encode())

if sys.argv[1] == "server":
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 389))
    sock.settimeout(10)
    for _ in range(2):
        data, peer = sock.recvfrom(2048)
        message_id = data[4]          # a one-byte messageID after 30 len 02 01
        # LOGON_SAM_LOGON_RESPONSE_EX (MS-ADTS 6.3.1.9): opcode 23, flags, domain GUID, the names
        # (DNS-style labels), NtVersion 5, the LM tokens.
        def name(*labels):
            return b"".join(bytes([len(l)]) + l.encode() for l in labels) + b"\x00"
        netlogon = (bytes.fromhex("17000000fd03000001020304050607080910111213141516")
                    + name("example", "org") + name("example", "org") + name("dc1", "example", "org")
                    + name("EXAMPLE") + name("DC1") + name() + name("Default-First-Site-Name")
                    + name("Default-First-Site-Name") + bytes.fromhex("05000000ffffffff"))
        attributes = tlv(0x30, tlv(0x30, octets("netlogon") + tlv(0x31, octets(netlogon))))
        entry = tlv(0x30, integer(message_id) + tlv(0x64, octets("") + attributes))
        done = tlv(0x30, integer(message_id) + tlv(0x65, tlv(0x0A, b"\x00") + octets("") + octets("")))
        sock.sendto(entry + done, peer)
else:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.settimeout(5)
    for message_id, domain in ((1, "example.org"), (2, "corp.example.org")):
        # (&(DnsDomain=example.org)(NtVer=\06\00\00\00)), attributes: NetLogon; a CLDAP message has
        # no LDAPDN (RFC 1798's user field is gone in RFC 3352's use: the Windows locator sends none).
        filter_ = tlv(0xA0, tlv(0xA3, octets("DnsDomain") + octets(domain))
                      + tlv(0xA3, octets("NtVer") + octets(b"\x06\x00\x00\x00")))
        search = tlv(0x63, octets("") + tlv(0x0A, b"\x00") + tlv(0x0A, b"\x00") + integer(0) + integer(0)
                     + tlv(0x01, b"\x00") + filter_ + tlv(0x30, octets("NetLogon")))
        sock.sendto(tlv(0x30, integer(message_id) + search), ("127.0.0.1", 389))
        try:
            sock.recvfrom(2048)
        except socket.timeout:
            pass
PY
  server python3 "$work/cldap.py" server
  start_capture cldap 'udp port 389'
  in_ns timeout 10 python3 "$work/cldap.py" client
  stop_capture cldap
  stop_servers
}

# A KDC for the realm EXAMPLE.ORG in the namespace: alice (password wonderland, preauthentication
# required) and three services; ldap/localhost's key also in $work/ldap.keytab for slapd.
start_kdc() {
  local kdc=$work/krb5kdc
  mkdir -p "$kdc"
  cat >"$work/krb5.conf" <<EOF2
[libdefaults]
  default_realm = EXAMPLE.ORG
  dns_lookup_kdc = false
  dns_lookup_realm = false
  dns_canonicalize_hostname = false
  rdns = false
  udp_preference_limit = 1465
[realms]
  EXAMPLE.ORG = {
    kdc = 127.0.0.1:88
  }
EOF2
  cat >"$work/kdc.conf" <<EOF2
[kdcdefaults]
  kdc_ports = 88
  kdc_tcp_ports = 88
[realms]
  EXAMPLE.ORG = {
    database_name = $kdc/principal
    key_stash_file = $kdc/stash
    acl_file = $kdc/kadm5.acl
    supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
  }
[logging]
  kdc = FILE:$kdc/kdc.log
EOF2
  export KRB5_CONFIG=$work/krb5.conf KRB5_KDC_PROFILE=$work/kdc.conf KRB5CCNAME=FILE:$work/ccache
  rm -rf "$kdc/principal"* "$kdc/stash" "$work/ldap.keytab" "$work/ccache"
  kdb5_util create -s -r EXAMPLE.ORG -P master-password >/dev/null 2>&1
  kadmin.local -q "addprinc +requires_preauth -pw wonderland alice" >/dev/null 2>&1
  kadmin.local -q "addprinc -randkey host/server.example.org" >/dev/null 2>&1
  kadmin.local -q "addprinc -randkey ldap/server.example.org" >/dev/null 2>&1
  kadmin.local -q "addprinc -randkey ldap/localhost" >/dev/null 2>&1
  kadmin.local -q "ktadd -k $work/ldap.keytab ldap/localhost" >/dev/null 2>&1
  server krb5kdc -n
}
stop_kdc() { unset KRB5_CONFIG KRB5_KDC_PROFILE KRB5CCNAME; }

capture_kerberos() {
  start_kdc
  start_capture kerberos 'port 88'
  # Over UDP: the right password (preauthentication asked for, then given), klist, a service
  # ticket, a wrong password, a principal that does not exist.
  echo wonderland | in_ns timeout 10 kinit alice >/dev/null
  in_ns klist >/dev/null
  in_ns timeout 10 kvno host/server.example.org >/dev/null
  echo guess | in_ns timeout 10 kinit alice >/dev/null 2>&1 || true
  echo guess | in_ns timeout 10 kinit nobody >/dev/null 2>&1 || true
  # Over TCP: kinit and kvno again.
  sed -i 's/udp_preference_limit = .*/udp_preference_limit = 1/' "$work/krb5.conf"
  echo wonderland | in_ns timeout 10 kinit alice >/dev/null
  in_ns timeout 10 kvno ldap/server.example.org >/dev/null
  stop_capture kerberos
  stop_servers
  stop_kdc
}

# A SASL GSSAPI bind to slapd with a Kerberos ticket: the TGS exchange for ldap/localhost, then the
# bind whose credentials are the GSS-API token holding the AP-REQ, the server's AP-REP and the
# security-layer negotiation; with no security layer (maxssf=0) the search after it is in clear.
capture_ldap_sasl() {
  start_kdc
  local db=$work/ldapdb-sasl
  mkdir -p "$db"
  cat >"$work/slapd-sasl.conf" <<EOF2
include /etc/ldap/schema/core.schema
pidfile $work/slapd-sasl.pid
modulepath /usr/lib/ldap
moduleload back_mdb
sasl-realm EXAMPLE.ORG
sasl-host localhost
database mdb
maxsize 10485760
suffix "dc=example,dc=org"
rootdn "cn=admin,dc=example,dc=org"
rootpw secret
directory $db
access to * by * read
EOF2
  KRB5_KTNAME=$work/ldap.keytab server slapd -d 0 -f "$work/slapd-sasl.conf" -h "ldap://127.0.0.1:389/"
  echo wonderland | in_ns timeout 10 kinit alice >/dev/null
  start_capture ldap-sasl 'port 389 or port 88'
  LDAPSASL_NOCANON=on in_ns timeout 10 ldapwhoami -Q -Y GSSAPI -O maxssf=0 -H ldap://localhost:389 >/dev/null
  LDAPSASL_NOCANON=on in_ns timeout 10 ldapsearch -Q -Y GSSAPI -O maxssf=0 -H ldap://localhost:389 -s base \
    -b '' '(objectClass=*)' supportedSASLMechanisms >/dev/null
  # GSS-SPNEGO, as Active Directory's clients bind: the same Kerberos tokens inside SPNEGO.
  LDAPSASL_NOCANON=on in_ns timeout 10 ldapwhoami -Q -Y GSS-SPNEGO -O maxssf=0 -H ldap://localhost:389 \
    >/dev/null 2>&1 || true
  # A security layer (the default): after the bind every message is a SASL buffer, its length and
  # a sealed Kerberos wrap token.
  LDAPSASL_NOCANON=on in_ns timeout 10 ldapsearch -Q -Y GSSAPI -H ldap://localhost:389 -s base -b '' \
    '(objectClass=*)' namingContexts >/dev/null
  stop_capture ldap-sasl
  stop_servers
  stop_kdc
}

for name in "${wanted[@]}"; do
  case $name in
  ldap) capture_ldap ;;
  cldap) capture_cldap ;;
  kerberos) capture_kerberos ;;
  ldap-sasl) capture_ldap_sasl ;;
  *) echo "unknown capture: $name" >&2; exit 2 ;;
  esac
done
