#!/usr/bin/env python3
"""Oracle for Schemas/examples/pcap.schema: the values PyPI's dpkt (1.9.8) reads from sample.pcap,
written as pcap.oracle.tsv.

    pip install dpkt==1.9.8 && python3 Corpus/examples/formats/pcap.oracle.py

dpkt.pcap.Reader reads the file header (choosing the byte order by the magic) and each packet's
timestamp and data; its timestamp is one number, so each record header is also parsed with the
header class the Reader itself picks for the file's magic (dpkt.pcap.MAGIC_TO_PKT_HDR), which
gives the seconds and microseconds apart and the two lengths.
"""
import os, sys
import dpkt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "sample.pcap")
rows = Rows()
row = rows.add

with open(SAMPLE, "rb") as handle:
    reader = dpkt.pcap.Reader(handle)
    packets = list(reader)
    header = reader._Reader__fh          # the FileHdr or LEFileHdr the Reader chose
    record_header = reader._Reader__ph   # PktHdr or LEPktHdr

row("pcap.header.magic_number", header.magic)   # as read in the file's own byte order
row("pcap.header.major_version", header.v_major)
row("pcap.header.minor_version", header.v_minor)
row("pcap.header.reserved1", header.thiszone)
row("pcap.header.reserved2", header.sigfigs)
row("pcap.header.snap_len", header.snaplen)
row("pcap.header.link_type_and_info", header.linktype)
row("pcap.header.link_type", reader.datalink())

data = open(SAMPLE, "rb").read()
offset = len(header)
for i, (timestamp, packet) in enumerate(packets):
    record = record_header(data[offset:offset + record_header.__hdr_len__])
    path = f"pcap.records[{i}]"
    assert record.tv_sec + record.tv_usec / 1e6 == timestamp
    row(path + ".ts_sec", record.tv_sec)
    row(path + ".ts_usec", record.tv_usec)
    row(path + ".incl_len", record.caplen)
    row(path + ".orig_len", record.len)
    row(path + ".data", packet.hex())
    offset += len(record) + record.caplen
assert offset == len(data)

rows.write("pcap", "PcapFile", "sample.pcap")
print(f"{len(rows)} values")
