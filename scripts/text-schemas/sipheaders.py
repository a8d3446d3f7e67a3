"""The SIP headers whose values tshark splits (Via, From, To, Contact) and SIP URIs, for sip.py."""
from chains import spaces


def first_of(chars, limit, bound):
    """Index of the first byte among `chars` within `limit` bytes and before `bound`, else `bound`
    (0 for a negative bound)."""
    window = bound if bound == "remaining()" else f"min({limit}, {bound})"
    if bound == "remaining()":
        window = str(limit)
    search = f"find({chars[0]}, {window})" if len(chars) == 1 else \
        'find_any(x"' + "".join(c[2:].lower() for c in chars) + f'", {window})'
    otherwise = bound if bound == "remaining()" else f"max({bound}, 0)"
    return f"({search} < 0 ? {otherwise} : {search})"


def uri_struct(name, prefix):
    """A SIP URI (sip:user@host:port;params) within its @size: tshark's <prefix>.user, .host, .port."""
    return f"""struct {name} {{
  hidden let sc = {first_of(['0x3A'], 6, 'remaining()')}
  scheme: string[sc + 1] if sc < remaining() @encoding("ascii") @name("sip.uri.scheme")
  hidden let at = {first_of(['0x40'], 64, 'remaining()')}
  user: string[at] if at > 0 && at < remaining() @encoding("latin1") @name("{prefix}.user")
  at_sign: string[1] if at < remaining() @name("sip.delimiter")
  hidden let h = {first_of(['0x3A', '0x3B', '0x3F'], 64, 'remaining()')}
  host: string[h] if h > 0 @encoding("latin1") @name("{prefix}.host")
  port_colon: string[1] if remaining() > 0 && peek(0) == 0x3A @name("sip.delimiter")
  hidden let pl = has(port_colon) ? {first_of(['0x3B', '0x3F'], 8, 'remaining()')} : 0
  port: string[pl] if pl > 0 @encoding("ascii") @name("{prefix}.port")
  param: string[..] if remaining() > 0 @encoding("latin1") @name("{prefix}.param")
}}
"""


def name_addr_struct(name, prefix, addr, uri):
    """From, To, Contact: [display-name] <URI> or a bare URI, then ;params (From's and To's tag by
    its name); a value longer than 160 bytes is not split."""
    tag = "" if prefix == "sip.contact" else f"""  hidden let e2 = e1 - (has(addr) ? gt : 0) - (has(rangle) ? 1 : 0)
  tag_key: string[5] if e2 >= 5 && peek_caseless(0, ";tag=") @name("sip.delimiter")
  hidden let tl = has(tag_key) ? {first_of(['0x3B', '0x0D'], 64, 'e2 - 5')} : 0
  tag: string[tl] if tl > 0 @encoding("latin1") @name("{prefix}.tag")
"""
    return f"""struct {name}(c: i16) {{
  name: string[c] @encoding("latin1") @name("sip.header.name")
  colon: string[1] @name("sip.header.colon")
  hidden let k = {spaces(4, '0', 'remaining()')}
  sp: string[k] if k > 0 @name("sip.sp")
  // The value's end (its CR), looked for in 160 bytes.
  hidden let cr = {first_of(['0x0D'], 160, 'remaining()')}
  hidden let ok = cr < remaining() && peek(cr) == 0x0D
  hidden let lt = ok ? {first_of(['0x3C'], 100, 'cr')} : cr
  hidden let angle = ok && lt < cr
  display: string[lt] if angle && lt > 0 @encoding("utf-8") @name("{prefix}.display.info")
  langle: string[1] if angle @name("sip.delimiter")
  hidden let e1 = cr - (angle ? lt + 1 : 0)
  hidden let gt = !ok ? 0 : angle ? {first_of(['0x3E'], 100, 'e1')} : {first_of(['0x3B'], 100, 'e1')}
  addr: {uri} if ok && gt > 0 @size(gt) @name("{addr}")
  rangle: string[1] if angle && gt < e1 @name("sip.delimiter")
{tag}  rest: string[until "\\r\\n"] @encoding("latin1") @name("sip.header.value")
}}
"""


VIA = f"""// Via: SIP/2.0/transport sent-by[:port];branch=...;other params.
struct SIPVia(c: i16) {{
  name: string[c] @encoding("latin1") @name("sip.header.name")
  colon: string[1] @name("sip.header.colon")
  hidden let k = {spaces(4, '0', 'remaining()')}
  sp: string[k] if k > 0 @name("sip.sp")
  hidden let proto = remaining() > 12 && peek(0, "SIP/") && peek(7) == 0x2F
  protocol: string[8] if proto @encoding("ascii") @name("sip.Via.sent-protocol")
  hidden let tl = proto ? {first_of(['0x20', '0x0D'], 8, 'remaining()')} : 0
  transport: string[tl] if tl > 0 @encoding("ascii") @name("sip.Via.transport")
  sp2: string[1] if proto && remaining() > 0 && peek(0) == 0x20 @name("sip.sp")
  hidden let al = has(sp2) ? {first_of(['0x3A', '0x3B', '0x0D'], 64, 'remaining()')} : 0
  address: string[al] if al > 0 @encoding("latin1") @name("sip.Via.sent-by.address")
  port_colon: string[1] if al > 0 && remaining() > 0 && peek(0) == 0x3A @name("sip.delimiter")
  hidden let pl = has(port_colon) ? {first_of(['0x3B', '0x0D'], 8, 'remaining()')} : 0
  port: string[pl] if pl > 0 @encoding("ascii") @name("sip.Via.sent-by.port")
  branch_key: string[8] if al > 0 && remaining() > 8 && peek(0, ";branch=") @name("sip.delimiter")
  hidden let bl = has(branch_key) ? {first_of(['0x3B', '0x0D'], 64, 'remaining()')} : 0
  branch: string[bl] if bl > 0 @encoding("latin1") @name("sip.Via.branch")
  rest: string[until "\\r\\n"] @encoding("latin1") @name("sip.header.value")
}}
"""

STRUCTURED = "\n".join([
    VIA,
    name_addr_struct("SIPFrom", "sip.from", "sip.from.addr", "SIPFromURI"), uri_struct("SIPFromURI", "sip.from"),
    name_addr_struct("SIPTo", "sip.to", "sip.to.addr", "SIPToURI"), uri_struct("SIPToURI", "sip.to"),
    name_addr_struct("SIPContact", "sip.contact", "sip.contact.uri", "SIPContactURI"), uri_struct("SIPContactURI", "sip.contact"),
    uri_struct("SIPRequestURI", "sip.r-uri"),
])
STRUCTS = {"Via": "SIPVia", "From": "SIPFrom", "To": "SIPTo", "Contact": "SIPContact"}
