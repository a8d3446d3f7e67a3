import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chains import SCHEMAS, token_len, spaces
from mail import TLS_TEST

def D(i, bound="remaining()"):
    return f"{bound} > {i} && peek({i}) >= 0x30 && peek({i}) <= 0x39"

def dig(i):
    return f"peek({i}) >= 0x30 && peek({i}) <= 0x39"

# literal {N} at the end of a line of n bytes: digits count m (1..7) with '{' before them
lit = "0"
for m in reversed(range(1, 8)):
    cond = " && ".join([f"{dig(f'n - {j + 2}')}" for j in range(m)]) + f" && peek(n - {m + 2}) == 0x7B"
    lit = f"n >= {m + 2} && {cond} ? {m} : {lit}"
val = "0"
for m in reversed(range(1, 8)):
    expr = " + ".join([f"(peek(n - {j + 2}) - 48) * {10 ** j}" for j in range(m)])
    val = f"m == {m} ? {expr} : {val}"

s = f"""// IMAP (RFC 9051) on TCP port 143, with the TLS that STARTTLS hands the connection over to.
//
//   dissect -r Corpus/captures/imap.pcap --no-tcp-reassembly
//
// A segment is read line by line: each line with its CRLF is imap.line (as tshark's). A line to
// the server is a request, imap.request (the line without CRLF): its tag (imap.request_tag),
// command (imap.request.command) and arguments, split further for LOGIN (imap.request.username,
// imap.request.password) and for the commands that name a mailbox (imap.request.folder: SELECT, EXAMINE, CREATE, DELETE, RENAME,
// SUBSCRIBE, UNSUBSCRIBE, STATUS, APPEND and, as tshark has it, SEARCH). A
// tagged line from the server is a response, imap.response: its tag (imap.response_tag), status
// (imap.response.status: OK, NO, BAD) and the word after it (imap.response.command, as tshark
// takes it), then the text; an untagged one (* or +) is its first words, imap.untagged_response (* OK, * CAPABILITY,
// * 1 FETCH), and its text. A line that ends with a
// literal's length, {{n}}, is followed by the literal's n bytes: a message (FETCH BODY[]) or a
// part of one, read as IMF.
//
// Limits: no state across segments: a literal is read only from the segment that holds its
// line; after STARTTLS, a segment is TLS when it starts with a TLS record header. Wireshark's
// imap.tag and imap.command are the same bytes as imap.request_tag (imap.response_tag) and
// imap.request.command (imap.response.command) here, named once.

import "tls"
import "smtp"

endian big

register tcp.port 143 => IMAPSegment

struct IMAPSegment {{
  hidden let request = parent.dst_port == 143 || parent.src_port != 143 && parent.dst_port < parent.src_port
  payload: switch {{
    {TLS_TEST} => TLS
    _ => IMAP
  }} @name("")
}}

table imap.lines: u8
register imap.lines {{ heuristic IMAPLine }}
typealias IMAPLineOrBytes = dispatch imap.lines(0)

@protocol("imap") @label("IMAP") @summary("{{?{{isrequest?}}Request: {{line[0].line}}}}{{?{{line[0].response.tag?}}Response: {{line[0].line}}}}{{?Response: {{line[0].untagged_response}}}}")
struct IMAP {{
  let isrequest = parent.request == true @name("imap.isrequest")
  line: IMAPLineOrBytes[..] @name("")
}}

@offset_base
struct IMAPLine {{
  line: string[until "\\r\\n"] @at(0) @encoding("latin1") @assert(len(line) >= 0) @name("imap.line")
  hidden let n = len(line)
  hidden let req = parent.isrequest == true
  hidden let untagged = !req && n >= 1 && (peek(0) == 0x2A || peek(0) == 0x2B) && (n == 1 || peek(1) == 0x20)
  hidden let m = {lit}
  hidden let literal_length = {val}
  // An untagged response: "* WORD" (or "* n WORD": 1 EXISTS, 1 FETCH), then its text.
  hidden let w1 = untagged && n >= 2 ? {token_len(32, 'n - 2', start='2')} : 0
  hidden let numbered = w1 > 0 && peek(2) >= 0x30 && peek(2) <= 0x39 && n > 3 + w1
  hidden let w = numbered ? 3 + w1 + ({token_len(32, 'n - 3 - w1', start='3 + w1')}) : untagged ? min(n, 2 + w1) : 0
  request: IMAPRequest if req && n > 0 @size(n) @name("imap.request")
  response: IMAPResponse if !req && !untagged && n > 0 @size(n) @name("imap.response")
  untagged_response: string[w] if !req && untagged @encoding("latin1") @name("imap.untagged_response")
  untagged_text: string[n - w] if !req && untagged && n > w @encoding("latin1") @name("imap.untagged_response.text")
  crlf: string[2] @name("imap.crlf")
  literal: IMF if m > 0 && literal_length > 0 @size(min(literal_length, remaining())) @name("")
}}

struct IMAPRequest {{
  hidden let t = {token_len(32, 'remaining()')}
  tag: string[t] if t > 0 @encoding("latin1") @name("imap.request_tag")
  hidden let k = {spaces(4, '0', 'remaining()')}
  sp: string[k] if k > 0 @name("imap.sp")
  // UID FETCH, UID SEARCH, ...: tshark's command is the word after UID.
  hidden let uid_prefix = remaining() > 4 && (peek(0) == 0x55 || peek(0) == 0x75) && (peek(1) == 0x49 || peek(1) == 0x69)
    && (peek(2) == 0x44 || peek(2) == 0x64) && peek(3) == 0x20
  uid: string[3] if uid_prefix @encoding("latin1") @name("imap.request.command.uid")
  uid_sp: string[1] if uid_prefix @name("imap.sp")
  hidden let c = {token_len(24, 'remaining()')}
  command: string[c] if c > 0 @encoding("latin1") @name("imap.request.command")
  hidden let k2 = {spaces(4, '0', 'remaining()')}
  sp2: string[k2] if k2 > 0 @name("imap.sp")
  hidden let login = c == 5 && (command == "LOGIN" || command == "login")
  hidden let mailbox = c > 0 && (command == "SELECT" || command == "select" || command == "EXAMINE" || command == "examine"
    || command == "CREATE" || command == "create" || command == "DELETE" || command == "delete"
    || command == "SUBSCRIBE" || command == "subscribe" || command == "UNSUBSCRIBE" || command == "unsubscribe"
    || command == "STATUS" || command == "status" || command == "APPEND" || command == "append"
    || command == "RENAME" || command == "rename" || command == "SEARCH" || command == "search")
  hidden let a = login || mailbox ? {token_len(64, 'remaining()')} : 0
  username: string[a] if login && a > 0 @encoding("latin1") @name("imap.request.username")
  folder: string[a] if mailbox && a > 0 @encoding("latin1") @name("imap.request.folder")
  hidden let k3 = login && a > 0 ? {spaces(4, '0', 'remaining()')} : 0
  sp3: string[k3] if k3 > 0 @name("imap.sp")
  password: string[..] if login && a > 0 && remaining() > 0 @encoding("latin1") @name("imap.request.password")
  arguments: string[..] if remaining() > 0 @encoding("latin1") @name("imap.request.arguments")
}}

struct IMAPResponse {{
  hidden let t = {token_len(32, 'remaining()')}
  tag: string[t] if t > 0 @encoding("latin1") @name("imap.response_tag")
  hidden let k = {spaces(4, '0', 'remaining()')}
  sp: string[k] if k > 0 @name("imap.sp")
  hidden let s = {token_len(12, 'remaining()')}
  status: string[s] if s > 0 @encoding("latin1") @name("imap.response.status")
  hidden let k2 = {spaces(4, '0', 'remaining()')}
  sp2: string[k2] if k2 > 0 @name("imap.sp")
  hidden let c = {token_len(24, 'remaining()')}
  command: string[c] if c > 0 @encoding("latin1") @name("imap.response.command")
  text: string[..] if remaining() > 0 @encoding("latin1") @name("imap.response.text")
}}
"""
open(os.path.join(SCHEMAS, "imap.schema"), "w").write("// Generated by scripts/text-schemas/imap.py (its peek chains are unrolled there): edit it and run it again.\n" + s)
