#!/usr/bin/env bash
# Text protocols from real clients and servers, captured on the loopback of a network namespace
# of its own (nothing leaves it; every client is bounded in time), one capture per protocol:
#
#   ftp.pcap     vsftpd (anonymous login, uploads allowed) with curl (PASV then RETR; EPSV then
#                STOR) and tnftp, the Debian `ftp` client, in active mode (EPRT, then with
#                `epsv4 off` PORT: SYST, FEAT, LIST, RETR, STOR). vsftpd opens active data
#                connections from port 20, so those are ftp-data on TCP port 20.
#   smtp.pcap    swaks to aiosmtpd (PyPI) on TCP 25: EHLO, AUTH LOGIN, MAIL, RCPT, DATA (the
#                message, IMF), QUIT in the clear.
#   smtp-starttls.pcap  the same with STARTTLS, and the TLS 1.3 that follows it.
#   pop.pcap     curl pop3:// (CAPA, AUTH PLAIN, LIST, RETR, QUIT) and Python's poplib (USER, PASS,
#                STAT, UIDL, TOP) to dovecot on TCP 110, one message in the mailbox.
#   imap.pcap    curl imap:// (CAPABILITY, AUTHENTICATE, SELECT, UID FETCH, LIST, LOGOUT) and Python's
#                imaplib (LOGIN, EXAMINE, SEARCH, FETCH, NOOP, LOGOUT) to dovecot on TCP 143.
#   telnet.pcap  the inetutils telnet client, driven by expect, to inetutils telnetd on TCP 23:
#                the option negotiation (terminal type, window size, speed, environment, ...),
#                the login prompt and a failed login.
#
# The frames are copied byte for byte into Corpus/captures/<name>.pcap with the fixed timestamps
# of scripts/corpus/common.py, and tshark's dissection of them, read segment by segment (TCP
# reassembly off, as dissect reads them), is written beside as the oracle the tests compare with:
# Corpus/oracle/<name>.json and <name>.checksums.tsv (write_capture). The traffic itself (ports,
# dates, TLS keys) differs from run to run.
#
#   irc.pcap     two Python socket clients through ngircd on TCP 6667: registration (NICK,
#                USER, the numeric replies and MOTD), JOIN, TOPIC, PRIVMSG to the channel and a
#                CTCP VERSION to a user, PING and PONG, PART, QUIT.
#
#   rtsp.pcap    ffmpeg pushing a one-second test video to ffmpeg listening as an RTSP server
#                on TCP 554: OPTIONS, ANNOUNCE (with its SDP), SETUP, RECORD, TEARDOWN; once with
#                RTP over UDP (not captured) and once interleaved in the RTSP connection ($ frames).
#
#   scripts/capture-text.sh [ftp] [smtp] [pop] [imap] [telnet] [irc] [rtsp]        (as root)
#
# Needs: tcpdump, tshark, vsftpd, tnftp (package ftp), curl, swaks, dovecot-pop3d,
# dovecot-imapd, inetutils-telnetd, inetutils-telnet, expect, ngircd, ffmpeg, openssl, python3 with
# aiosmtpd (apt-get install -y vsftpd ftp swaks dovecot-pop3d dovecot-imapd telnetd telnet expect ngircd
# ffmpeg;
# pip install aiosmtpd).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ns=dsx-text
work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 0.5
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ip netns del "$ns" 2>/dev/null || true
ip netns add "$ns"
ip netns exec "$ns" ip link set lo up
in_ns() { ip netns exec "$ns" "$@"; }

# capture NAME FILTER FUNCTION: runs FUNCTION while tcpdump listens, then writes the capture.
capture() {
  local name=$1 filter=$2 traffic=$3
  in_ns timeout 120 tcpdump -U -q -i lo -w "$work/$name.raw.pcap" "$filter" 2>/dev/null &
  local dump=$!
  sleep 1
  "$traffic"
  sleep 1
  kill "$dump"; wait "$dump" 2>/dev/null || true
  (cd scripts/corpus && python3 - "$name" "$work/$name.raw.pcap" <<'EOF'
import struct, sys
from common import write_capture
name, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
assert struct.unpack("<I", data[:4])[0] == 0xA1B2C3D4 and struct.unpack("<I", data[20:24])[0] == 1
offset, frames = 24, []
while offset + 16 <= len(data):
    captured = struct.unpack("<IIII", data[offset:offset + 16])[2]
    frames.append(data[offset + 16:offset + 16 + captured])
    offset += 16 + captured
write_capture(name, 1, frames, ("-o", "tcp.desegment_tcp_streams:FALSE"))
EOF
  )
}

# ---- FTP -------------------------------------------------------------------------------------
ftp_traffic() {
  in_ns timeout 10 curl -s --disable-epsv -o /dev/null ftp://127.0.0.1/pub/readme.txt || true
  in_ns timeout 10 curl -s -T "$work/ftp/note.txt" ftp://127.0.0.1/upload/ || true
  printf 'user anonymous guest@example.test\nls pub\nget pub/readme.txt %s\nput %s upload/eprt.txt\nquit\n' \
    "$work/ftp/got1.txt" "$work/ftp/note.txt" | in_ns timeout 10 ftp -n -A 127.0.0.1 >/dev/null || true
  printf 'user anonymous guest@example.test\nepsv4 off\nls pub\nget pub/readme.txt %s\nquit\n' \
    "$work/ftp/got2.txt" | in_ns timeout 10 ftp -n -A 127.0.0.1 >/dev/null || true
}
ftp() {
  mkdir -p "$work/ftp/root/pub" "$work/ftp/root/upload" /var/run/vsftpd/empty
  chmod 755 "$work/ftp/root"
  chown ftp:ftp "$work/ftp/root/upload"
  echo "hello from the corpus" > "$work/ftp/root/pub/readme.txt"
  echo "uploaded" > "$work/ftp/note.txt"
  cat > "$work/ftp/vsftpd.conf" <<EOF
listen=YES
listen_address=127.0.0.1
background=NO
anonymous_enable=YES
local_enable=NO
write_enable=YES
anon_upload_enable=YES
anon_root=$work/ftp/root
connect_from_port_20=YES
seccomp_sandbox=NO
secure_chroot_dir=/var/run/vsftpd/empty
ftpd_banner=Welcome to the dissect corpus FTP service.
xferlog_enable=NO
EOF
  in_ns timeout 60 vsftpd "$work/ftp/vsftpd.conf" >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 1
  capture ftp tcp ftp_traffic
  kill "$server" 2>/dev/null || true
}

# ---- SMTP ------------------------------------------------------------------------------------
swaks=(swaks --server 127.0.0.1:25 --helo client.example.test --from alice@example.test
       --to bob@example.test --timeout 10 --header "Subject: corpus test" --body "Hello Bob.")
smtp_traffic() {
  in_ns timeout 20 "${swaks[@]}" --auth LOGIN --auth-user alice --auth-password secret >/dev/null 2>&1 || true
}
smtp_starttls_traffic() {
  in_ns timeout 20 "${swaks[@]}" --tls >/dev/null 2>&1 || true
}
smtp() {
  mkdir -p "$work/smtp"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/smtp/key.pem" \
    -out "$work/smtp/cert.pem" -days 3650 -subj "/CN=mail.example.test" >/dev/null 2>&1
  cat > "$work/smtp/server.py" <<EOF
import asyncio, ssl, time
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

class Handler:
    async def handle_DATA(self, server, session, envelope):
        return "250 Message accepted for delivery"

def authenticator(server, session, envelope, mechanism, auth_data):
    return AuthResult(success=auth_data.login == b"alice" and auth_data.password == b"secret")

context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
context.load_cert_chain("$work/smtp/cert.pem", "$work/smtp/key.pem")
controller = Controller(Handler(), hostname="127.0.0.1", port=25, server_hostname="mail.example.test",
                        ident="dissect corpus ESMTP", tls_context=context, authenticator=authenticator,
                        auth_require_tls=False)
controller.start()
time.sleep(40)
controller.stop()
EOF
  in_ns timeout 45 python3 "$work/smtp/server.py" >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 2
  capture smtp 'tcp port 25' smtp_traffic
  capture smtp-starttls 'tcp port 25' smtp_starttls_traffic
  kill "$server" 2>/dev/null || true
}

# ---- POP3 and IMAP (dovecot) -----------------------------------------------------------------
dovecot_start() {
  mkdir -p "$work/mail/alice/Maildir/new" "$work/mail/alice/Maildir/cur" "$work/mail/alice/Maildir/tmp" "$work/dovecot"
  printf 'From: bob@example.test\r\nTo: alice@example.test\r\nSubject: corpus message\r\nDate: Thu, 1 Jan 2026 00:00:00 +0000\r\n\r\nHello Alice.\r\n' \
    > "$work/mail/alice/Maildir/new/1767225600.M1P1.corpus"
  chown -R nobody:nogroup "$work/mail"
  echo "alice:{PLAIN}secret::::::" > "$work/dovecot/users"
  cat > "$work/dovecot/dovecot.conf" <<EOF
protocols = pop3 imap
listen = 127.0.0.1
base_dir = $work/dovecot/run
state_dir = $work/dovecot/state
log_path = /dev/null
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:$work/mail/%u/Maildir
passdb {
  driver = passwd-file
  args = $work/dovecot/users
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=$work/mail/%u
}
pop3_uidl_format = %08Xu%08Xv
EOF
  in_ns timeout 60 dovecot -F -c "$work/dovecot/dovecot.conf" >/dev/null 2>&1 &
  dovecot_pid=$!
  pids+=("$dovecot_pid")
  sleep 2
}
pop_traffic() {
  in_ns timeout 10 curl -s -o /dev/null -u alice:secret pop3://127.0.0.1/ || true
  in_ns timeout 10 curl -s -o /dev/null -u alice:secret pop3://127.0.0.1/1 || true
  # Python's poplib: USER and PASS, STAT, UIDL, TOP.
  in_ns timeout 10 python3 -c 'import poplib; p = poplib.POP3("127.0.0.1", 110, timeout=5); p.user("alice"); p.pass_("secret"); p.stat(); p.uidl(); p.top(1, 0); p.quit()' || true
}
imap_traffic() {
  in_ns timeout 10 curl -s -o /dev/null -u alice:secret 'imap://127.0.0.1/INBOX;UID=1' || true
  in_ns timeout 10 curl -s -o /dev/null -u alice:secret imap://127.0.0.1/ || true
  # Python's imaplib: LOGIN, EXAMINE, SEARCH, FETCH of flags and a header, NOOP, LOGOUT.
  in_ns timeout 10 python3 -c 'import imaplib; m = imaplib.IMAP4("127.0.0.1", 143, timeout=5); m.login("alice", "secret"); m.select("INBOX", readonly=True); m.search(None, "ALL"); m.fetch("1", "(FLAGS BODY.PEEK[HEADER.FIELDS (SUBJECT)])"); m.noop(); m.logout()' || true
}
pop() { dovecot_start; capture pop 'tcp port 110' pop_traffic; kill "$dovecot_pid" 2>/dev/null || true; sleep 1; }
imap() { dovecot_start; capture imap 'tcp port 143' imap_traffic; kill "$dovecot_pid" 2>/dev/null || true; sleep 1; }

# ---- Telnet ----------------------------------------------------------------------------------
telnet_traffic() {
  in_ns timeout 20 expect -c '
    set timeout 5
    spawn telnet 127.0.0.1 23
    expect "login:"
    send "guest\r"
    expect "Password:"
    send "wrong\r"
    expect "incorrect"
    sleep 1
    send "\035"
    expect "telnet>"
    send "quit\r"
    expect eof' >/dev/null 2>&1 || true
}
telnet() {
  # inetd's part: accept one connection on port 23 and run telnetd on it.
  cat > "$work/telnet-listen.py" <<'EOF'
import os, socket, subprocess
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 23))
listener.listen(1)
listener.settimeout(30)
connection, _ = listener.accept()
subprocess.run(["/usr/sbin/telnetd", "-h"], stdin=connection, stdout=connection, stderr=subprocess.DEVNULL, timeout=30)
EOF
  in_ns timeout 40 python3 "$work/telnet-listen.py" >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 1
  capture telnet 'tcp port 23' telnet_traffic
  kill "$server" 2>/dev/null || true
}

# ---- IRC -------------------------------------------------------------------------------------
irc_traffic() {
  in_ns timeout 20 python3 - <<'PY' || true
import socket
def client(nick):
    s = socket.create_connection(("127.0.0.1", 6667), timeout=5)
    s.sendall(f"NICK {nick}\r\nUSER {nick} 0 * :Corpus {nick}\r\n".encode())
    return s
def drain(s, wait=1.0):
    s.settimeout(wait)
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return
            for line in chunk.split(b"\r\n"):
                if line.startswith(b"PING "):
                    s.sendall(b"PONG " + line[5:] + b"\r\n")
    except socket.timeout:
        pass
alice, bob = client("alice"), client("bob")
drain(alice); drain(bob)
alice.sendall(b"JOIN #corpus\r\n"); drain(alice)
bob.sendall(b"JOIN #corpus\r\n"); drain(bob); drain(alice, 0.5)
alice.sendall(b"TOPIC #corpus :captured for dissect\r\n"); drain(alice); drain(bob, 0.5)
alice.sendall(b"PRIVMSG #corpus :hello bob\r\n"); drain(bob)
bob.sendall(b"PRIVMSG alice :\x01VERSION\x01\r\n"); drain(alice)
bob.sendall(b"PING :corpus\r\n"); drain(bob)
alice.sendall(b"PART #corpus :bye\r\n"); drain(alice); drain(bob, 0.5)
alice.sendall(b"QUIT :done\r\n"); drain(alice)
bob.sendall(b"QUIT\r\n"); drain(bob)
PY
}
irc() {
  mkdir -p "$work/irc"
  cat > "$work/irc/ngircd.conf" <<EOF
[Global]
Name = irc.example.test
Info = dissect corpus IRC server
Listen = 127.0.0.1
Ports = 6667
MotdPhrase = Welcome to the corpus.
PidFile = $work/irc/ngircd.pid
[Options]
PAM = no
Ident = no
DNS = no
[Limits]
PingTimeout = 120
EOF
  in_ns timeout 60 ngircd -n -f "$work/irc/ngircd.conf" >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 1
  capture irc 'tcp port 6667' irc_traffic
  kill "$server" 2>/dev/null || true
}

# ---- RTSP ------------------------------------------------------------------------------------
rtsp_session() { # transport
  in_ns timeout 20 ffmpeg -nostdin -loglevel error -rtsp_flags listen -timeout 15 -i rtsp://127.0.0.1:554/live \
    -f null - >/dev/null 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 1
  in_ns timeout 15 ffmpeg -nostdin -loglevel error -re -f lavfi -i testsrc=size=64x48:rate=5 -t 1 -c:v mpeg4 \
    -rtsp_transport "$1" -f rtsp rtsp://127.0.0.1:554/live >/dev/null 2>&1 || true
  sleep 1
  kill "$server" 2>/dev/null || true
}
rtsp_traffic() { rtsp_session udp; rtsp_session tcp; }
rtsp() { capture rtsp 'tcp port 554' rtsp_traffic; }

main() {
  local wanted=("$@")
  [ ${#wanted[@]} -gt 0 ] || wanted=(ftp smtp pop imap telnet irc rtsp)
  for name in "${wanted[@]}"; do "$name"; done
}
main "$@"
