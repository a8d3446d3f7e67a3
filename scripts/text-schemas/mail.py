import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chains import SCHEMAS, token_len, spaces

def D(i, bound="remaining()"):
    return f"{bound} > {i} && peek({i}) >= 0x30 && peek({i}) <= 0x39"

def upto(ch, limit, bound, start="0"):
    """offset (from start) of the first byte ch within bound, looked for in `limit` bytes; else -1"""
    s = "-1"
    for i in reversed(range(limit)):
        s = f"{bound} <= {start} + {i} ? -1 : peek({start} + {i}) == {ch} ? {i} : {s}"
    return s

TLS_TEST = "remaining() >= 5 && peek(0) >= 20 && peek(0) <= 24 && peek(1) == 3 && peek(2) <= 4"

def probe(name, filt, req):
    return f"""  {name}: string[until "\\r\\n"] @at(0) @encoding("latin1") @assert(len({name}) >= 0) @name("{filt}")
  hidden let n = len({name})"""

def token_fields(prefix_cmd, prefix_param, sp_name, crlf_name, cmd_limit=24):
    return f"""  hidden let t = {token_len(cmd_limit, 'n')}
  hidden let k = {spaces(8, 't', 'n')}
  command: string[t] if t > 0 @encoding("latin1") @name("{prefix_cmd}")
  sp: string[k] if k > 0 @name("{sp_name}")
  hidden let pn = n - t - k
  parameter: string[pn] if pn > 0 @encoding("latin1") @name("{prefix_param}")
  crlf: string[2] @name("{crlf_name}")"""

# ------------------------------------------------------------------ SMTP
smtp = f"""// SMTP (RFC 5321) on TCP ports 25 and 587, with the TLS that STARTTLS hands the connection over
// to, and the message that DATA sends, as IMF (RFC 5322) headers and text.
//
//   dissect -r Corpus/captures/smtp.pcap --no-tcp-reassembly
//
// A segment to the server holds command lines: smtp.command_line (the line with its CRLF, as
// tshark's), smtp.req.command (the token up to the first space: STARTTLS whole, where tshark
// takes the first four letters, STAR, and the rest, TLS, for the parameter) and
// smtp.req.parameter; one from the server holds reply lines: smtp.response, smtp.response.code
// and smtp.rsp.parameter (after the space, or the hyphen that continues a multi-line reply).
//
// Limits: no state across segments. So
// - after STARTTLS, a segment is TLS when it starts with a TLS record header (content type 20 to
//   24, version 3.x), which no SMTP line does; tshark knows it from the 220 reply to STARTTLS;
// - DATA's message is told from commands by its first line, a header (a name, then a colon: no
//   command is one), or by the end of data (CRLF . CRLF) that ends the segment; its headers are
//   IMF's (imf.from, imf.to, imf.subject, ...: tshark's, whose offsets are in the message
//   reassembled from the DATA segments); a segment of the message that starts in its middle
//   is read as command lines, and AUTH's base64 lines are commands with no parameter here, where
//   tshark, following the exchange, names them smtp.auth.username and smtp.auth.password;
// - the direction is the port's: to port 25 or 587 is a request (as tshark decides).

import "tls"

endian big

register tcp.port 25, 587 => SMTPSegment

struct SMTPSegment {{
  hidden let request = parent.dst_port == 25 || parent.dst_port == 587
    || parent.src_port != 25 && parent.src_port != 587 && parent.dst_port < parent.src_port
  payload: switch {{
    {TLS_TEST} => TLS
    _ => SMTP
  }} @name("")
}}

table smtp.line: u8
register smtp.line {{ heuristic SMTPRequestLine  heuristic SMTPResponseLine }}
typealias SMTPLine = dispatch smtp.line(0)

@protocol("smtp") @label("SMTP") @summary("{{?C: {{line[0].command_line}}}}{{?S: {{line[0].response}}}}{{?C: DATA fragment, {{#imf}} bytes}}")
struct SMTP {{
  let req = parent.request == true @name("smtp.req")
  let rsp = !req @name("smtp.rsp")
  // DATA's message: its first line is a header, or the segment ends with CRLF . CRLF.
  hidden let eom = req && remaining() >= 5 && peek(remaining() - 5) == 0x0D && peek(remaining() - 4) == 0x0A
    && peek(remaining() - 3) == 0x2E && peek(remaining() - 2) == 0x0D && peek(remaining() - 1) == 0x0A
  hidden let colon = {upto('0x3A', 32, 'remaining()')}
  hidden let space = {upto('0x20', 32, 'remaining()')}
  hidden let message = req && (eom || colon > 0 && (space < 0 || colon < space))
  imf: IMF if message @size(remaining() - (eom ? 3 : 0)) @name("")
  end_of_data: string[3] if eom @name("smtp.eom")
  line: SMTPLine[..] if !message @name("")
}}

@offset_base
@requires(parent.req)
struct SMTPRequestLine {{
{probe('command_line', 'smtp.command_line', True)}
{token_fields('smtp.req.command', 'smtp.req.parameter', 'smtp.sp', 'smtp.crlf')}
}}

@offset_base
@requires(!parent.req)
struct SMTPResponseLine {{
{probe('response', 'smtp.response', False)}
  hidden let coded = n >= 3 && {D(0)} && {D(1)} && {D(2)}
  code: string[3] if coded @encoding("ascii") @name("smtp.response.code")
  sp: string[1] if coded && n >= 4 @name("smtp.sp")
  hidden let pn = n - (coded ? min(n, 4) : 0)
  parameter: string[pn] if pn > 0 @encoding("latin1") @name("smtp.rsp.parameter")
  crlf: string[2] @name("smtp.crlf")
}}

// The message: header lines up to the empty line, then the text.
@protocol("imf") @label("IMF") @summary("{{len(header)}} header lines{{?, {{#message_text}} bytes of text}}")
struct IMF {{
  header: IMFLine[until remaining() < 2 || peek(0) == 0x0D && peek(1) == 0x0A] if remaining() >= 2 && !(peek(0) == 0x0D && peek(1) == 0x0A) @name("")
  end_of_header: string[2] if remaining() >= 2 && peek(0) == 0x0D && peek(1) == 0x0A @name("imf.end_of_header")
  message_text: string[..] if remaining() > 0 @encoding("latin1") @name("imf.message_text")
}}

table imf.line: u8
register imf.line {{ heuristic IMFHeader }}
typealias IMFLine = dispatch imf.line(0)

// A header line: its name, the colon, the spaces after it and the value (a folded header's
// continuation lines, which start with a space or tab, are lines of their own here). A header
// tshark knows has its value named as tshark names it (imf.from, imf.subject, ...); another's is
// imf.extension.value, its name imf.extension.type.
@offset_base
struct IMFHeader {{
  header_line: string[until "\\r\\n"] @at(0) @encoding("latin1") @assert(len(header_line) >= 0) @name("imf.header_line")
  hidden let n = len(header_line)
  hidden let c = peek(0) == 0x20 || peek(0) == 0x09 ? -1 : {upto('0x3A', 40, 'n')}
  hidden let known = c > 0
  hidden let k = known ? {spaces(4, 'c + 1', 'n')} : 0
  name: string[c] if known @encoding("latin1") @name("imf.header_name")
  colon: string[1] if known @name("imf.colon")
  sp: string[k] if k > 0 @name("imf.sp")
  hidden let vn = known ? n - c - 1 - k : n
  value: switch {{
"""
IMF_NAMES = [("Date", "imf.date"), ("From", "imf.from"), ("Sender", "imf.sender"), ("Reply-To", "imf.reply_to"),
             ("To", "imf.to"), ("Cc", "imf.cc"), ("Bcc", "imf.bcc"), ("Message-ID", "imf.message_id"), ("Message-Id", "imf.message_id"),
             ("In-Reply-To", "imf.in_reply_to"), ("References", "imf.references"), ("Subject", "imf.subject"),
             ("Comments", "imf.comments"), ("Keywords", "imf.keywords"), ("User-Agent", "imf.user_agent"),
             ("Return-Path", "imf.return_path"), ("Received", "imf.received"), ("Content-Type", "imf.content.type"),
             ("Content-Transfer-Encoding", "imf.content.transfer_encoding"), ("Content-ID", "imf.content.id"),
             ("Content-Description", "imf.content.description"), ("MIME-Version", "imf.mime_version"),
             ("X-Mailer", "imf.ext.mailer"), ("Delivered-To", "imf.delivered_to"), ("Precedence", "imf.precedence")]
for header, filt in IMF_NAMES:
    smtp += f'    known && name == "{header}" => string[vn] @encoding("latin1") @name("{filt}")\n'
smtp += """    known => string[vn] @encoding("latin1") @name("imf.extension.value")
    _ => string[vn] @encoding("latin1") @name("imf.continuation")
  } if vn > 0
  crlf: string[2] @name("imf.crlf")
}
"""
open(os.path.join(SCHEMAS, "smtp.schema"), "w").write("// Generated by scripts/text-schemas/mail.py (its peek chains are unrolled there): edit it and run it again.\n" + smtp)

# ------------------------------------------------------------------ POP
pop = f"""// POP3 (RFC 1939) on TCP port 110, with the TLS that STLS hands the connection over to.
//
//   dissect -r Corpus/captures/pop.pcap --no-tcp-reassembly
//
// A segment to the server holds a command line: pop.request (the line with its CRLF, as
// tshark's), pop.request.command (the token up to the first space) and pop.request.parameter.
// One from the server starts with a reply line, pop.response: pop.response.indicator (+OK,
// -ERR, or + in a SASL exchange) and pop.response.description; each further line of the segment
// (a multi-line reply's lines: a listing, a message, the final ".") is pop.response.data.
//
// Limits: no state across segments: a segment from the server that continues a multi-line reply
// is read as a reply line and data lines, where tshark, knowing the reply goes on, calls every
// line data; a message in a RETR or TOP reply is data lines, not IMF; after STLS a segment is TLS
// when it starts with a TLS record header.

import "tls"

endian big

register tcp.port 110 => POPSegment

struct POPSegment {{
  hidden let request = parent.dst_port == 110 || parent.src_port != 110 && parent.dst_port < parent.src_port
  payload: switch {{
    {TLS_TEST} => TLS
    _ => POP
  }} @name("")
}}

table pop.line: u8
register pop.line {{ heuristic POPRequestLine  heuristic POPResponseLine  heuristic POPDataLine }}
typealias POPLine = dispatch pop.line(0)

@protocol("pop") @label("POP") @summary("{{?C: {{line[0].request}}}}{{?S: {{line[0].response}}}}")
struct POP {{
  hidden let req = parent.request == true
  hidden let start = offset()
  line: POPLine[..] @name("")
}}

@offset_base
@requires(parent.req)
struct POPRequestLine {{
{probe('request', 'pop.request', True)}
{token_fields('pop.request.command', 'pop.request.parameter', 'pop.sp', 'pop.crlf')}
}}

// The first line from the server.
@offset_base
@requires(!parent.req && offset() == parent.start)
struct POPResponseLine {{
{probe('response', 'pop.response', False)}
  hidden let t = {token_len(8, 'n')}
  hidden let k = {spaces(8, 't', 'n')}
  indicator: string[t] if t > 0 @encoding("latin1") @name("pop.response.indicator")
  sp: string[k] if k > 0 @name("pop.sp")
  hidden let dn = n - t - k
  description: string[dn] if dn > 0 @encoding("latin1") @name("pop.response.description")
  crlf: string[2] @name("pop.crlf")
}}

// The lines after it: a multi-line reply's.
@requires(!parent.req && offset() > parent.start)
struct POPDataLine {{
  data: string[until "\\r\\n"] @encoding("latin1") @assert(len(data) >= 0) @name("pop.response.data")
}}
"""
open(os.path.join(SCHEMAS, "pop.schema"), "w").write("// Generated by scripts/text-schemas/mail.py (its peek chains are unrolled there): edit it and run it again.\n" + pop)
