"""Shared by the scripts in scripts/corpus/: each writes crafted captures into Corpus/captures
with tshark's dissection of them as the oracle (Corpus/oracle/<name>.json, and the checksum
verdicts as Corpus/oracle/<name>.checksums.tsv), the files BundledSchemaOracleTests and
ChecksumOracleTests compare with. Deterministic: fixed timestamps, no randomness, so running a
script again rewrites the same bytes.

    from common import write_capture
    write_capture("llc", 1, [frame_bytes, ...])        # link type 1: Ethernet

write_reassembly_capture and, for a capture made elsewhere, write_oracle(name, path, REASSEMBLY_OPTIONS,
REASSEMBLY) do the same into Corpus/reassembly with tshark's TCP reassembly and IP defragmentation on.
"""
import os
import struct
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAPTURES = os.path.join(ROOT, "Corpus", "captures")
ORACLE = os.path.join(ROOT, "Corpus", "oracle")
# 2026-01-01T00:00:00Z, one millisecond apart.
EPOCH = 1767225600

CHECKSUM_FIELDS = ["frame.number", "ip.checksum.status", "ip.checksum_calculated", "tcp.checksum.status",
                   "tcp.checksum_calculated", "udp.checksum.status", "udp.checksum_calculated",
                   "icmp.checksum.status", "icmpv6.checksum.status", "_ws.expert.message"]


def write_pcap(path, linktype, frames, snaplen=262144):
    """A classic little-endian microsecond pcap; each frame is bytes, or (bytes, original length)."""
    with open(path, "wb") as file:
        file.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, snaplen, linktype))
        for number, frame in enumerate(frames):
            data, original = frame if isinstance(frame, tuple) else (frame, len(frame))
            file.write(struct.pack("<IIII", EPOCH, number * 1000, len(data), original))
            file.write(bytes(data))


# tshark's preferences for the oracles of Corpus/reassembly: TCP reassembly and IP defragmentation on.
REASSEMBLY = os.path.join(ROOT, "Corpus", "reassembly")
REASSEMBLY_OPTIONS = ("-o", "tcp.desegment_tcp_streams:TRUE", "-o", "ip.defragment:TRUE", "-o", "ipv6.defragment:TRUE")


def write_oracle(name, path, tshark_options=(), directory=ORACLE):
    """tshark_options: preferences for the JSON dissection, e.g. ("-o", "tcp.desegment_tcp_streams:FALSE")
    so that tshark reads each TCP segment alone, as dissect does. directory: where <name>.json and
    <name>.checksums.tsv go."""
    with open(os.path.join(directory, name + ".json"), "w") as out:
        subprocess.run(["tshark", "-r", path, *tshark_options, "-T", "json", "-x", "--no-duplicate-keys"], stdout=out,
                       stderr=subprocess.DEVNULL, check=True)
    fields = []
    for field in CHECKSUM_FIELDS:
        fields += ["-e", field]
    rows = subprocess.run(["tshark", "-r", path, "-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE",
                           "-o", "udp.check_checksum:TRUE", "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=;",
                           *fields], capture_output=True, text=True, check=True).stdout
    header = "capture\tframe\tip\tip.calculated\ttcp\ttcp.calculated\tudp\tudp.calculated\ticmp\ticmpv6\texpert\n"
    with open(os.path.join(directory, name + ".checksums.tsv"), "w") as out:
        out.write(header)
        for line in rows.splitlines():
            out.write(f"{os.path.basename(path)}\t{line}\n")


def write_capture(name, linktype, frames, tshark_options=()):
    """Writes Corpus/captures/<name>.pcap and its oracle files; returns the capture's path."""
    os.makedirs(CAPTURES, exist_ok=True)
    path = os.path.join(CAPTURES, name + ".pcap")
    write_pcap(path, linktype, frames)
    write_oracle(name, path, tshark_options)
    print(f"{path}: {len(frames)} frames")
    return path


def write_reassembly_capture(name, linktype, frames):
    """Writes Corpus/reassembly/<name>.pcap and its oracle, made with reassembly on, beside it
    (outside Corpus/captures, which the per-frame oracle test reads)."""
    os.makedirs(REASSEMBLY, exist_ok=True)
    path = os.path.join(REASSEMBLY, name + ".pcap")
    write_pcap(path, linktype, frames)
    write_oracle(name, path, REASSEMBLY_OPTIONS, REASSEMBLY)
    print(f"{path}: {len(frames)} frames")
    return path
