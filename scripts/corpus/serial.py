#!/usr/bin/python3
"""PPP and the serial link types: PPP (link type 9, with and without address and control),
HDLC-framed PPP (50), PPPoE discovery and session over Ethernet (1), Cisco HDLC (104) and
Frame Relay (107). PPP carries IPv4 (ICMP echo, a UDP DNS query), IPv6 (ICMPv6 echo) and the
control protocols LCP, IPCP, IPV6CP, PAP and CHAP. Writes Corpus/captures/{ppp,ppp-hdlc,pppoe,
chdlc,fr}.pcap and their oracles (see common.py).

Link type 204 (PPP with a direction byte) is not in the corpus: tshark's reader moves the
direction byte into the pseudo-header, so its frame bytes and offsets start after it."""
import struct

from scapy.all import DNS, DNSQR, ICMP, IP, UDP, Ether, ICMPv6EchoRequest, IPv6, raw

from common import write_capture

ICMP4 = raw(IP(src="10.0.0.1", dst="10.0.0.2", id=1) / ICMP(id=1, seq=1) / b"ping")
ICMP6 = raw(IPv6(src="2001:db8::1", dst="2001:db8::2") / ICMPv6EchoRequest(id=1, seq=1) / b"ping")
DNS4 = raw(IP(src="10.0.0.1", dst="10.0.0.53", id=2) / UDP(sport=1024, dport=53)
           / DNS(id=0x1234, qd=DNSQR(qname="example.com")))


def control(code, identifier, data):
    """An LCP/IPCP/IPV6CP/PAP/CHAP packet: code, identifier, length, data."""
    return struct.pack(">BBH", code, identifier, 4 + len(data)) + data


def option(kind, data):
    return struct.pack(">BB", kind, 2 + len(data)) + data


HDLC = b"\xff\x03"
LCP_REQUEST = control(1, 1, option(1, struct.pack(">H", 1492)) + option(2, bytes(4))
                      + option(3, struct.pack(">HB", 0xC223, 5)) + option(5, bytes.fromhex("12345678"))
                      + option(7, b"") + option(8, b""))
LCP_ACK_PAP = control(2, 6, option(3, struct.pack(">H", 0xC023)) + option(1, struct.pack(">H", 1500)))
LCP_ECHO = control(9, 7, bytes.fromhex("12345678") + b"hi")
LCP_TERMINATE = control(5, 8, b"bye")
LCP_REJECT = control(4, 11, option(17, struct.pack(">H", 1500)) + option(13, b"\x06"))  # MRRU, callback
LCP_CODE_REJECT = control(7, 10, control(14, 1, b""))
LCP_ECHO_REPLY = control(10, 7, bytes.fromhex("87654321"))
IPCP_REQUEST = control(1, 2, option(3, bytes([10, 0, 0, 1])) + option(129, bytes(4)) + option(131, bytes([8, 8, 4, 4])))
IPCP_NAK = control(3, 3, option(3, bytes([10, 0, 0, 9])))
IPCP_VJ = control(1, 12, option(2, bytes.fromhex("002d0f01")))  # Van Jacobson compression, 16 slots
IPCP_TERMINATE = control(5, 13, b"")
IPV6CP_REQUEST = control(1, 4, option(1, bytes.fromhex("0211223344556677")))
PAP_REQUEST = control(1, 5, b"\x04user\x08password")
PAP_ACK = control(2, 5, b"\x07welcome")
CHAP_CHALLENGE = control(1, 6, b"\x10" + bytes(range(16)) + b"server")
CHAP_RESPONSE = control(2, 6, b"\x10" + bytes(range(16, 32)) + b"client")
CHAP_SUCCESS = control(3, 6, b"ok")

ppp = [
    HDLC + b"\x00\x21" + ICMP4,
    b"\x00\x21" + DNS4,  # address and control left out (RFC 1661 ACFC)
    b"\x21" + ICMP4,  # and the protocol compressed to one byte (PFC)
    HDLC + b"\x57" + ICMP6,
    HDLC + b"\x00\x57" + ICMP6,
    HDLC + b"\xc0\x21" + LCP_REQUEST,
    HDLC + b"\xc0\x21" + LCP_ACK_PAP,
    HDLC + b"\xc0\x21" + LCP_ECHO,
    b"\xc0\x21" + LCP_TERMINATE,
    HDLC + b"\xc0\x21" + LCP_REJECT,
    HDLC + b"\xc0\x21" + LCP_CODE_REJECT,
    HDLC + b"\xc0\x21" + LCP_ECHO_REPLY,
    HDLC + b"\x80\x21" + IPCP_REQUEST,
    HDLC + b"\x80\x21" + IPCP_NAK,
    HDLC + b"\x80\x21" + IPCP_VJ,
    HDLC + b"\x80\x21" + IPCP_TERMINATE,
    HDLC + b"\x80\x57" + IPV6CP_REQUEST,
    HDLC + b"\xc0\x23" + PAP_REQUEST,
    HDLC + b"\xc0\x23" + PAP_ACK,
    HDLC + b"\xc2\x23" + CHAP_CHALLENGE,
    HDLC + b"\xc2\x23" + CHAP_RESPONSE,
    HDLC + b"\xc2\x23" + CHAP_SUCCESS,
]
write_capture("ppp", 9, ppp)
write_capture("ppp-hdlc", 50, [HDLC + b"\x00\x21" + DNS4, HDLC + b"\xc0\x21" + LCP_ECHO, HDLC + b"\x80\x21" + IPCP_NAK])


def tag(kind, data):
    return struct.pack(">HH", kind, len(data)) + data


def pppoe(ethertype, code, session, payload):
    frame = raw(Ether(dst="00:11:22:33:44:66", src="00:11:22:33:44:55", type=ethertype))
    frame += struct.pack(">BBHH", 0x11, code, session, len(payload)) + payload
    return frame + bytes(max(0, 60 - len(frame)))  # padded to Ethernet's minimum


HOST_UNIQ = tag(0x0103, bytes.fromhex("abcdef01"))
write_capture("pppoe", 1, [
    pppoe(0x8863, 0x09, 0, tag(0x0101, b"") + HOST_UNIQ),  # PADI
    pppoe(0x8863, 0x07, 0, tag(0x0101, b"internet") + tag(0x0102, b"ac-name") + tag(0x0104, bytes(range(8)))
          + HOST_UNIQ + tag(0, b"")),  # PADO
    pppoe(0x8863, 0x65, 0x1234, tag(0x0101, b"internet") + HOST_UNIQ),  # PADS
    pppoe(0x8864, 0x00, 0x1234, b"\xc0\x21" + LCP_REQUEST),
    pppoe(0x8864, 0x00, 0x1234, b"\x80\x21" + IPCP_REQUEST),
    pppoe(0x8864, 0x00, 0x1234, b"\x00\x21" + ICMP4),
    pppoe(0x8864, 0x00, 0x1234, b"\x00\x57" + ICMP6),
    pppoe(0x8863, 0x19, 0, tag(0x0101, b"internet") + tag(0x0104, bytes(range(8))) + tag(0x0110, b"\x01\x02")),  # PADR
    pppoe(0x8863, 0xA7, 0x1234, tag(0x0203, b"session closed")),  # PADT
    pppoe(0x8863, 0xA7, 0x1235, b""),
])

SLARP_REQUEST = struct.pack(">I", 0) + bytes([10, 0, 0, 1, 255, 255, 255, 252])
SLARP_KEEPALIVE = struct.pack(">IIIH", 2, 5, 4, 0xFFFF)
write_capture("chdlc", 104, [
    b"\x0f\x00\x08\x00" + ICMP4,
    b"\x0f\x00\x08\x00" + DNS4,
    b"\x0f\x00\x86\xdd" + ICMP6,
    b"\x8f\x00\x80\x35" + SLARP_REQUEST,
    b"\x8f\x00\x80\x35" + SLARP_KEEPALIVE,
])


def q922(dlci, cr=0, fecn=0, becn=0, de=0):
    """The two-byte Q.922 address: DLCI's upper 6 bits, C/R, EA 0; its lower 4, FECN, BECN, DE, EA 1."""
    return bytes([(dlci >> 4) << 2 | cr << 1, (dlci & 0xF) << 4 | fecn << 3 | becn << 2 | de << 1 | 1])


write_capture("fr", 107, [
    q922(100) + b"\x03\xcc" + ICMP4,
    q922(1023, cr=1, fecn=1, de=1) + b"\x03\xcc" + DNS4,
    q922(16, becn=1) + b"\x03\x8e" + ICMP6,
    q922(200) + b"\x03\x00\x80\x00\x00\x00\x08\x00" + ICMP4,  # pad, SNAP, OUI 0, EtherType IPv4
    q922(300) + b"\x86\xdd" + ICMP6,
    q922(400) + b"\x03\xcf\x00\x21" + ICMP4,  # PPP in Frame Relay (RFC 1973)
    q922(400) + b"\x03\xcf\xc0\x21" + LCP_ECHO,  # Cisco's encapsulation: an EtherType after the address
])
