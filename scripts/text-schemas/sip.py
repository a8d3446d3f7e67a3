import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chains import SCHEMAS, token_len, spaces
from sipheaders import STRUCTURED, STRUCTS


def word_at(w):
    return "(" + " && ".join([f"remaining() > {len(w)}"] + [f"peek({i}) == {ord(ch)}" for i, ch in enumerate(w)]) + f" && peek({len(w)}) == 0x20)"


def name_is(w):
    # a header name of length c at the line's start, in any case (as Wireshark matches them)
    return "(" + " && ".join([f"c == {len(w)}"] + [f"(peek({i}) | 0x20) == {ord(ch.lower())}" if ch.isalpha() else f"peek({i}) == {ord(ch)}" for i, ch in enumerate(w)]) + ")"


def upto(ch, limit, bound="remaining()"):
    # index of the first `ch` within `limit` bytes (and within bound), else -1
    s = "-1"
    for i in reversed(range(limit)):
        s = f"{bound} <= {i} ? -1 : peek({i}) == {ch} ? {i} : {s}"
    return "(" + s + ")"


def cr_lets(name, total, step=100):
    """Hidden lets finding the first CR within `total` bytes, `step` bytes a chain (the checker
    allows 128 levels of nesting): `name` is its index, or -1 when there is none."""
    lets = []
    for k, b in enumerate(range(0, total, step)):
        s = "-1"
        for i in reversed(range(b, b + step)):
            s = f"remaining() <= {i} || peek({i}) == 0x0D ? (remaining() <= {i} ? -1 : {i}) : {s}"
        if k == 0:
            lets.append(f"  hidden let {name}0 = ({s})")
        else:
            prev = f"{name}{k - 1}"
            lets.append(f"  hidden let {name}{k} = {prev} >= 0 || remaining() <= {b} ? {prev} : ({s})")
    lets.append(f"  hidden let {name} = {name}{len(lets) - 1}")
    return "\n".join(lets)


def tok(limit=32):
    return token_len(limit, "remaining()")


METHODS = ["INVITE", "ACK", "BYE", "CANCEL", "OPTIONS", "REGISTER", "PRACK", "SUBSCRIBE", "NOTIFY", "PUBLISH",
           "INFO", "REFER", "MESSAGE", "UPDATE"]
method_test = " || ".join(word_at(m) for m in METHODS)
status_test = "(remaining() >= 12 && peek(0) == 0x53 && peek(1) == 0x49 && peek(2) == 0x50 && peek(3) == 0x2F && peek(7) == 0x20)"

# Headers tshark names by their line (name, colon, value and CRLF): Wireshark's filter names.
HEADERS = ["Via", "From", "To", "Call-ID", "Contact", "Max-Forwards", "Subject", "Content-Type",
           "Content-Length", "User-Agent", "Server", "Allow", "Supported", "Require", "Expires", "Route",
           "Record-Route", "Accept", "Authorization", "WWW-Authenticate", "Proxy-Authenticate",
           "Proxy-Authorization", "Event", "Date", "Allow-Events", "Min-Expires", "Organization",
           "Content-Disposition", "Warning", "Unsupported", "Retry-After", "Timestamp", "RSeq", "RAck",
           "Subscription-State", "Privacy", "Priority", "Alert-Info", "Call-Info", "Reply-To", "Accept-Encoding",
           "Accept-Language", "Content-Encoding", "Content-Language", "MIME-Version", "Proxy-Require"]
# RFC 3261 §7.3.3's compact forms.
COMPACT = {"v": "Via", "f": "From", "t": "To", "i": "Call-ID", "m": "Contact", "c": "Content-Type",
           "l": "Content-Length", "s": "Subject", "k": "Supported", "o": "Event"}

header_cases = [f"    {name_is('CSeq')} => SIPCSeq(c) @name(\"sip.CSeq\")"]
for h in HEADERS:
    short = [k for k, v in COMPACT.items() if v == h]
    test = name_is(h) + "".join(f" || {name_is(k)}" for k in short)
    header_cases.append(f"    {test} => {STRUCTS.get(h, 'SIPHeader')}(c) @name(\"sip.{h}\")")
header_cases.append("    c >= 0 => SIPHeader(c) @name(\"sip.unknown_header\")")
header_cases.append("    _ => SIPHeader(c) @name(\"sip.header_no_colon\")")
header_cases = "\n".join(header_cases)

SDP_TYPES = {"v": "version", "s": "session_name", "i": "session_info", "u": "uri", "e": "email", "p": "phone",
             "b": "bandwidth", "z": "timezone", "k": "encryption_key", "r": "repeat_time"}

sdp_cases = ["    peek(0) == 0x6F => SDPOwner @name(\"sdp.owner\")",
             "    peek(0) == 0x63 => SDPConnection @name(\"sdp.connection_info\")",
             "    peek(0) == 0x74 => SDPTime @name(\"sdp.time\")",
             "    peek(0) == 0x6D => SDPMedia @name(\"sdp.media\")",
             "    peek(0) == 0x61 && !in_media => SDPAttribute @name(\"sdp.session_attr\")",
             "    peek(0) == 0x61 => SDPAttribute @name(\"sdp.media_attr\")"]
for k, v in SDP_TYPES.items():
    sdp_cases.append(f"    peek(0) == {ord(k)} => SDPText @name(\"sdp.{v}\")")
sdp_cases.append("    _ => SDPText @name(\"sdp.unknown\")")
sdp_cases = "\n".join(sdp_cases)


def tokens(fields, last=None):
    """Space-separated tokens, each a string field (name, filter name); `last` takes the rest."""
    out = []
    for name, filt in fields:
        out.append(f"  hidden let n_{name} = {tok()}")
        out.append(f"  {name}: string[n_{name}] if n_{name} > 0 @name(\"{filt}\")")
        out.append(f"  sp_{name}: string[1] if remaining() > 0 @name(\"sdp.sp\")")
    if last:
        name, filt = last
        out.append(f"  {name}: string[..] if remaining() > 0 @name(\"{filt}\")")
    return "\n".join(out)


s = f"""// Generated by scripts/text-schemas/sip.py (its peek chains are unrolled there): edit it and run it again.
// SIP (RFC 3261) on UDP and TCP port 5060 (and by a heuristic on any UDP port), with the SDP (RFC
// 8866) its bodies carry: the request or status line and its parts, the message header (each header
// line by Wireshark's name, CSeq split), and a body that starts "v=" read as SDP line by line
// (origin, connection, timing, media and attribute lines split as tshark splits them).
//
//   dissect -r Corpus/captures/sip.pcap
//
// Filter names are Wireshark's: sip.Request-Line (without its CRLF), sip.Method, sip.r-uri,
// sip.Status-Line, sip.Status-Code, sip.msg_hdr (every header line and the empty line), each known
// header's line as sip.Via, sip.From, sip.To, sip.Call-ID, sip.CSeq, sip.Contact, sip.Content-Type,
// ... (with its CRLF, as tshark's), sip.CSeq.seq and sip.CSeq.method, sip.msg_body; sdp.version,
// sdp.owner (and .username, .sessionid, .version, .network_type, .address_type, .address),
// sdp.session_name, sdp.connection_info (and its parts), sdp.time (.start, .stop), sdp.media
// (.media, .port_string, .proto, .format), sdp.session_attr and sdp.media_attr (an a= line before
// or after the first m= line), sdp.media_attribute.field and .value, and for rtpmap
// sdp.media.format, sdp.mime.type and sdp.sample_rate, for fmtp sdp.media.format and
// sdp.fmtp.parameter.
//
// Via is split into its transport, sent-by address and port and branch (sip.Via.transport,
// sip.Via.sent-by.address, sip.Via.sent-by.port, sip.Via.branch); From, To and Contact into the
// display name, the address and its user, host and port, and the tag (sip.from.display.info,
// sip.from.addr, sip.from.user, sip.from.host, sip.from.port, sip.from.tag; sip.to.*;
// sip.contact.uri, sip.contact.*); the request URI likewise (sip.r-uri.user, .host, .port).
//
// Limits: Via's parameters other than a first branch, and the other headers' values (Contact's
// expires, ...), are one string; a From, To or Contact value longer than 160 bytes is not split. A
// line longer than 400 bytes (a start line), a header name longer than 40 bytes or an SDP line
// longer than 300 bytes is read whole (its CRLF included). Over TCP a segment is read alone (a
// message continued in the next segment is sip.continuation there, as tshark shows it without
// reassembly) and its body runs to the segment's end. SIP messages other than the methods RFC 3261
// and its extensions define (INVITE, ACK, BYE, CANCEL, OPTIONS, REGISTER, PRACK, SUBSCRIBE, NOTIFY,
// PUBLISH, INFO, REFER, MESSAGE, UPDATE), are not decoded; a body other than SDP is sip.msg_body
// bytes.

endian big

register udp.port 5060 => SIP
register tcp.port 5060 => SIP
// On other UDP ports (as tshark's sip_udp heuristic, on by default): a datagram that starts a
// status line or a request line of a known method. One look at the first byte gives up most
// payloads; the second test reads the method or "SIP/x.x ".
register udp.port {{ heuristic SIPByHeuristic }}

@protocol("sip") @label("SIP")
@summary("{{?Request: {{message.request_line.method}}}}{{? {{message.request_line.uri.scheme}}}}{{?{{message.request_line.uri.user}}@}}{{?{{message.request_line.uri.host}}}}{{?:{{message.request_line.uri.port}}}}{{?Status: {{message.status_line.code}} {{message.status_line.reason}}}}")
struct SIP {{
  message: switch {{
    {status_test} => SIPResponse
    {method_test} => SIPRequest
    _ => SIPData
  }} @name("")
}}

@requires(remaining() >= 12 && peek(0) >= 0x41 && peek(0) <= 0x55)
@requires({status_test} || {method_test})
struct SIPByHeuristic {{
  message: SIP @name("")
}}

// Anything else on the port (a keep-alive's CRLFs, the rest of a message): bytes.
struct SIPData {{
  data: bytes[..] @name("sip.continuation")
}}

@offset_base
struct SIPRequest {{
{cr_lets('n', 400)}
  hidden let whole = n > 0 && n + 1 < remaining() && peek(n + 1) == 0x0A
  request_line: SIPRequestLine if whole @size(n) @name("sip.Request-Line")
  raw_request_line: string[until "\\r\\n"] if !whole @name("sip.Request-Line")
  crlf: string[2] if whole @name("sip.crlf")
  msg_hdr: SIPMessageHeader if remaining() > 0 @name("sip.msg_hdr")
  msg_body: SIPBody if remaining() > 0 @name("sip.msg_body")
}}

@offset_base
struct SIPResponse {{
{cr_lets('n', 400)}
  hidden let whole = n > 0 && n + 1 < remaining() && peek(n + 1) == 0x0A
  status_line: SIPStatusLine if whole @size(n) @name("sip.Status-Line")
  raw_status_line: string[until "\\r\\n"] if !whole @name("sip.Status-Line")
  crlf: string[2] if whole @name("sip.crlf")
  msg_hdr: SIPMessageHeader if remaining() > 0 @name("sip.msg_hdr")
  msg_body: SIPBody if remaining() > 0 @name("sip.msg_body")
}}

// METHOD SP Request-URI SP SIP/2.0: the method is a token (at most 16 letters here), the version
// the line's last 7 bytes, the URI what lies between.
struct SIPRequestLine {{
  hidden let t = {token_len(16, 'remaining()')}
  method: string[t] @encoding("ascii") @name("sip.Method")
  sp: string[1] if remaining() > 0 @name("sip.sp")
  hidden let u = remaining() >= 8 && peek(remaining() - 8) == 0x20 ? remaining() - 8 : remaining()
  uri: SIPRequestURI if u > 0 @size(u) @name("sip.r-uri")
  sp2: string[1] if remaining() > 0 @name("sip.sp")
  version: string[..] if remaining() > 0 @encoding("ascii") @name("sip.version")
}}

// SIP/2.0 SP Status-Code SP Reason-Phrase.
struct SIPStatusLine {{
  version: string[7] @encoding("ascii") @name("sip.version")
  sp: string[1] @name("sip.sp")
  code: string[3] @encoding("ascii") @name("sip.Status-Code")
  sp2: string[1] if remaining() > 0 @name("sip.sp")
  reason: string[..] if remaining() > 0 @encoding("latin1") @name("sip.reason_phrase")
}}

// The header lines and the empty line that ends them.
struct SIPMessageHeader {{
  header: SIPHeaderLine[until remaining() < 2 || peek(0) == 0x0D && peek(1) == 0x0A] if remaining() >= 2 && !(peek(0) == 0x0D && peek(1) == 0x0A) @name("")
  end_of_head: string[2] if remaining() >= 2 @name("sip.end_of_head")
}}

// A header line: its name (up to the colon, within 40 bytes, matched in any case) chooses its
// filter name; the line, CRLF included, is the field, as tshark's.
struct SIPHeaderLine {{
  hidden let c = {upto('0x3A', 40)}
  line: switch {{
{header_cases}
  }} @name("")
}}

struct SIPHeader(c: i16) {{
  name: string[c] if c > 0 @encoding("latin1") @name("sip.header.name")
  colon: string[1] if c >= 0 @name("sip.header.colon")
  hidden let k = c >= 0 ? {spaces(4, '0', 'remaining()')} : 0
  sp: string[k] if k > 0 @name("sip.sp")
  value: string[until "\\r\\n"] @encoding("latin1") @name("sip.header.value")
}}

{STRUCTURED}
// CSeq: a sequence number, a space, the method.
struct SIPCSeq(c: i16) {{
  name: string[c] @encoding("latin1") @name("sip.header.name")
  colon: string[1] @name("sip.header.colon")
  hidden let k = {spaces(4, '0', 'remaining()')}
  sp: string[k] if k > 0 @name("sip.sp")
  hidden let d = {token_len(11, 'remaining()')}
  seq: string[d] @encoding("ascii") @name("sip.CSeq.seq")
  sp2: string[1] if remaining() > 0 && peek(0) == 0x20 @name("sip.sp")
  hidden let m = {upto('0x0D', 24)}
  method: string[m] if m > 0 @encoding("ascii") @name("sip.CSeq.method")
  rest: string[until "\\r\\n"] @encoding("latin1") @name("sip.header.value")
}}

// A body: SDP when it starts "v=", as a SIP body with Content-Type application/sdp does.
struct SIPBody {{
  sdp: SDP if remaining() >= 2 && peek(0) == 0x76 && peek(1) == 0x3D @name("")
  data: bytes[..] if remaining() > 0 @name("sip.msg_body.data")
}}

// SDP: lines of a letter, "=" and a value, each ended by CRLF.
@protocol("sdp") @label("SDP")
@summary("{{?{{line[*].item.media}} {{line[*].item.port}} {{line[*].item.proto}}}}")
struct SDP {{
  line: SDPLine[..] @name("")
}}

@offset_base
struct SDPLine {{
{cr_lets('n', 300)}
  hidden let whole = n > 0 && n + 1 < remaining() && peek(n + 1) == 0x0A
  hidden let type = peek(0)
  // An a= line before the first m= line is the session's, after it the media's.
  hidden let in_media = any(parent.line, it.type == 0x6D)
  item: switch {{
{sdp_cases}
  }} if whole @size(n) @name("")
  crlf: string[2] if whole @name("sdp.crlf")
  raw: string[until "\\r\\n"] if !whole && n > 0 @name("sdp.invalid")
  rest: string[..] if !whole && n <= 0 @name("sdp.invalid")
}}

struct SDPText {{
  key: string[2] @encoding("ascii") @name("sdp.key")
  value: string[..] if remaining() > 0 @encoding("utf-8") @name("sdp.value")
}}

// o=<username> <sess-id> <sess-version> <nettype> <addrtype> <unicast-address>
struct SDPOwner {{
  key: string[2] @encoding("ascii") @name("sdp.key")
{tokens([("username", "sdp.owner.username"), ("sessionid", "sdp.owner.sessionid"), ("version", "sdp.owner.version"), ("network_type", "sdp.owner.network_type"), ("address_type", "sdp.owner.address_type")], ("address", "sdp.owner.address"))}
}}

// c=<nettype> <addrtype> <connection-address>
struct SDPConnection {{
  key: string[2] @encoding("ascii") @name("sdp.key")
{tokens([("network_type", "sdp.connection_info.network_type"), ("address_type", "sdp.connection_info.address_type")], ("address", "sdp.connection_info.address"))}
}}

// t=<start-time> <stop-time>
struct SDPTime {{
  key: string[2] @encoding("ascii") @name("sdp.key")
{tokens([("start", "sdp.time.start")], ("stop", "sdp.time.stop"))}
}}

// m=<media> <port> <proto> <fmt> ...
struct SDPMedia {{
  key: string[2] @encoding("ascii") @name("sdp.key")
{tokens([("media", "sdp.media.media"), ("port", "sdp.media.port_string")])}
  // The port as a number (tshark's sdp.media.port: the same bytes, read as digits).
  let port_number = n_port == 1 ? (port[0] - 48) * 1 : n_port == 2 ? (port[0] - 48) * 10 + (port[1] - 48) * 1 : n_port == 3 ? (port[0] - 48) * 100 + (port[1] - 48) * 10 + (port[2] - 48) * 1 : n_port == 4 ? (port[0] - 48) * 1000 + (port[1] - 48) * 100 + (port[2] - 48) * 10 + (port[3] - 48) * 1 : n_port == 5 ? (port[0] - 48) * 10000 + (port[1] - 48) * 1000 + (port[2] - 48) * 100 + (port[3] - 48) * 10 + (port[4] - 48) * 1 : 0 @name("sdp.media.port")
{tokens([("proto", "sdp.media.proto")])}
  format: SDPFormat[..] if remaining() > 0 @name("sdp.media.formats")
}}

struct SDPFormat {{
  hidden let n = {tok(16)}
  format: string[n] if n > 0 @encoding("ascii") @name("sdp.media.format")
  sp: string[1] if remaining() > 0 @name("sdp.sp")
}}

// a=<attribute>[:<value>]; rtpmap's and fmtp's values split as tshark splits them.
struct SDPAttribute {{
  key: string[2] @encoding("ascii") @name("sdp.key")
  hidden let c = {upto('0x3A', 32)}
  field: string[c >= 0 ? c : remaining()] @encoding("ascii") @name("sdp.media_attribute.field")
  colon: string[1] if c >= 0 @name("sdp.colon")
  value: switch {{
    field == "rtpmap" => SDPRTPMap
    field == "fmtp" => SDPFmtp
    _ => string[..] @encoding("utf-8") @name("sdp.media_attribute.value")
  }} if remaining() > 0 @name("")
}}

// <payload type> <encoding name>/<clock rate>[/<encoding parameters>]
struct SDPRTPMap {{
  hidden let n = {tok(8)}
  format: string[n] @encoding("ascii") @name("sdp.media.format")
  sp: string[1] if remaining() > 0 @name("sdp.sp")
  hidden let s = {upto('0x2F', 40)}
  mime_type: string[s >= 0 ? s : remaining()] @encoding("ascii") @name("sdp.mime.type")
  slash: string[1] if s >= 0 @name("sdp.slash")
  sample_rate: string[..] if remaining() > 0 @encoding("ascii") @name("sdp.sample_rate")
}}

// <format> <format specific parameters>
struct SDPFmtp {{
  hidden let n = {tok(8)}
  format: string[n] @encoding("ascii") @name("sdp.media.format")
  sp: string[1] if remaining() > 0 @name("sdp.sp")
  parameter: string[..] if remaining() > 0 @encoding("utf-8") @name("sdp.fmtp.parameter")
}}
"""
open(os.path.join(SCHEMAS, "sip.schema"), "w").write(s)
