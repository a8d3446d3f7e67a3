import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chains import SCHEMAS, token_len, spaces

def word_at(w, start="0"):
    return "(" + " && ".join([f"remaining() > {start} + {len(w)}"] + [f"peek({start} + {i}) == {ord(ch)}" for i, ch in enumerate(w)]) + f" && peek({start} + {len(w)}) == 0x20)"

def name_is(w):
    # case-insensitive header name of length c at the line's start
    return "(" + " && ".join([f"c == {len(w)}"] + [f"(peek({i}) | 0x20) == {ord(ch.lower())}" if ch.isalpha() else f"peek({i}) == {ord(ch)}" for i, ch in enumerate(w)]) + ")"

def upto(ch, limit, bound):
    s = "-1"
    for i in reversed(range(limit)):
        s = f"{bound} <= {i} ? -1 : peek({i}) == {ch} ? {i} : {s}"
    return "(" + s + ")"

METHODS = ["OPTIONS", "DESCRIBE", "ANNOUNCE", "SETUP", "PLAY", "PAUSE", "TEARDOWN", "GET_PARAMETER", "SET_PARAMETER", "REDIRECT", "RECORD"]
method_test = " || ".join(word_at(m) for m in METHODS)
response_test = "(remaining() >= 5 && peek(0) == 0x52 && peek(1) == 0x54 && peek(2) == 0x53 && peek(3) == 0x50 && peek(4) == 0x2F)"

s = f"""// RTSP (RFC 2326) on TCP ports 554 and 8554: requests and responses header by header, the
// headers tshark names (Content-Type, Content-Length, Transport, Session) by its names, a body
// that follows the head in its segment as rtsp.data, and the frames interleaved in the
// connection (RTP over TCP: $, channel, length, data).
//
//   dissect -r Corpus/captures/rtsp.pcap --no-tcp-reassembly
//
// Filter names are Wireshark's: rtsp.request and rtsp.response (the start line with its CRLF),
// rtsp.method, rtsp.url, rtsp.status, rtsp.content-type, rtsp.content-length, rtsp.transport and
// rtsp.session (each the header's line without its CRLF, as tshark's), rtsp.magic, rtsp.channel,
// rtsp.length, rtsp.data.
//
// Limits: no state across segments: a segment that continues a message (a body sent after its
// head, as ffmpeg sends ANNOUNCE's SDP) is rtsp.data, as tshark shows it without reassembly; the
// SDP is not decoded; an interleaved frame's data stays bytes until an RTP schema registers on
// rtsp.interleaved (tshark reads it as the RTP or RTCP that SETUP's Transport header announced
// for the channel); a URL longer than 120 bytes runs to
// the end of the line.

endian big

register tcp.port 554, 8554 => RTSP

table rtsp.lines: u8
register rtsp.lines {{ heuristic RTSPHeaderLine }}
typealias RTSPHeaderOrBytes = dispatch rtsp.lines(0)

@protocol("rtsp") @label("RTSP") @summary("{{?{{item[0].method}} {{item[0].url}}}}{{?Reply: {{item[0].status}}}}{{? {{item[0].reason}}}}{{?Interleaved channel {{item[0].channel}}, {{item[0].length}} bytes}}{{?Continuation, {{#item[0].data}} bytes}}")
struct RTSP {{
  item: RTSPItem[..] @name("")
}}

typealias RTSPItem = switch {{
  remaining() >= 4 && peek(0) == 0x24 => RTSPInterleaved
  {method_test} || {response_test} => dispatch rtsp.start(0)
  _ => RTSPData
}}

// A start line the segment cuts (no CRLF) is claimed by neither, and stays bytes.
table rtsp.start: u8
register rtsp.start {{ heuristic RTSPRequest  heuristic RTSPResponse }}

// Bytes that start no message: a body, or the rest of one.
struct RTSPData {{
  data: bytes[..] @name("rtsp.data")
}}

// An interleaved frame. Its data is looked up in rtsp.interleaved by the channel's parity (by
// convention, and as SETUP's Transport header usually says, interleaved=0-1: RTP on the even
// channel, RTCP on the odd): a schema of RTP and RTCP registers there (`register
// rtsp.interleaved 0 => RTP`); until one does, the data is rtsp.data bytes.
table rtsp.interleaved: u8

struct RTSPInterleaved {{
  magic: u8 @hex @name("rtsp.magic")
  channel: u8 @hex @name("rtsp.channel")
  length: u16 @name("rtsp.length")
  payload: dispatch rtsp.interleaved(channel & 1) @size(min(length, remaining())) @name("rtsp.data")
}}

@offset_base
@requires({method_test})
struct RTSPRequest {{
  request: string[until "\\r\\n"] @at(0) @encoding("latin1") @assert(len(request) > 0) @name("rtsp.request")
  hidden let n = len(request)
  hidden let t = {token_len(16, 'n')}
  hidden let k = {spaces(4, 't', 'n')}
  hidden let u = n - t - k > 0 ? {token_len(120, 'n - t - k', start='t + k')} : 0
  hidden let k2 = n - t - k - u > 0 ? 1 : 0
  method: string[t] @encoding("ascii") @name("rtsp.method")
  sp: string[k] if k > 0 @name("rtsp.sp")
  url: string[u] if u > 0 @encoding("latin1") @name("rtsp.url")
  sp2: string[k2] if k2 > 0 @name("rtsp.sp")
  version: string[n - t - k - u - k2] if n - t - k - u - k2 > 0 @encoding("latin1") @name("rtsp.version")
  crlf: string[2] @name("rtsp.crlf")
  header: RTSPHeaderOrBytes[until remaining() < 2 || peek(0) == 0x0D && peek(1) == 0x0A] if remaining() >= 2 && !(peek(0) == 0x0D && peek(1) == 0x0A) @name("")
  end_of_head: string[2] if remaining() >= 2 && peek(0) == 0x0D && peek(1) == 0x0A @name("rtsp.end_of_head")
  body: bytes[..] if remaining() > 0 && !(peek(0) == 0x24) && !({method_test}) && !{response_test} @name("rtsp.data")
}}

@offset_base
@requires({response_test})
struct RTSPResponse {{
  response: string[until "\\r\\n"] @at(0) @encoding("latin1") @assert(len(response) > 0) @name("rtsp.response")
  hidden let n = len(response)
  hidden let t = {token_len(16, 'n')}
  hidden let k = {spaces(4, 't', 'n')}
  version: string[t] @encoding("ascii") @name("rtsp.version")
  sp: string[k] if k > 0 @name("rtsp.sp")
  hidden let coded = n >= t + k + 3
  status: string[3] if coded @encoding("ascii") @name("rtsp.status")
  hidden let s2 = coded && n > t + k + 3 ? 1 : 0
  sp2: string[s2] if s2 > 0 @name("rtsp.sp")
  hidden let r = coded ? n - t - k - 3 - s2 : n - t - k
  reason: string[r] if r > 0 @encoding("latin1") @name("rtsp.reason")
  crlf: string[2] @name("rtsp.crlf")
  header: RTSPHeaderOrBytes[until remaining() < 2 || peek(0) == 0x0D && peek(1) == 0x0A] if remaining() >= 2 && !(peek(0) == 0x0D && peek(1) == 0x0A) @name("")
  end_of_head: string[2] if remaining() >= 2 && peek(0) == 0x0D && peek(1) == 0x0A @name("rtsp.end_of_head")
  body: bytes[..] if remaining() > 0 && !(peek(0) == 0x24) && !({method_test}) && !{response_test} @name("rtsp.data")
}}

// A header line: the headers tshark names are their line (without CRLF) under its name; the
// others, which tshark shows as text, rtsp.header.
@offset_base
struct RTSPHeaderLine {{
  header_line: string[until "\\r\\n"] @at(0) @encoding("latin1") @assert(len(header_line) > 0) @name("rtsp.header_line")
  hidden let n = len(header_line)
  hidden let c = {upto('0x3A', 40, 'n')}
  line: switch {{
    {name_is('Content-Type')} => RTSPHeader(c) @name("rtsp.content-type")
    {name_is('Content-Length')} => RTSPHeader(c) @name("rtsp.content-length")
    {name_is('Transport')} => RTSPHeader(c) @name("rtsp.transport")
    {name_is('Session')} => RTSPHeader(c) @name("rtsp.session")
    _ => RTSPHeader(c) @name("rtsp.header")
  }} @size(n)
  crlf: string[2] @name("rtsp.crlf")
}}

struct RTSPHeader(c: i16) {{
  name: string[c] if c > 0 @encoding("latin1") @name("rtsp.header.name")
  colon: string[1] if c >= 0 @name("rtsp.header.colon")
  hidden let k = c >= 0 ? {spaces(4, '0', 'remaining()')} : 0
  sp: string[k] if k > 0 @name("rtsp.sp")
  value: string[..] if remaining() > 0 @encoding("latin1") @name("rtsp.header.value")
}}
"""
open(os.path.join(SCHEMAS, "rtsp.schema"), "w").write("// Generated by scripts/text-schemas/rtsp.py (its peek chains are unrolled there): edit it and run it again.\n" + s)
