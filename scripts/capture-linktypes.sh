#!/usr/bin/env bash
# Captures of link types no other schema claimed (issue 30), with the oracle files the tests
# compare with (Corpus/oracle/<name>.json and <name>.checksums.tsv, tshark's dissection).
#
#   scripts/capture-linktypes.sh [can] ...     (needs python3 and tshark)
#
# All are CRAFTED (scripts/corpus/linktypes.py writes the bytes libpcap would write), because
# nothing here can capture them:
#   can.pcap    LINKTYPE_CAN_SOCKETCAN (227): CAN frames (OBD-II request and answer, standard
#               and extended IDs, remote transmission requests, an empty frame), error frames of
#               five classes (controller, lost arbitration, protocol violation with bus error,
#               transceiver, no ACK with bus off) and CAN FD frames (bit rate switch, error state
#               indicator, 64 bytes with an extended ID). Crafted: this container's kernel has no
#               vcan module (`ip link add type vcan` fails: "Unknown device type"), so neither
#               candump nor tcpdump on a vcan interface can give real frames.
#
# Deterministic: fixed timestamps, no randomness; running again rewrites the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/corpus/linktypes.py "$@"
