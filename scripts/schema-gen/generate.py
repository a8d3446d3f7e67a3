#!/usr/bin/env python3
"""Writes Schemas/memcache.schema and Schemas/mongo.schema from the templates beside this file.
Where a token ends is a `find_any` written out here: @CMDLEN@, @KEYLEN@, @NUMLEN@ (the first
space or CR among a text token's first 16, 250 or 20 bytes, else as many as there are);
@DIGITS@ (a number of up to 8 digits, -1 if not one) is a chain, as the language has no
decimal parse. Edit a template, then run:

    python3 scripts/schema-gen/generate.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "..", "..", "Schemas")


def token_length(maxlen):
    search = f'find_any(" \\r", {maxlen})'
    return f"({search} < 0 ? min(remaining(), {maxlen}) : {search})"


def digits(maxdigits):
    out = []
    for n in range(1, maxdigits + 1):
        end = f"remaining() > {n} && (peek({n}) == 0x20 || peek({n}) == 0x0D)"
        each = " && ".join(f"peek({i}) >= 0x30 && peek({i}) <= 0x39" for i in range(n))
        value = " + ".join(f"(peek({i}) - 48) * {10 ** (n - 1 - i)}" for i in range(n))
        out.append(f"{end} ? ({each} ? {value} : -1)")
    return "(" + " : ".join(out) + " : -1)"


SUBSTITUTIONS = {
    "@CMDLEN@": token_length(16), "@KEYLEN@": token_length(250), "@NUMLEN@": token_length(20),
    "@DIGITS@": digits(8),
}
NOTE = "// Written by scripts/schema-gen/generate.py from scripts/schema-gen/{0}.schema.in: edit that, then run it.\n"

for name in ("memcache", "mongo"):
    text = open(os.path.join(HERE, name + ".schema.in")).read()
    for key, value in SUBSTITUTIONS.items():
        text = text.replace(key, value)
    with open(os.path.join(SCHEMAS, name + ".schema"), "w") as out:
        out.write(NOTE.format(name) + text)
    print(f"wrote Schemas/{name}.schema")
