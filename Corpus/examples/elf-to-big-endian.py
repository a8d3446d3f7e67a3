#!/usr/bin/env python3
"""Re-encodes a little-endian ELF64 file big-endian: the ELF header and the section header
table are byte-swapped field by field, EI_DATA becomes 2 and e_machine SPARC V9 (43), a
big-endian machine, so readelf shows it as such. Section contents are copied unchanged (the
example schema does not read them, except the section name string table, which is bytes).

    elf-to-big-endian.py elf64-le.o elf64-be.o
"""
import struct
import sys

source = bytearray(open(sys.argv[1], "rb").read())
assert source[:4] == b"\x7fELF" and source[4] == 2 and source[5] == 1, "a little-endian ELF64 file"
header_format = "HHIQQQIHHHHHH"
fields = list(struct.unpack_from("<" + header_format, source, 16))
fields[1] = 43  # e_machine: EM_SPARCV9
out = bytearray(source)
out[5] = 2  # EI_DATA: ELFDATA2MSB
struct.pack_into(">" + header_format, out, 16, *fields)
shoff, shentsize, shnum = fields[5], fields[10], fields[11]
section_format = "IIQQQQIIQQ"
for index in range(shnum):
    offset = shoff + index * shentsize
    struct.pack_into(">" + section_format, out, offset, *struct.unpack_from("<" + section_format, source, offset))
open(sys.argv[2], "wb").write(out)
