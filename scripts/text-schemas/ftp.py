import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chains import SCHEMAS, first_digit, token_len, spaces

def D(i, bound="remaining()"):
    return f"{bound} > {i} && peek({i}) >= 0x30 && peek({i}) <= 0x39"
def NL(p, bound="remaining()", maxd=3):
    # digits at p, at most maxd
    s = f"{maxd}"
    for k in reversed(range(1, maxd)):
        s = f"!({D(f'{p} + {k}', bound)}) ? {k} : {s}"
    return f"!({D(p, bound)}) ? 0 : {s}"
def V(p, l):
    return (f"{l} == 1 ? peek({p}) - 48 : {l} == 2 ? (peek({p}) - 48) * 10 + peek({p} + 1) - 48"
            f" : {l} == 3 ? (peek({p}) - 48) * 100 + (peek({p} + 1) - 48) * 10 + peek({p} + 2) - 48 : 0")
def SEP(i, ch):
    return f"remaining() > {i} && peek({i}) == {ch}"

out = []
w = out.append
w("""// FTP (RFC 959, with RFC 2428's EPRT and EPSV) on TCP port 21, and its data connection,
// ftp-data, on TCP port 20.
//
//   dissect -r Corpus/captures/ftp.pcap --no-tcp-reassembly
//
// A segment is read line by line (each ended by CRLF). A segment to port 21 holds requests: a
// command (the token up to the first space), the spaces after it and an argument; one from
// port 21 holds replies: a three-digit code, a space or hyphen (a hyphen starts a multi-line
// reply) and text, or, inside a multi-line reply, text alone. Filter names are Wireshark's:
// ftp.request.command, ftp.request.arg, ftp.response.code, ftp.response.arg, and the addresses
// and ports the commands and replies announce for the data connection: ftp.active.cip and
// ftp.active.port (PORT), ftp.eprt.af, ftp.eprt.ip and ftp.eprt.port (EPRT), ftp.passive.ip and
// ftp.passive.port (227, the reply to PASV), ftp.epsv.port (229, the reply to EPSV).
//
// Each line is first read whole as text (ftp.request.line, ftp.response.line: tshark shows it as
// the line's tree item, with no filter name), then again as its parts, so that each part covers
// its own bytes, as tshark's do (a string up to a terminator would hold the CRLF).
//
// Limits:
// - Direction: a segment to port 21 is a request and one from it a reply, as tshark decides; on
//   another port (decode-as) the lower port is taken for the server's.
// - ftp-data: tshark follows the data connection that PORT, EPRT, PASV or EPSV announce, on
//   whatever port it is, and names its bytes ftp-data. The schema language has no state across
//   frames or connections, so only a data connection from port 20 (the active mode of vsftpd
//   and most servers) is ftp-data here; a passive one, to a port the server picked, stays TCP
//   payload. tshark's ftp-data.command, setup-frame and current-working-directory, and
//   ftp.current-working-directory, are state from earlier frames too.
// - Every line of a segment is decoded (tshark decodes the first and shows the others as
//   text); a command token longer than 24 bytes is read as the command with no argument; the
//   numbers of PORT and PASV are decimal of one to three digits, as RFC 959 writes them; an EPRT
//   address is decoded for address family 1 (IPv4) only; the PASV and EPSV numbers are looked for
//   among the first 48 bytes of the reply's text (tshark looks through all of it).

endian big

register tcp.port 21 => FTP
register tcp.port 20 => FTPData

// A line of either direction; without CRLF before the segment's end (a line the segment cuts)
// no heuristic claims it and it stays bytes.
table ftp.line: u8
register ftp.line { heuristic FTPRequestLine  heuristic FTPResponseLine }
typealias FTPLine = dispatch ftp.line(0)

@protocol("ftp") @label("FTP") @summary("{?Request: {line[0].request_line}}{?{line[0].code?}Response: {line[0].response_line}}{?{line[0].code!}Response:{line[0].response_line}}")
struct FTP {
  let request = parent.dst_port == 21 || parent.src_port != 21 && parent.dst_port < parent.src_port @name("ftp.request")
  let response = !request @name("ftp.response")
  line: FTPLine[..] @name("")
}
""")
# request line
w("""// A command: the token up to the first space, the spaces after it, and the argument.
@offset_base
@requires(parent.request)
struct FTPRequestLine {
  request_line: string[until "\\r\\n"] @at(0) @encoding("latin1") @assert(len(request_line) >= 0) @name("ftp.request.line")
  hidden let n = len(request_line)""")
w(f"  hidden let t = {token_len(24, 'n')}")
w(f"  hidden let k = {spaces(8, 't', 'n')}")
w("""  command: string[t] if t > 0 @encoding("latin1") @name("ftp.request.command")
  sp: string[k] if k > 0 @name("ftp.sp")
  hidden let argn = n - t - k
  arg: string[argn] if argn > 0 @encoding("latin1") @name("ftp.request.arg")
  crlf: string[2] @name("ftp.crlf")
  hidden let port = t == 4 && argn > 0 && (command == "PORT" || command == "port")
  hidden let eprt = t == 4 && argn > 0 && (command == "EPRT" || command == "eprt")
  // PORT h1,h2,h3,h4,p1,p2: the client's address and port for an active data connection.
  active: FTPActiveHostPort if port @at(t + k) @name("")
  // EPRT |af|address|port|
  extended: FTPExtendedAddress if eprt @at(t + k) @name("")
}
""")
w(f"""// A reply line: a code, a space or hyphen and text; or, inside a multi-line reply, text alone.
@offset_base
@requires(!parent.request)
struct FTPResponseLine {{
  response_line: string[until "\\r\\n"] @at(0) @encoding("latin1") @assert(len(response_line) >= 0) @name("ftp.response.line")
  hidden let n = len(response_line)
  hidden let coded = n >= 3 && {D(0)} && {D(1)} && {D(2)}
  code: string[3] if coded @encoding("ascii") @name("ftp.response.code")
  sp: string[1] if coded && n >= 4 @name("ftp.sp")
  hidden let a = coded ? min(n, 4) : 0
  hidden let argn = n - a
  hidden let pasv = coded && argn > 0 && code == "227"
  hidden let epsv = coded && argn > 0 && code == "229"
  // Where the numbers start: the first digit of the text.
  hidden let digit = pasv || epsv ? {first_digit(48, 'argn')} : -1
  hidden let epsv_digits = epsv && digit >= 0 ? {NL('digit', 'argn', 5)} : 0
  arg: string[argn] if argn > 0 @encoding("latin1") @name("ftp.response.arg")
  crlf: string[2] @name("ftp.crlf")
  // 227 Entering Passive Mode (h1,h2,h3,h4,p1,p2): the server's address and port.
  passive: FTPPassiveHostPort if pasv && digit >= 0 @at(a + digit) @name("")
  // 229 Entering Extended Passive Mode (|||port|)
  epsv_port: string[epsv_digits] if epsv_digits > 0 @at(a + digit) @encoding("ascii") @name("ftp.epsv.port")
}}
""")
# host port
lines = ["  hidden let l1 = " + NL("0")]
pos = {1: "0"}
for i in range(2, 7):
    lines.append(f"  hidden let p{i} = p{i-1} + l{i-1} + 1" if i > 2 else "  hidden let p2 = l1 + 1")
    lines.append(f"  hidden let l{i} = " + NL(f"p{i}"))
ok = " && ".join([f"l1 > 0 && {SEP('l1', '0x2C')}"] + [f"l{i} > 0 && {SEP(f'p{i} + l{i}', '0x2C')}" for i in range(2, 6)] + ["l6 > 0"])
lines.append(f"  hidden let ok = {ok}")
lines.append("  hidden let v1 = ok ? " + V("0", "l1") + " : 0")
for i in range(2, 7):
    lines.append(f"  hidden let v{i} = ok ? " + V(f"p{i}", f"l{i}") + " : 0")
for kind, ipname, portname, what in (("Active", "ftp.active.cip", "ftp.active.port", "the client's, for PORT"),
                                     ("Passive", "ftp.passive.ip", "ftp.passive.port", "the server's, in the reply to PASV")):
    w(f"""// Six decimal numbers separated by commas (RFC 959's host-port): an IPv4 address and a port
// ({what}) as its high and low bytes, shown as tshark shows them (127.0.0.1 and 34800).
@offset_base
struct FTP{kind}HostPort {{""")
    w("\n".join(lines))
    w(f"""  ip: string[p4 + l4] if ok @encoding("ascii") @display("{{}}.{{}}.{{}}.{{}}", v1, v2, v3, v4) @name("{ipname}")
  port: string[p6 + l6 - p5] if ok @at(p5) @encoding("ascii") @display("{{}}", v5 * 256 + v6) @name("{portname}")
}}
""")
# EPRT
el = ["  hidden let ok0 = remaining() > 3 && peek(0) != 0x20 && " + D(1) + " && peek(2) == peek(0)"]
el.append("  hidden let l1 = ok0 ? " + NL("3") + " : 0")
el.append("  hidden let p2 = 3 + l1 + 1")
for i in range(2, 5):
    if i > 2:
        el.append(f"  hidden let p{i} = p{i-1} + l{i-1} + 1")
    el.append(f"  hidden let l{i} = " + NL(f"p{i}"))
ipok = " && ".join(["ok0 && peek(1) == 0x31", f"l1 > 0 && {SEP('3 + l1', '0x2E')}"] +
                   [f"l{i} > 0 && {SEP(f'p{i} + l{i}', '0x2E')}" for i in range(2, 4)] +
                   ["l4 > 0 && remaining() > p4 + l4 && peek(p4 + l4) == peek(0)"])
el.append(f"  hidden let ipv4 = {ipok}")
el.append("  hidden let pp = p4 + l4 + 1")
el.append("  hidden let lp = ipv4 ? " + NL("pp", maxd=5) + " : 0")
w("""// EPRT's argument, |af|address|port| with any delimiter in place of |: the address family (1
// IPv4, 2 IPv6), the address as text and the port in decimal.
@offset_base
struct FTPExtendedAddress {""")
w("\n".join(el))
w("""  af: string[1] if ok0 @at(1) @encoding("ascii") @name("ftp.eprt.af")
  ip: string[p4 + l4 - 3] if ipv4 @at(3) @encoding("ascii") @name("ftp.eprt.ip")
  port: string[lp] if lp > 0 @at(pp) @encoding("ascii") @name("ftp.eprt.port")
}

// The data connection from port 20 (active mode): the bytes of a listing or a file.
@protocol("ftp-data") @label("FTP-DATA") @summary("{#data} bytes")
struct FTPData {
  data: bytes[..] @name("")
}""")
open(os.path.join(SCHEMAS, "ftp.schema"), "w").write("// Generated by scripts/text-schemas/ftp.py (its peek chains are unrolled there): edit it and run it again.\n" + "\n".join(out) + "\n")
