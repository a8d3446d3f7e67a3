"""Generates the text protocols' schemas (Schemas/ftp, smtp, pop, imap, telnet, irc and rtsp.schema),
whose token lengths and line positions are long chains of peeks, unrolled here:

    python3 scripts/text-schemas/ftp.py     (and mail.py for smtp and pop, imap.py, telnet.py, irc.py, rtsp.py)

The schemas are the source the tools read; edit the generator and run it again rather than the
chains by hand. Each chain looks a bounded number of bytes ahead (the schema language has no
search but a string's terminator, which the field's bytes then include), one nesting level a
byte, within the checker's 128 levels.
"""
import os

SCHEMAS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "Schemas")

def D(i, bound="remaining()"):
    return f"({bound} > {i} && peek({i}) >= 0x30 && peek({i}) <= 0x39)"
def first_digit(limit, bound):
    # index of the first digit within `limit` bytes (and within bound), else -1
    s = "-1"
    for i in reversed(range(limit)):
        s = f"{bound} > {i} && peek({i}) >= 0x30 && peek({i}) <= 0x39 ? {i} : ({s})" if False else f"{D(i, bound)} ? {i} : {s}"
    return s
def token_len(limit, bound, start=None):
    # length of the token up to the first space within bound (n): at most limit, else bound
    s = f"{bound}"
    for i in reversed(range(limit)):
        p = f"{start} + {i}" if start else f"{i}"
        s = f"{bound} <= {i} || peek({p}) == 0x20 ? {i} : {s}"
    return f"({s})"
def spaces(limit, start, bound):
    s = f"{limit}"
    for i in reversed(range(limit)):
        s = f"{bound} <= {start} + {i} || peek({start} + {i}) != 0x20 ? {i} : {s}"
    return f"({s})"
