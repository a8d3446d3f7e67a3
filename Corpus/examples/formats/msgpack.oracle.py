#!/usr/bin/env python3
"""Oracle for Schemas/examples/msgpack.schema: PyPI msgpack 1.2.4 unpacks sample.msgpack and a walk
over the unpacked objects writes msgpack.oracle.tsv, each value at its path in the schema's terms:
an object's scalar is `.value` (text for str, hex for bin), an array's `.size` and
`.elements[i]`, a map's `.size` and `.entries[i].key` / `.value` (msgpack keeps the wire order of
a map's pairs), an ext's `.type` and `.data`, a timestamp's `.data.seconds` and
`.data.nanoseconds`. Containers of more than six elements below the top give their first two and last only.

usage: python3 msgpack.oracle.py [--make-sample]   (--make-sample rewrites sample.msgpack first)
"""
import os, sys
import msgpack
from msgpack import ExtType, Timestamp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sample = os.path.join(here, "sample.msgpack")

if "--make-sample" in sys.argv:
    # One map16 with a key per format family; float32 needs a packer of its own
    # (use_single_float), so the map's header and pairs are packed one by one.
    nested = 42
    for _ in range(32):
        nested = [nested]
    entries = [
        ("positive_fixint", [0, 127]),
        ("negative_fixint", [-1, -32]),
        ("uint", [200, 60000, 4000000000, 2**64 - 1]),
        ("int", [-100, -30000, -2**31, -2**63]),
        ("float32", 1.5),
        ("float64", 0.1),
        ("nil", None),
        ("bool", [True, False]),
        ("fixstr", "héllo"),
        ("str8", "MessagePack is an efficient binary serialization format."),
        ("str16", "It lets you exchange data among multiple languages like JSON. " * 5),
        ("bin8", bytes(range(0, 256, 17))),
        ("array16", list(range(16))),
        ("fixmap", {"a": 1, "b": [2]}),
        ("map16", {f"k{i:02}": i * i for i in range(16)}),
        ("ext", [ExtType(1, b"\x01"), ExtType(2, b"ab"), ExtType(3, b"abcd"), ExtType(4, bytes(8)),
                 ExtType(5, bytes(range(16))), ExtType(6, b"seven!!")]),
        ("timestamp", [Timestamp(1700000000, 0), Timestamp(1700000000, 123456789), Timestamp(-1, 500000000)]),
        ("nested", nested),
    ]
    double = msgpack.Packer()
    single = msgpack.Packer(use_single_float=True)
    data = double.pack_map_header(len(entries))
    for key, value in entries:
        data += double.pack(key) + (single if key == "float32" else double).pack(value)
    with open(sample, "wb") as out:
        out.write(data)

rows = Rows()
row = rows.add

def shown(n, top):
    return range(n) if n <= 6 or top else [0, 1, n - 1]

def walk(obj, path, top=False):
    if obj is None:
        row(f"{path}.format", 0xC0)                     # nil is one byte, 0xc0
    elif isinstance(obj, (bool, int, float, bytes)):
        row(f"{path}.value", obj)
    elif isinstance(obj, str):
        if len(obj.encode("utf-8")) >= 32:             # str 8 and str 16: their length field
            row(f"{path}.length", len(obj.encode("utf-8")))
        row(f"{path}.value", obj)
    elif isinstance(obj, list):
        if len(obj) != 1:                               # not every level of the nested arrays
            row(f"{path}.size", len(obj))
        for i in shown(len(obj), top):
            walk(obj[i], f"{path}.elements[{i}]")
    elif isinstance(obj, dict):
        row(f"{path}.size", len(obj))
        pairs = list(obj.items())
        for i in shown(len(pairs), top):
            walk(pairs[i][0], f"{path}.entries[{i}].key")
            walk(pairs[i][1], f"{path}.entries[{i}].value")
    elif isinstance(obj, ExtType):
        row(f"{path}.type", obj.code)
        row(f"{path}.data", obj.data)
    elif isinstance(obj, Timestamp):
        row(f"{path}.type", -1)
        row(f"{path}.data.seconds", obj.seconds)
        # timestamp 32 (4 bytes) has seconds only: the spec's choice for nanoseconds 0 and
        # seconds that fit 32 bits
        if not (obj.nanoseconds == 0 and 0 <= obj.seconds < 2**32):
            row(f"{path}.data.nanoseconds", obj.nanoseconds)
    else:
        raise TypeError(type(obj))

unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
unpacker.feed(open(sample, "rb").read())
for i, obj in enumerate(unpacker):
    walk(obj, f"msgpack.objects[{i}]", top=True)

rows.write("msgpack", "MsgPack", "sample.msgpack")
print(f"{len(rows)} values")
