#!/usr/bin/env python3
"""Oracle for Schemas/examples/midi.schema: mido reads sample.mid.

The values are mido's: the file's type, ticks per beat and tracks, each message's type, delta time
and data. mido's reader does not keep the chunk headers nor whether a message had its own status
byte, so this script wraps two of its reader's functions (in mido.midifiles.midifiles) to record
what they saw: read_chunk_header (each chunk's type and length) and read_message (whose peek_data
holds the first data byte when the status came from running status).

An event with running status has no `status` in the schema; its `running_status` is the status
byte of the message mido read (mido's own encoding of the message starts with it).

    python3 Corpus/examples/formats/midi.oracle.py
"""
import os, sys
import mido
import mido.midifiles.midifiles as reader

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sample = os.path.join(here, "sample.mid")

chunk_headers, running = [], []
original_read_chunk_header, original_read_message = reader.read_chunk_header, reader.read_message

def read_chunk_header(infile):
    name, size = original_read_chunk_header(infile)
    chunk_headers.append((name.decode("ascii"), size))
    return name, size

def read_message(infile, status_byte, peek_data, delta, clip=False):
    running.append(bool(peek_data))
    return original_read_message(infile, status_byte, peek_data, delta, clip)

reader.read_chunk_header, reader.read_message = read_chunk_header, read_message
mid = mido.MidiFile(sample)

rows = Rows()
row = rows.add

header_type, header_length = chunk_headers[0]
row("midi.header.chunk_type", header_type)
row("midi.header.length", header_length)
row("midi.header.format", mid.type)
row("midi.header.ntrks", len(mid.tracks))
row("midi.header.ticks_per_quarter_note", mid.ticks_per_beat)

channel_messages = iter(running)
for t, track in enumerate(mid.tracks):
    chunk_type, length = chunk_headers[1 + t]
    row(f"midi.tracks[{t}].chunk_type", chunk_type)
    row(f"midi.tracks[{t}].length", length)
    for event, msg in enumerate(track):
        path = f"midi.tracks[{t}].events[{event}]"
        # The status byte (mido's own encoding of the message starts with it): an event with
        # running status has none of its own; of the meta events (0xFF), only the first's.
        if not msg.is_meta and msg.type != "sysex":
            row(f"{path}.running_status", msg.bytes()[0])
            if not next(channel_messages):
                row(f"{path}.status", msg.bytes()[0])
        elif (t, event) == (0, 0):
            row(f"{path}.status", msg.bytes()[0])
        if msg.time:
            row(f"{path}.delta_time.value", msg.time)
        if msg.is_meta:
            row(f"{path}.event.type", msg.bytes()[1])
            if msg.type == "track_name":
                row(f"{path}.event.data", msg.name)
            elif msg.type == "set_tempo":
                row(f"{path}.event.data", msg.tempo)
            elif msg.type == "time_signature":
                row(f"{path}.event.data.numerator", msg.numerator)
                row(f"{path}.event.data.denominator", msg.denominator.bit_length() - 1)  # 2^-dd
                row(f"{path}.event.data.clocks_per_click", msg.clocks_per_click)
                row(f"{path}.event.data.notated_32nd_notes_per_beat", msg.notated_32nd_notes_per_beat)
        elif msg.type in ("note_on", "note_off"):
            row(f"{path}.event.note", msg.note)
            if msg.type == "note_on":
                row(f"{path}.event.velocity", msg.velocity)
        elif msg.type == "control_change":
            row(f"{path}.event.channel", msg.channel)
            row(f"{path}.event.controller", msg.control)
            row(f"{path}.event.value", msg.value)
        elif msg.type == "program_change":
            row(f"{path}.event.channel", msg.channel)
            row(f"{path}.event.program", msg.program)

rows.write("midi", "MIDI", "sample.mid")
