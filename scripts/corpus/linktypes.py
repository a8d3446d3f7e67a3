#!/usr/bin/env python3
"""Crafted captures of link types no Linux interface here can give (scripts/capture-linktypes.sh):
the bytes libpcap would write for each, built by hand, and their oracles.

    python3 scripts/corpus/linktypes.py [can] ...
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import write_capture  # noqa: E402

CAN_EFF, CAN_RTR, CAN_ERR = 0x80000000, 0x40000000, 0x20000000


def can(can_id, data, flags=0, dlc=None):
    """struct can_frame as LINKTYPE_CAN_SOCKETCAN has it: the ID word big-endian, 16 bytes."""
    length = len(data) if dlc is None else dlc
    return struct.pack(">IBBBB", can_id | flags, length, 0, 0, 0) + bytes(data).ljust(8, b"\0")


def canfd(can_id, data, fd_flags=0x04, flags=0):
    """struct canfd_frame: 72 bytes; fd_flags CANFD_BRS 0x01, CANFD_ESI 0x02, CANFD_FDF 0x04."""
    return struct.pack(">IBBBB", can_id | flags, len(data), fd_flags, 0, 0) + bytes(data).ljust(64, b"\0")


def can_capture():
    frames = [
        # OBD-II over ISO-TP: a request for the engine speed (service 01, PID 0C) and its answer.
        can(0x7DF, b"\x02\x01\x0c\x55\x55\x55\x55\x55"),
        can(0x7E8, b"\x04\x41\x0c\x1a\xf8\x00\x00\x00"),
        # Short standard frames, an empty one, remote transmission requests.
        can(0x123, b"\xde\xad\xbe\xef"),
        can(0x100, b""),
        can(0x7FF, b"", CAN_RTR, dlc=2),
        # Extended (29-bit) IDs: a J1939 engine message (PGN 61444) and an RTR.
        can(0x0CF00400, b"\xf0\x7d\x7d\x00\x00\x00\xf0\x7d", CAN_EFF),
        can(0x18FEF100, b"", CAN_EFF | CAN_RTR, dlc=8),
        # Error frames (linux/can/error.h): controller warning, lost arbitration in bit 12,
        # a protocol violation (stuff error in the ID), transceiver CANH short to ground, bus off.
        can(0x004, b"\x00\x04\x00\x00\x00\x00\x00\x00", CAN_ERR),
        can(0x002, b"\x0c\x00\x00\x00\x00\x00\x00\x00", CAN_ERR),
        can(0x008 | 0x080, b"\x00\x00\x04\x07\x00\x00\x00\x00", CAN_ERR),
        can(0x010, b"\x00\x00\x00\x00\x04\x00\x00\x00", CAN_ERR),
        can(0x040 | 0x020, b"\x00\x00\x00\x00\x00\x00\x7f\x80", CAN_ERR),
        # CAN FD: bit rate switch, error state indicator, a full 64-byte frame with an extended ID.
        canfd(0x321, bytes(range(12)), 0x04 | 0x01),
        canfd(0x322, bytes(range(20, 28)), 0x04 | 0x02),
        canfd(0x12345, bytes(range(64)), 0x04, CAN_EFF),
    ]
    write_capture("can", 227, frames)


CAPTURES = {"can": can_capture}

if __name__ == "__main__":
    for name in sys.argv[1:] or CAPTURES:
        CAPTURES[name]()
