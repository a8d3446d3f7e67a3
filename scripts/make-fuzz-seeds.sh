#!/usr/bin/env bash
# Fills Corpus/fuzz/<target>/ with seeds: every frame of the corpus captures, behind the byte
# that picks its link type's root and says whether the capture cut it short (dissector and views), the
# schema files (schema), the capture files (pcap), encoder outputs of representative values
# (codable, roundtrip) and the example files behind the byte that picks their root (formats;
# both written by `dissect-fuzz seeds`). Rerun after adding captures or examples.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=Corpus/fuzz
mkdir -p "$corpus"/{dissector,views,schema,codable,roundtrip,pcap,formats,reassembly}

swift build --product dissect >/dev/null
.build/debug/dissect schema list > "$corpus/.roots"
python3 - "$corpus/dissector" "$corpus/.roots" Corpus/captures/*.pcap <<'PYTHON'
import re, struct, sys, os
out = sys.argv[1]
# Link type → index of its root in DissectorTarget.roots: the first eight fixed, then every other
# struct with a link type by name (from 8 on, whole frames only: the index is the low three bits
# plus 8 times the high four).
first = ["Ethernet", "SLL", "SLL2", "RawIP", "Null", "Loop", "IPv4", "IPv6"]
link_roots = {}
for line in open(sys.argv[2]):
    match = re.match(r"(\S+)\s.*linktype ([\d, ]+)", line)
    if match:
        link_roots[match.group(1)] = [int(value) for value in match.group(2).replace(" ", "").split(",") if value]
names = first + sorted(name for name in link_roots if name not in first)
roots = {link_type: names.index(name) for name, types in link_roots.items() for link_type in types}
for path in sys.argv[3:]:
    data = open(path, "rb").read()
    order = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    link_type = struct.unpack(order + "I", data[20:24])[0] & 0xFFFF
    if link_type not in roots:
        continue
    offset, number = 24, 0
    name = os.path.splitext(os.path.basename(path))[0]
    while offset + 16 <= len(data):
        captured, original = struct.unpack(order + "II", data[offset + 8:offset + 16])
        frame = data[offset + 16:offset + 16 + captured]
        number += 1
        root = roots[link_type]
        if root >= 8 and original > captured:
            continue
        first = root & 0x07 | (root >> 3) << 4
        if original > captured:
            # A frame the snapshot length cut short: bit 3, and 2^k >= the bytes not captured.
            first |= 0x08 | min(15, (original - captured - 1).bit_length()) << 4
        open(f"{out}/{name}-{number}", "wb").write(bytes([first]) + frame)
        offset += 16 + captured
PYTHON
rm -f "$corpus/.roots"
cp "$corpus"/dissector/* "$corpus/views/"

cp Schemas/*.schema "$corpus/schema/"
# An example named as a bundled schema (ber.schema) is kept apart.
for example in Schemas/examples/*.schema; do
  name=$(basename "$example")
  [[ -e "Schemas/$name" ]] && name="example-$name"
  cp "$example" "$corpus/schema/$name"
done
cp Corpus/captures/* "$corpus/pcap/"
swift build --product dissect-fuzz >/dev/null
.build/debug/dissect-fuzz seeds "$corpus"
for target in dissector views schema codable roundtrip pcap formats reassembly; do
  echo "$target: $(ls "$corpus/$target" | wc -l) seeds"
done
