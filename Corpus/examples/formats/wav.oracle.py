#!/usr/bin/env python3
"""Oracle for Schemas/examples/wav.schema: Python's standard library reads sample.wav.

`wave` gives the format (channels, sample width, frame rate, frame count, the frames themselves,
each sample little-endian, unsigned at 8 bits and signed above);
`chunk` (deprecated, present through Python 3.12) walks the RIFF chunks: their ids and sizes, the
LIST chunk's type and its INFO chunks' text. Writes wav.oracle.tsv beside this file.

    python3 Corpus/examples/formats/wav.oracle.py
"""
import os, sys, warnings, wave

warnings.simplefilter("ignore", DeprecationWarning)
import chunk  # noqa: E402 (deprecated: imported after the filter)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sample = os.path.join(here, "sample.wav")
rows = Rows()
row = rows.add

def chunks(parent):
    """The chunks in `parent`, in turn, each skipped past once the loop is done with it."""
    while True:
        try:
            ck = chunk.Chunk(parent, bigendian=False, align=True)
        except EOFError:
            return
        yield ck
        ck.skip()

# The sample's format, as wave reads it.
with wave.open(sample, "rb") as w:
    channels, sample_width, frame_rate, frame_count = w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()
    compression = w.getcomptype()
    frames = w.readframes(frame_count)

# The chunks, as chunk walks them (little-endian sizes, odd sizes padded to even).
with open(sample, "rb") as f:
    riff = chunk.Chunk(f, bigendian=False, align=True)
    row("wav.ck_id", riff.getname().decode("ascii"))
    row("wav.ck_size", riff.getsize())
    row("wav.form_type", riff.read(4).decode("ascii"))
    for index, ck in enumerate(chunks(riff)):
        name = ck.getname().decode("ascii")
        base = f"wav.chunks[{index}]"
        row(f"{base}.ck_id", name)
        row(f"{base}.ck_size", ck.getsize())
        if name == "fmt ":
            # wave accepts only WAVE_FORMAT_PCM (it raised 'unknown format' otherwise).
            assert compression == "NONE"
            row(f"{base}.ck_data.format_tag", wave.WAVE_FORMAT_PCM)
            row(f"{base}.ck_data.channels", channels)
            row(f"{base}.ck_data.samples_per_sec", frame_rate)
            row(f"{base}.ck_data.bits_per_sample", sample_width * 8)
        elif name == "data":
            # The samples wave read, each channel's in turn: 8-bit unsigned, wider signed.
            assert ck.getsize() == frame_count * channels * sample_width
            row(f"{base}.ck_data.samples", frame_count * channels)
            for i in range(frame_count * channels):
                sample = frames[i * sample_width:(i + 1) * sample_width]
                row(f"{base}.ck_data.samples[{i}]", int.from_bytes(sample, "little", signed=sample_width > 1))
        elif name == "LIST":
            list_type = ck.read(4).decode("ascii")
            row(f"{base}.ck_data.list_type", list_type)
            for sub_index, sub in enumerate(chunks(ck)):
                sub_base = f"{base}.ck_data.chunks[{sub_index}]"
                row(f"{sub_base}.ck_id", sub.getname().decode("ascii"))
                row(f"{sub_base}.ck_size", sub.getsize())
                if list_type == "INFO":   # ZSTR: the text, then its NUL
                    row(f"{sub_base}.ck_data", sub.read().rstrip(b"\0").decode("ascii"))

rows.write("wav", "WAV", "sample.wav")
