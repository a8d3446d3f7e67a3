#!/usr/bin/env bash
# Captures of link types no other schema claimed (issue 30), with the oracle files the tests
# compare with (Corpus/oracle/<name>.json and <name>.checksums.tsv, tshark's dissection).
#
#   scripts/capture-linktypes.sh [can] [wpan] [wpan-nofcs] [fddi] [arcnet] [arcnet-bsd] [ipnet]
#                                [pktap] [vsock] [atm] [sll-linux] [slip]   (needs python3 and tshark)
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
#   wpan.pcap   LINKTYPE_IEEE802_15_4_WITHFCS (195): a small 6LoWPAN network's frames, each with
#               its FCS (CRC-16/KERMIT): beacon request and beacon (superframe specification),
#               association request (capability information), ack, data request, association
#               response; data frames with 6LoWPAN IPHC: ICMPv6 echo request and reply (addresses
#               elided, from the short MAC addresses), RPL DIO to ff02::1a (multicast compressed to
#               one byte), a DNS query over an inline UDP header (traffic class, flow label, hop
#               limit and global addresses inline), UDP compressed by NHC (4-bit ports, 64-bit
#               IIDs inline); uncompressed IPv6 (dispatch 0x41) with an ICMPv6 echo; a secured
#               frame (802.15.4-2006 auxiliary security header, ENC-MIC-32, key index 1).
#   wpan-nofcs.pcap  LINKTYPE_IEEE802_15_4_NOFCS (230): the same frames without their FCS.
#   wpan-frag.pcap  195 again: a 6LoWPAN datagram in two fragments (FRAG1 with the IPHC header,
#               FRAGN), and a mesh-addressed frame (short originator and final addresses).
#               Crafted: Linux's mac802154_hwsim could make real frames (wpan-tools' iwpan, lowpan
#               links), but this container has neither the module nor the tools.
#   fddi.pcap   LINKTYPE_FDDI (10): LLC/SNAP with ARP request and reply and an IPv4 ICMP echo and
#               its reply, an SMT NIF frame and a MAC beacon. No FDDI hardware here.
#   arcnet.pcap LINKTYPE_ARCNET_LINUX (129): RFC 1201 ARP request and reply (hardware type 7,
#               one-byte addresses), RFC 1201 IPv4 ICMP echo and reply, RFC 1051 IPv4 carrying a
#               DNS query. Linux has no ARCNET driver here (nor hardware).
#   arcnet-bsd.pcap  LINKTYPE_ARCNET_BSD (7): the same without the offset, the reply as an RFC
#               1201 exception packet.
#   ipnet.pcap  LINKTYPE_IPNET (226): Solaris/illumos IP observability: an outbound ICMP echo,
#               its inbound reply, a local ICMPv6 echo (family 26). Solaris only.
#   pktap.pcap  LINKTYPE_PKTAP (258): macOS's PKTAP: ping's echo on en0 (Ethernet) with the
#               process named, the reply, mDNSResponder's DNS query on lo0 (DLT_NULL), an ARP
#               request. macOS only.
#   vsock.pcap  LINKTYPE_VSOCK (271): a vsockmon capture of a guest (CID 3) talking to a host
#               service (CID 2, port 5000) over virtio: request, response, payload each way,
#               credit update, shutdown, reset, disconnect. Crafted: this kernel has no vsockmon
#               (`ip link add type vsockmon`: "Unknown device type") nor vsock_loopback.
#
#   atm-rfc1483.pcap, atm-clip.pcap, ppp-ether.pcap  (`atm`) LINKTYPE_ATM_RFC1483 (100: LLC/SNAP
#               with an ICMP echo and reply, an STP BPDU), LINKTYPE_ATM_CLIP (106: the echo and
#               reply as bare IPv4), LINKTYPE_PPP_ETHER (51: PPPoE sessions without Ethernet: LCP
#               echo request, IPCP configure request, IPv4). No ATM here; PPP_ETHER is a BSD DLT.
#   sll-linux.pcap  LINKTYPE_LINUX_SLL (113) with Linux's own protocol numbers, as `tcpdump -i
#               any` gives them: SocketCAN CAN frames (OBD-II request and answer, an extended ID,
#               an RTR; protocol 0x000C, the ID word little-endian) and a CAN FD frame (0x000D),
#               an STP BPDU as 802.2 LLC (0x0004), IEEE 802.15.4 frames with their FCS (0x00F6).
#               Crafted: no vcan or mac802154_hwsim here (see can.pcap and wpan.pcap).
#   slip.pcap   (in Corpus/depth) LINKTYPE_SLIP (8): an ICMP echo sent and its reply received, a DNS query, each
#               after libpcap's 16-byte SLIP pseudo-header. No serial line here. tshark 4.0 does
#               not dissect this link type (it shows the frames as data, so there is nothing for
#               the oracle tests to compare: the capture is in Corpus/depth); tcpdump -r does.
#
# Deterministic: fixed timestamps, no randomness; running again rewrites the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/corpus/linktypes.py "$@"
