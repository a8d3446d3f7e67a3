#!/usr/bin/env python3
"""Writes Schemas/memcache.schema from memcache.schema.in beside it: the template's @KEYLEN@,
@CMDLEN@, @NUMLEN@ (where a token ends: the first space or CR among its first 64, 16 or 20 bytes)
and @DIGITS@ (a number of up to 8 digits) are written out as expressions, as the language has no
byte search yet. Edit the template, then run: python3 scripts/schema-gen/memcache.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
def toklen(maxlen):
    # length of the token at peek(0): up to a space or CR, at most maxlen
    parts = []
    for i in range(maxlen):
        parts.append(f"remaining() <= {i} || peek({i}) == 0x20 || peek({i}) == 0x0D ? {i}")
    return "(" + " : ".join(parts) + f" : {maxlen})"

def digits(maxd):
    # the number whose digits start at peek(0) and end at a space or CR; -1 if not digits
    out = []
    for n in range(1, maxd + 1):
        cond = f"remaining() > {n} && (peek({n}) == 0x20 || peek({n}) == 0x0D)"
        isdig = " && ".join(f"peek({i}) >= 0x30 && peek({i}) <= 0x39" for i in range(n))
        val = " + ".join(f"(peek({i}) - 48) * {10 ** (n - 1 - i)}" for i in range(n))
        out.append(f"{cond} ? ({isdig} ? {val} : -1)")
    return "(" + " : ".join(out) + " : -1)"

KEY = toklen(64)
CMD = toklen(16)
NUM = toklen(20)
DIG = digits(8)

schema = open(os.path.join(HERE, "memcache.schema.in")).read()
schema = schema.replace("@KEYLEN@", KEY).replace("@CMDLEN@", CMD).replace("@NUMLEN@", NUM).replace("@DIGITS@", DIG)
open(os.path.join(HERE, "..", "..", "Schemas", "memcache.schema"), "w").write(schema)
