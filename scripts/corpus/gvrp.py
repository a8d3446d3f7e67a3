#!/usr/bin/env python3
"""GVRP (IEEE 802.1Q clause 11, GARP of 802.1D clause 12) PDUs, crafted: no GVRP speaker runs
here (Linux's needs the 8021q module, which this machine's kernel lacks, and Debian packages
none in user space). Written as a Linux bridge's VLAN registration sends them: 802.3 frames to
01:80:c2:00:00:21 with an LLC header of SAPs 0x42 (the SAPs of STP, which is why dissect once
read them as STP BPDUs and called them malformed: issue 29), a protocol ID of 1, one message of
attribute type 1 (VID) with JoinIn, JoinEmpty, Empty, LeaveIn, LeaveEmpty and LeaveAll events,
each list and the PDU ended by an end mark. Deterministic (common.py's fixed timestamps).

    cd scripts/corpus && python3 gvrp.py
"""
import struct

from common import write_capture

SRC = bytes.fromhex("020000000a01")
DST = bytes.fromhex("0180c2000021")


def attribute(event, vid=None):
    """One attribute: length, event, and the VID (a LeaveAll, event 0, has none)."""
    if vid is None:
        return bytes([2, event])
    return bytes([4, event]) + struct.pack(">H", vid)


def frame(attributes):
    pdu = struct.pack(">H", 1) + bytes([1]) + b"".join(attributes) + b"\x00" + b"\x00"
    llc = bytes([0x42, 0x42, 0x03]) + pdu
    ethernet = DST + SRC + struct.pack(">H", len(llc)) + llc
    return ethernet + bytes(max(0, 60 - len(ethernet)))    # padded to the minimum frame


frames = [
    frame([attribute(0), attribute(2, 10), attribute(2, 20)]),    # LeaveAll, JoinIn 10, 20
    frame([attribute(1, 10)]),                                     # JoinEmpty 10
    frame([attribute(3, 30), attribute(4, 40), attribute(5, 50)]), # LeaveEmpty 30, LeaveIn 40, Empty 50
    frame([attribute(2, v) for v in range(100, 120)]),              # JoinIn for 20 VLANs
]
write_capture("gvrp", 1, frames)
