#!/usr/bin/env python3
"""Oracle for Schemas/examples/protobuf.schema (root Person): writes protobuf.oracle.tsv from two
independent decoders of person.pb:

- `protoc --decode_raw` (Debian's protobuf-compiler 3.21.12), which knows no .proto: the records
  in wire order, their field numbers, nested messages, varints as unsigned numbers, fixed32 and
  fixed64 as hex, LEN records as escaped strings;
- Python's protobuf (PyPI protobuf 7.36.2) parsing person.pb as the Person message of PROTO below
  (compiled by protoc into a descriptor set): the typed values (sint32 and sint64 ZigZag, sfixed,
  float, double, packed arrays, strings), and each record's wire type from its field's type, by
  protobuf's own table (google.protobuf.internal.type_checkers.FIELD_TYPE_TO_WIRE_TYPE).

usage: python3 protobuf.oracle.py [--make-sample]   (--make-sample rewrites person.pb first)
"""
import codecs, os, re, subprocess, sys, tempfile
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.internal.type_checkers import FIELD_TYPE_TO_WIRE_TYPE

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

PROTO = r'''
syntax = "proto2";
package dissect.example;

message Person {
  optional string name = 1;
  optional int32 id = 2;
  optional int32 balance = 3;
  optional sint32 offset = 4;
  optional fixed32 flags = 5;
  optional fixed64 serial = 6;
  optional float ratio = 7;
  optional double score = 8;
  repeated int32 lucky = 9 [packed = true];
  repeated sint32 deltas = 10 [packed = true];
  repeated int32 votes = 11;
  repeated string tags = 12;
  repeated PhoneNumber phones = 13;
  optional Address address = 14;
  optional bytes avatar = 15;
  optional bool active = 16;
  optional uint64 limit = 17;
  optional sfixed32 drift = 18;
  optional sfixed64 epoch = 19;
  optional sint64 skew = 2000;
}
message PhoneNumber {
  enum Kind { MOBILE = 0; HOME = 1; WORK = 2; }
  optional string number = 1;
  optional Kind kind = 2;
}
message Address {
  optional string street = 1;
  optional string city = 2;
  optional Geo geo = 3;
}
message Geo {
  optional sfixed32 lat_e7 = 1;
  optional sfixed32 lon_e7 = 2;
}
'''

here = os.path.dirname(os.path.abspath(__file__))
sample = os.path.join(here, "person.pb")

with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "person.proto"), "w") as out:
        out.write(PROTO)
    subprocess.run(["protoc", "-I", tmp, "--descriptor_set_out", os.path.join(tmp, "person.desc"),
                    os.path.join(tmp, "person.proto")], check=True)
    files = descriptor_pb2.FileDescriptorSet.FromString(open(os.path.join(tmp, "person.desc"), "rb").read())
pool = descriptor_pool.DescriptorPool()
for file in files.file:
    pool.Add(file)
Person = message_factory.GetMessageClass(pool.FindMessageTypeByName("dissect.example.Person"))

if "--make-sample" in sys.argv:
    person = Person(name="Ada Lovelace", id=1815, balance=-123, offset=-300, flags=0xDEADBEEF,
                    serial=0x0123456789ABCDEF, ratio=0.75, score=-2.5, lucky=[7, 300, 70000],
                    deltas=[-1, 1, -64, 64], votes=[3, 150], tags=["math", "engine"],
                    avatar=bytes([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]), active=True, limit=2**64 - 1,
                    drift=-42, epoch=-1700000000, skew=-5000000000)
    person.phones.add(number="+44 20 7946 0000", kind=1)
    person.phones.add(number="+44 7700 900123")
    person.address.street = "12 St James's Square"
    person.address.city = "London"
    person.address.geo.lat_e7 = 515074000
    person.address.geo.lon_e7 = -1344000
    with open(sample, "wb") as out:
        out.write(person.SerializeToString())

data = open(sample, "rb").read()
person = Person.FromString(data)

# protoc --decode_raw: "N: value" and "N {" ... "}" lines, into [(number, raw value or list)].
raw = subprocess.run(["protoc", "--decode_raw"], input=data, capture_output=True, check=True).stdout.decode()
def parse(lines):
    records = []
    while lines:
        line = lines.pop(0).strip()
        if line == "}":
            break
        if line.endswith("{"):
            records.append((int(line[:-1].strip()), parse(lines)))
        else:
            number, _, value = line.partition(": ")
            if value.startswith('"'):
                value = codecs.escape_decode(value[1:-1].encode("latin-1"))[0]
            elif value.startswith("0x"):
                value = ("hex", int(value, 16))
            else:
                value = int(value)
            records.append((int(number), value))
    return records
records = parse(raw.splitlines())

rows = Rows()
row = rows.add

def walk(records, message, path, numbers):
    """records: decode_raw's records of `message` (the typed Python object); numbers: whether to
    write each record's field number."""
    seen = {}
    for i, (number, raw_value) in enumerate(records):
        base = f"{path}.fields[{i}]"
        field = message.DESCRIPTOR.fields_by_number[number]
        k = seen.get(number, 0)
        seen[number] = k + 1
        typed = getattr(message, field.name)
        if numbers:
            row(f"{base}.field_number", number)
            # The wire type protobuf's encoder gives the field's type (LEN for a packed array).
            packed = field.is_repeated and field.is_packed
            row(f"{base}.wire_type", 2 if packed else FIELD_TYPE_TO_WIRE_TYPE[field.type])
        if field.type == field.TYPE_MESSAGE:
            sub = typed[k] if field.is_repeated else typed
            row(f"{base}.length", sub.ByteSize())
            walk(raw_value, sub, f"{base}.value", numbers)
        elif field.is_repeated and field.is_packed:
            for j, element in enumerate(typed):        # decode_raw shows the packed bytes only
                row(f"{base}.value[{j}]", element)
        else:
            value = typed[k] if field.is_repeated else typed
            if field.type == field.TYPE_STRING:
                assert raw_value == value.encode()
                row(f"{base}.length", len(raw_value))
                row(f"{base}.value", value)
            elif field.type == field.TYPE_BYTES:
                row(f"{base}.value", raw_value)                       # decode_raw's bytes
            elif field.type in (field.TYPE_SINT32, field.TYPE_SINT64, field.TYPE_SFIXED32,
                                field.TYPE_SFIXED64, field.TYPE_FLOAT, field.TYPE_DOUBLE):
                row(f"{base}.value", value)                           # the typed value
            else:
                row(f"{base}.value", raw_value[1] if isinstance(raw_value, tuple) else raw_value)

walk(records, person, "protobuf", True)

rows.write("protobuf", "Person", "person.pb")
print(f"{len(rows)} values")
