#!/usr/bin/python3
"""802.11 in full, crafted with scapy (this sandbox has no mac80211_hwsim module, so hostapd and
wpa_supplicant cannot run on a simulated radio): a WPA2-PSK access point's exchange with one
station, each frame behind a radiotap header (link type 127), element contents as hostapd 2.10
writes them for an 802.11ax AP on channel 36. Writes into Corpus/captures (with each capture's
oracle, see common.py):

  wlan-full.pcap  beacon (SSID, rates, DS parameter, TIM, country, ERP, extended rates, RSN,
                  HT capabilities and operation, extended capabilities, VHT capabilities and
                  operation, HE capabilities and operation, WMM parameter, WPS), probe request
                  (HT/VHT/HE capabilities, extended capabilities) and response, open-system
                  authentication (both ways), association request (RSN, HT/VHT/HE, WMM
                  information) and response (AID, WMM parameter), the 4-way handshake's four
                  EAPOL-Key frames as QoS data, ADDBA request and response action frames,
                  QoS data encrypted with CCMP (both ways) and TKIP, data with WEP (payload opaque), an A-MSDU of two
                  subframes, RTS, CTS, ACK, Block Ack Request, compressed Block Ack, PS-Poll,
                  CF-End, null data, QoS null, disassociation, deauthentication.
  ppi-wlan.pcap   link type 192: PPI headers (802.11-Common, 802.11n MAC extension) before a beacon, a
                  CCMP-protected QoS data frame and an ACK that ends with its FCS.

Run with /usr/bin/python3 (scapy) from this folder.
"""
import struct
import zlib

from scapy.all import IP, UDP, LLC, SNAP, raw
from scapy.layers.dot11 import Dot11, Dot11Elt
from scapy.layers.eap import EAPOL

from common import write_capture

AP = "02:00:00:00:01:00"
STA = "02:00:00:00:02:00"
BROADCAST = "ff:ff:ff:ff:ff:ff"


def mac(text):
    return bytes.fromhex(text.replace(":", ""))


def element(number, info):
    return bytes([number, len(info)]) + info


def ext_element(number, info):
    return bytes([255, len(info) + 1, number]) + info


RATES = element(1, bytes([0x8c, 0x12, 0x98, 0x24, 0xb0, 0x48, 0x60, 0x6c]))
DS = element(3, bytes([36]))
TIM = element(5, bytes([0, 2, 0, 0]))
COUNTRY = element(7, b"US\x04" + bytes([36, 4, 23, 52, 4, 24, 100, 12, 24, 149, 5, 30]) + b"\x00")
ERP = element(42, bytes([0x04]))
RSN = element(48, struct.pack("<H", 1) + bytes.fromhex("000fac04") + struct.pack("<H", 1) + bytes.fromhex("000fac04")
              + struct.pack("<H", 1) + bytes.fromhex("000fac02") + struct.pack("<H", 0x000c))
HT_CAPS = element(45, struct.pack("<HB", 0x09ef, 0x17) + bytes([0xff, 0xff] + [0] * 14) + struct.pack("<HIB", 0, 0, 0))
HT_OP = element(61, bytes([36, 0x05, 0x00, 0x00, 0x00, 0x00]) + bytes(16))
EXT_CAPS = element(127, bytes([0x04, 0x00, 0x0a, 0x02, 0x01, 0x40, 0x00, 0x40, 0x21]))
VHT_CAPS = element(191, struct.pack("<IHHHH", 0x338b79b2, 0xfffa, 0, 0xfffa, 0x2000))
VHT_OP = element(192, bytes([1, 42, 0]) + struct.pack("<H", 0xfffc))
HE_CAPS = ext_element(35, bytes.fromhex("0d0018120010") + bytes.fromhex("22200e800ddf8300cc0000")
                      + struct.pack("<HH", 0xfffa, 0xfffa))
HE_OP = ext_element(36, bytes.fromhex("f43f00") + bytes([0x21]) + struct.pack("<H", 0xfffc))


def wmm_parameter(info=0x81):
    acs = b"".join(struct.pack("<BBH", aci_aifsn, ecw, txop) for aci_aifsn, ecw, txop in
                   [(0x03, 0xa4, 0), (0x27, 0xa4, 0), (0x42, 0x43, 94), (0x62, 0x32, 47)])
    return element(221, bytes.fromhex("0050f2") + bytes([2, 1, 1, info, 0]) + acs)


WMM_INFO = element(221, bytes.fromhex("0050f2") + bytes([2, 0, 1, 0x00]))


def wps_tlv(kind, value):
    return struct.pack(">HH", kind, len(value)) + value


WPS = element(221, bytes.fromhex("0050f204")
              + wps_tlv(0x104a, b"\x10") + wps_tlv(0x1044, b"\x02") + wps_tlv(0x1041, b"\x00")
              + wps_tlv(0x103b, b"\x03") + wps_tlv(0x1047, bytes.fromhex("8f7c3b2e1d4a5b6c7d8e9fa0b1c2d3e4"))
              + wps_tlv(0x1021, b"dissect") + wps_tlv(0x1023, b"hostapd") + wps_tlv(0x1024, b"2.10")
              + wps_tlv(0x1042, b"0001") + wps_tlv(0x1054, bytes.fromhex("00060050f2040001"))
              + wps_tlv(0x1011, b"dissect-ap") + wps_tlv(0x1008, struct.pack(">H", 0x2008))
              + wps_tlv(0x1049, bytes.fromhex("00372a") + bytes([0, 1, 0x20])))

AP_ELEMENTS = RATES + DS
BEACON_TAIL = COUNTRY + ERP + RSN + HT_CAPS + HT_OP + EXT_CAPS + VHT_CAPS + VHT_OP + HE_CAPS + HE_OP \
    + wmm_parameter() + WPS


def header(kind, subtype, addr1, addr2, addr3=None, seq=0, flags=0, duration=0, addr4=None):
    out = bytes([(subtype << 4) | (kind << 2), flags]) + struct.pack("<H", duration) + mac(addr1)
    if addr2:
        out += mac(addr2)
    if addr3:
        out += mac(addr3) + struct.pack("<H", seq << 4)
    if addr4:
        out += mac(addr4)
    return out


def radiotap(frame, freq=5180, signal=-42, rate=12):
    """A radiotap header as mac80211_hwsim writes it: flags, rate, channel, antenna signal."""
    fields = struct.pack("<BBHHbB", 0, rate, freq, 0x0140, signal, 0)
    return struct.pack("<BBHI", 0, 0, 8 + len(fields), 0x2e) + fields + frame


def management(subtype, addr1, addr2, seq, body):
    return header(0, subtype, addr1, addr2, AP, seq) + body


def snap(ethertype, payload):
    return raw(LLC(dsap=0xAA, ssap=0xAA, ctrl=3) / SNAP(OUI=0, code=ethertype)) + payload


def qos_data(addr1, addr2, addr3, seq, body, fromds, protected=False, qos=0x0000, subtype=8):
    flags = (0x02 if fromds else 0x01) | (0x40 if protected else 0)
    return header(2, subtype, addr1, addr2, addr3, seq, flags, duration=44) + struct.pack("<H", qos) + body


def eapol_key(info, replay, nonce=bytes(32), mic=bytes(16), data=b""):
    body = bytes([2]) + struct.pack(">HH", info, 16) + struct.pack(">Q", replay) + nonce + bytes(16) + bytes(8) \
        + bytes(8) + mic + struct.pack(">H", len(data)) + data
    return raw(EAPOL(version=2, type=3, len=len(body))) + body


ANONCE = bytes(range(0x10, 0x30))
SNONCE = bytes(range(0x40, 0x60))
MIC = bytes.fromhex("5a1f0c9d3e8b7a6f4c2d1e0f9a8b7c6d")
beacon_body = struct.pack("<QHH", 0x00000001a2b3c4d5, 100, 0x1511) + element(0, b"dissect-wlan") + AP_ELEMENTS \
    + TIM + BEACON_TAIL
STA_CAPS = RATES + EXT_CAPS + HT_CAPS + VHT_CAPS + HE_CAPS

frames = [
    header(0, 8, BROADCAST, AP, AP, 10) + beacon_body,
    header(0, 4, BROADCAST, STA, BROADCAST, 1) + element(0, b"dissect-wlan") + STA_CAPS,
    management(5, STA, AP, 11, struct.pack("<QHH", 0x00000001a2b3d000, 100, 0x1511) + element(0, b"dissect-wlan")
               + AP_ELEMENTS + BEACON_TAIL),
    management(11, AP, STA, 2, struct.pack("<HHH", 0, 1, 0)),
    management(11, STA, AP, 12, struct.pack("<HHH", 0, 2, 0)),
    management(0, AP, STA, 3, struct.pack("<HH", 0x1511, 10) + element(0, b"dissect-wlan") + RATES + RSN
               + HT_CAPS + EXT_CAPS + VHT_CAPS + HE_CAPS + WMM_INFO),
    management(1, STA, AP, 13, struct.pack("<HHH", 0x1511, 0, 0xc001) + RATES + HT_CAPS + HT_OP + EXT_CAPS
               + VHT_CAPS + VHT_OP + HE_CAPS + HE_OP + wmm_parameter()),
    # The 4-way handshake.
    qos_data(STA, AP, AP, 14, snap(0x888e, eapol_key(0x008a, 1, ANONCE)), True, qos=0x0007),
    qos_data(AP, STA, AP, 4, snap(0x888e, eapol_key(0x010a, 1, SNONCE, MIC, RSN)), False, qos=0x0007),
    qos_data(STA, AP, AP, 15, snap(0x888e, eapol_key(0x13ca, 2, ANONCE, MIC, bytes(range(56)))), True, qos=0x0007),
    qos_data(AP, STA, AP, 5, snap(0x888e, eapol_key(0x030a, 2, bytes(32), MIC)), False, qos=0x0007),
    # Block Ack agreement (action frames, category 3): ADDBA request, response, DELBA.
    management(13, AP, STA, 6, bytes([3, 0, 1]) + struct.pack("<HHH", 0x1003, 0, 0x0050)),
    management(13, STA, AP, 16, bytes([3, 1, 1]) + struct.pack("<HHH", 0, 0x1003, 0)),
    # Protected QoS data: CCMP, TKIP, WEP.
    qos_data(STA, AP, AP, 17, bytes([0x01, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00]) + bytes(range(64)) + bytes(8),
             True, protected=True),
    qos_data(AP, STA, AP, 7, bytes([0x02, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00]) + bytes(range(64)) + bytes(8),
             False, protected=True),
    qos_data(STA, AP, AP, 18, bytes([0x00, 0x20, 0x01, 0x20, 0x00, 0x00, 0x00, 0x00]) + bytes(range(48)) + bytes(12),
             True, protected=True),
    header(2, 0, STA, AP, AP, 19, 0x42, duration=44) + bytes([0x12, 0x34, 0x56, 0x00]) + bytes(range(40)) + bytes(4),
    # An A-MSDU of two subframes (QoS control bit 7), each DA, SA, length, then LLC/SNAP and IPv4.
    qos_data(STA, AP, AP, 20, b"".join(
        (lambda sub: sub + bytes(-len(sub) % 4 if last == 0 else 0))(
            mac(STA) + mac("02:00:00:00:03:00") + struct.pack(">H", len(payload)) + payload)
        for last, payload in [(0, snap(0x0800, raw(IP(src="10.0.0.3", dst="10.0.0.2", id=1) / UDP(sport=5000, dport=5001)
                                                 / b"first"))),
                              (1, snap(0x0800, raw(IP(src="10.0.0.3", dst="10.0.0.2", id=2) / UDP(sport=5000, dport=5001)
                                                 / b"second!")))]), True, qos=0x0080),
    # Control frames.
    header(1, 11, AP, STA, duration=180),
    header(1, 12, STA, None, duration=150),
    header(1, 13, STA, None),
    header(1, 8, AP, STA, duration=60) + struct.pack("<HH", 0x0004, 21 << 4),
    header(1, 9, STA, AP) + struct.pack("<HH", 0x0005, 21 << 4) + bytes([0xff, 0x03, 0, 0, 0, 0, 0, 0]),
    header(1, 10, AP, STA, duration=0xc001),
    header(1, 14, BROADCAST, AP),
    header(2, 4, AP, STA, AP, 22, 0x11),
    header(2, 12, AP, STA, AP, 23, 0x01) + struct.pack("<H", 0x0000),
    management(10, AP, STA, 24, struct.pack("<H", 8)),
    management(12, STA, AP, 25, struct.pack("<H", 3)),
]
write_capture("wlan-full", 127, [radiotap(frame) for frame in frames])


def ppi(frame, fields):
    body = b"".join(struct.pack("<HH", kind, len(data)) + data for kind, data in fields)
    return struct.pack("<BBHI", 0, 0, 8 + len(body), 105) + body + frame


# 802.11-Common: TSFT, flags, rate (500 kb/s), channel frequency and flags, FHSS hop set and
# pattern, signal and noise (dBm). 802.11n MAC extension: flags, A-MPDU ID, delimiters, reserved.
common = struct.pack("<QHHHHBBbb", 0x1a2b3c4d, 0x0000, 108, 2437, 0x00c0, 0, 0, -45, -95)
mac_ext = struct.pack("<IIB", 0x00000002, 7, 0) + bytes(3)
ppi_frames = [
    ppi(frames[0], [(2, common)]),
    ppi(frames[13], [(2, common), (3, mac_ext)]),
    # An ACK whose 802.11-Common flags say an FCS (CRC-32) ends the frame.
    ppi(frames[20] + struct.pack("<I", zlib.crc32(frames[20])),
        [(2, struct.pack("<QHHHHBBbb", 0x1a2b3c4e, 0x0001, 108, 2437, 0x00c0, 0, 0, -47, -95))]),
]
write_capture("ppi-wlan", 192, ppi_frames)
