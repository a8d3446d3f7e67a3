#!/usr/bin/env python3
"""Writes Schemas/memcache.schema and Schemas/mongo.schema from the templates beside this file.
The language has no byte search yet, so where a token ends is an expression written out here:
@CMDLEN@, @KEYLEN@, @NUMLEN@ (the first space or CR among a text token's first 16, 64 or 20
bytes), @DIGITS@ (a number of up to 8 digits, -1 if not one), @NAMELEN@ (the first NUL among
a BSON element name's first 48 bytes). Edit a template, then run:

    python3 scripts/schema-gen/generate.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "..", "..", "Schemas")


def token_length(maxlen):
    parts = [f"remaining() <= {i} || peek({i}) == 0x20 || peek({i}) == 0x0D ? {i}" for i in range(maxlen)]
    return "(" + " : ".join(parts) + f" : {maxlen})"


def digits(maxdigits):
    out = []
    for n in range(1, maxdigits + 1):
        end = f"remaining() > {n} && (peek({n}) == 0x20 || peek({n}) == 0x0D)"
        each = " && ".join(f"peek({i}) >= 0x30 && peek({i}) <= 0x39" for i in range(n))
        value = " + ".join(f"(peek({i}) - 48) * {10 ** (n - 1 - i)}" for i in range(n))
        out.append(f"{end} ? ({each} ? {value} : -1)")
    return "(" + " : ".join(out) + " : -1)"


def nul_position(maxlen):
    parts = [f"remaining() <= {i} || peek({i}) == 0 ? {i}" for i in range(maxlen)]
    return "(" + " : ".join(parts) + f" : {maxlen})"


SUBSTITUTIONS = {
    "@CMDLEN@": token_length(16), "@KEYLEN@": token_length(64), "@NUMLEN@": token_length(20),
    "@DIGITS@": digits(8), "@NAMELEN@": nul_position(48),
}
NOTE = "// Written by scripts/schema-gen/generate.py from scripts/schema-gen/{0}.schema.in: edit that, then run it.\n"

for name in ("memcache", "mongo"):
    text = open(os.path.join(HERE, name + ".schema.in")).read()
    for key, value in SUBSTITUTIONS.items():
        text = text.replace(key, value)
    with open(os.path.join(SCHEMAS, name + ".schema"), "w") as out:
        out.write(NOTE.format(name) + text)
    print(f"wrote Schemas/{name}.schema")
