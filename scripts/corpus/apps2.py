#!/usr/bin/python3
"""BGP, RADIUS, DHCPv6 and QUIC crafted with scapy (Ethernet, IP, TCP/UDP; RADIUS and DHCPv6 with
scapy's layers; BGP and QUIC from bytes assembled here). Writes Corpus/captures/<name>.pcap for
bgp, radius, dhcpv6 and quic (or for the names given as arguments) and its oracle (see common.py).
Every BGP message fits in its segment; one segment holds bytes that start no message.

    cd scripts/corpus && /usr/bin/python3 apps2.py [bgp ...]
"""
import struct
import sys

from scapy.all import IP, TCP, UDP, Ether, IPv6, Raw
from scapy.layers.dhcp6 import (DHCP6_Advertise, DHCP6_Reply, DHCP6_Request, DHCP6_Solicit, DHCP6OptClientId,
                                DHCP6OptDNSServers, DHCP6OptElapsedTime, DHCP6OptIA_NA, DHCP6OptIAAddress,
                                DHCP6OptOptReq, DHCP6OptServerId, DHCP6OptStatusCode, DUID_LL, DUID_LLT)
from scapy.layers.radius import Radius, RadiusAttribute

from common import write_capture

MAC_A, MAC_B = "00:11:22:33:44:55", "00:11:22:33:44:66"


def eth():
    return Ether(dst=MAC_B, src=MAC_A)


# BGP (RFC 4271) -----------------------------------------------------------------------------

def bgp_message(kind, body):
    return b"\xff" * 16 + struct.pack(">HB", 19 + len(body), kind) + body


def bgp_open(asn, ident, hold=90):
    caps = [
        bytes([1, 4]) + struct.pack(">HBB", 1, 0, 1),        # multiprotocol IPv4 unicast
        bytes([2, 0]),                                       # route refresh
        bytes([65, 4]) + struct.pack(">I", asn),             # 4-octet AS number
    ]
    params = b"".join(bytes([2, len(cap)]) + cap for cap in caps)
    return bgp_message(1, struct.pack(">BHH4sB", 4, asn, hold, bytes(map(int, ident.split("."))), len(params)) + params)


def prefix(text):
    address, length = text.split("/")
    length = int(length)
    octets = bytes(map(int, address.split(".")))
    return bytes([length]) + octets[:(length + 7) // 8]


def attribute(flags, kind, value):
    if flags & 0x10:
        return struct.pack(">BBH", flags, kind, len(value)) + value
    return struct.pack(">BBB", flags, kind, len(value)) + value


def bgp_update(withdrawn=(), attributes=(), nlri=()):
    withdrawn_bytes = b"".join(prefix(p) for p in withdrawn)
    attribute_bytes = b"".join(attributes)
    return bgp_message(2, struct.pack(">H", len(withdrawn_bytes)) + withdrawn_bytes
                       + struct.pack(">H", len(attribute_bytes)) + attribute_bytes + b"".join(prefix(p) for p in nlri))


def bgp_frames():
    sequence = {True: 1000, False: 5000}

    def segment(ident, payload, forward=True):
        ports = dict(sport=40000, dport=179) if forward else dict(sport=179, dport=40000)
        addresses = dict(src="10.0.0.1", dst="10.0.0.2") if forward else dict(src="10.0.0.2", dst="10.0.0.1")
        tcp = TCP(flags="PA", seq=sequence[forward], ack=sequence[not forward], **ports)
        sequence[forward] += len(payload)
        return bytes(eth() / IP(id=ident, **addresses) / tcp / Raw(payload))

    update = bgp_update(attributes=[
        attribute(0x40, 1, b"\x00"),                                               # ORIGIN IGP
        attribute(0x40, 2, bytes([2, 2]) + struct.pack(">HH", 65001, 65010)),       # AS_PATH: AS_SEQUENCE
        attribute(0x40, 3, bytes([10, 0, 0, 1])),                                  # NEXT_HOP
        attribute(0x80, 4, struct.pack(">I", 100)),                                # MULTI_EXIT_DISC
        attribute(0x40, 5, struct.pack(">I", 200)),                                # LOCAL_PREF
        attribute(0xC0, 8, struct.pack(">HHHH", 65001, 100, 65001, 200)),          # COMMUNITIES
    ], nlri=["192.0.2.0/24", "198.51.100.0/25", "10.0.0.0/8"])
    mp_reach = attribute(0x90, 14, struct.pack(">HBB", 2, 1, 16) + bytes.fromhex("20010db8000000000000000000000001")
                         + b"\x00" + bytes([32]) + bytes.fromhex("20010db8") + bytes([48]) + bytes.fromhex("20010db80001"))
    mp_unreach = attribute(0x90, 15, struct.pack(">HB", 2, 1) + bytes([64]) + bytes.fromhex("20010db800020000"))
    mp_update = bgp_update(attributes=[attribute(0x40, 1, b"\x02"), attribute(0x50, 2, b""), mp_reach])
    return [
        segment(1, bgp_open(65001, "10.0.0.1")),
        segment(2, bgp_open(65002, "10.0.0.2", hold=180), forward=False),
        segment(3, bgp_message(4, b"") + bgp_message(4, b""), forward=False),   # two KEEPALIVEs
        segment(4, update),
        segment(5, bgp_update(withdrawn=["203.0.113.0/24", "172.16.0.0/12"])),
        segment(6, mp_update + bgp_update(attributes=[mp_unreach])),
        segment(7, bgp_message(3, bytes([6, 2]) + b"bye"), forward=False),     # Cease, administrative shutdown
        segment(8, b"continued path attributes, not a message", forward=False),
    ]


# RADIUS (RFC 2865, 2866) --------------------------------------------------------------------

def radius_frames():
    authenticator = bytes(range(16))

    def datagram(ident, sport, dport, radius, forward=True):
        addresses = dict(src="192.0.2.10", dst="192.0.2.20") if forward else dict(src="192.0.2.20", dst="192.0.2.10")
        return bytes(eth() / IP(id=ident, **addresses) / UDP(sport=sport, dport=dport) / radius)

    request = Radius(code=1, id=1, authenticator=authenticator, attributes=[
        RadiusAttribute(type=1, value=b"alice"),                        # User-Name
        RadiusAttribute(type=2, value=bytes(range(0x40, 0x50))),        # User-Password (hidden)
        RadiusAttribute(type=4, value=bytes([192, 0, 2, 10])),          # NAS-IP-Address
        RadiusAttribute(type=5, value=struct.pack(">I", 7)),            # NAS-Port
        RadiusAttribute(type=30, value=b"00-11-22-33-44-66:corp"),      # Called-Station-Id
        RadiusAttribute(type=31, value=b"00-11-22-33-44-55"),           # Calling-Station-Id
        RadiusAttribute(type=61, value=struct.pack(">I", 19)),          # NAS-Port-Type: Wireless-802.11
    ])
    accept = Radius(code=2, id=1, authenticator=bytes(range(16, 32)), attributes=[
        RadiusAttribute(type=6, value=struct.pack(">I", 2)),            # Service-Type: Framed
        RadiusAttribute(type=8, value=bytes([10, 1, 2, 3])),            # Framed-IP-Address
        RadiusAttribute(type=27, value=struct.pack(">I", 3600)),        # Session-Timeout
        RadiusAttribute(type=18, value=b"Welcome"),                     # Reply-Message
    ])
    reject = Radius(code=3, id=2, authenticator=bytes(range(32, 48)), attributes=[
        RadiusAttribute(type=18, value=b"Denied"),
    ])
    accounting = Radius(code=4, id=3, authenticator=bytes(16), attributes=[
        RadiusAttribute(type=40, value=struct.pack(">I", 1)),           # Acct-Status-Type: Start
        RadiusAttribute(type=44, value=b"session-0001"),                # Acct-Session-Id
        RadiusAttribute(type=1, value=b"alice"),
    ])
    accounting_response = Radius(code=5, id=3, authenticator=bytes(range(48, 64)))
    return [
        datagram(1, 50000, 1812, request),
        datagram(2, 1812, 50000, accept, forward=False),
        datagram(3, 50001, 1812, Radius(code=1, id=2, authenticator=authenticator,
                                        attributes=[RadiusAttribute(type=1, value=b"mallory")])),
        datagram(4, 1812, 50001, reject, forward=False),
        datagram(5, 50002, 1813, accounting),
        datagram(6, 1813, 50002, accounting_response, forward=False),
    ]


# DHCPv6 (RFC 8415) --------------------------------------------------------------------------

def dhcpv6_frames():
    client = DUID_LLT(lladdr=MAC_A, timeval=700000000)
    server = DUID_LL(lladdr=MAC_B)
    address = "2001:db8::100"

    def datagram(message, forward=True):
        if forward:
            layers = (Ether(src=MAC_A, dst="33:33:00:01:00:02") / IPv6(src="fe80::211:22ff:fe33:4455", dst="ff02::1:2")
                      / UDP(sport=546, dport=547))
        else:
            layers = (Ether(src=MAC_B, dst=MAC_A) / IPv6(src="fe80::211:22ff:fe33:4466", dst="fe80::211:22ff:fe33:4455")
                      / UDP(sport=547, dport=546))
        return bytes(layers / message)

    ia = DHCP6OptIA_NA(iaid=0x11223344, T1=0, T2=0)
    ia_with_address = DHCP6OptIA_NA(iaid=0x11223344, T1=1800, T2=2880, ianaopts=[
        DHCP6OptIAAddress(addr=address, preflft=3600, validlft=7200)])
    return [
        datagram(DHCP6_Solicit(trid=0x123456) / DHCP6OptClientId(duid=client) / DHCP6OptElapsedTime(elapsedtime=0)
                 / DHCP6OptOptReq(reqopts=[23, 24]) / ia),
        datagram(DHCP6_Advertise(trid=0x123456) / ia_with_address / DHCP6OptClientId(duid=client)
                 / DHCP6OptServerId(duid=server) / DHCP6OptDNSServers(dnsservers=["2001:db8::53", "2001:db8::54"])
                 / DHCP6OptStatusCode(statuscode=0, statusmsg="ok"), forward=False),
        datagram(DHCP6_Request(trid=0xabcdef) / DHCP6OptClientId(duid=client) / DHCP6OptServerId(duid=server)
                 / DHCP6OptElapsedTime(elapsedtime=100) / ia_with_address),
        datagram(DHCP6_Reply(trid=0xabcdef) / ia_with_address / DHCP6OptClientId(duid=client)
                 / DHCP6OptServerId(duid=server), forward=False),
    ]


# QUIC (RFC 9000 §17) ------------------------------------------------------------------------

def varint(value):
    if value < 0x40:
        return bytes([value])
    if value < 0x4000:
        return struct.pack(">H", 0x4000 | value)
    return struct.pack(">I", 0x80000000 | value)


def quic_long(kind, dcid, scid, payload, token=None, version=1):
    first = 0xC0 | (kind << 4) | 0x03                       # as sent: the low bits protected
    header = bytes([first]) + struct.pack(">I", version) + bytes([len(dcid)]) + dcid + bytes([len(scid)]) + scid
    if kind == 0:
        header += varint(len(token or b"")) + (token or b"")
    return header + varint(len(payload)) + payload


def quic_frames():
    dcid, scid = bytes.fromhex("8394c8f03e515708"), bytes.fromhex("c0ffee01")
    filler = bytes((i * 37 + 11) & 0xFF for i in range(1200))

    def datagram(ident, payload, forward=True, port=51000):
        if forward:
            layers = eth() / IP(id=ident, src="192.0.2.1", dst="192.0.2.2") / UDP(sport=port, dport=443)
        else:
            layers = eth() / IP(id=ident, src="192.0.2.2", dst="192.0.2.1") / UDP(sport=443, dport=51000)
        return bytes(layers / Raw(payload))

    retry = bytes([0xF0]) + struct.pack(">I", 1) + bytes([len(scid)]) + scid + bytes([4]) + b"\x5e\x5e\x5e\x5e" \
        + b"retry-token-bytes" + bytes(range(0xA0, 0xB0))
    negotiation = bytes([0x80]) + struct.pack(">I", 0) + bytes([len(scid)]) + scid + bytes([len(dcid)]) + dcid \
        + struct.pack(">II", 1, 0x6B3343CF)
    return [
        datagram(1, quic_long(0, dcid, scid, filler[:1162])),
        datagram(2, negotiation, forward=False),
        datagram(3, retry, forward=False),
        datagram(4, quic_long(0, dcid, scid, filler[:300], token=b"retry-token-bytes")
                 + quic_long(1, dcid, scid, filler[300:400])),
        datagram(5, quic_long(0, scid, b"\x5e\x5e\x5e\x5e", filler[:120]) + quic_long(2, scid, b"\x5e\x5e\x5e\x5e",
                                                                                       filler[120:200]), forward=False),
        # A short header whose connection tshark has not seen: its DCID length is unknown.
        datagram(6, bytes([0x43]) + bytes.fromhex("7d7d7d7d") + filler[:60], port=51001),
    ]


CAPTURES = {"bgp": bgp_frames, "radius": radius_frames, "dhcpv6": dhcpv6_frames, "quic": quic_frames}

for name in sys.argv[1:] or CAPTURES:
    write_capture(name, 1, CAPTURES[name]())
