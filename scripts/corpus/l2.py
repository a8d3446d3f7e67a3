#!/usr/bin/python3
"""Layer 2 protocols on Ethernet and LLC, crafted frame by frame: STP/RSTP/MSTP (stp.pcap),
CDP (cdp.pcap), LLDP (lldp.pcap), LACP and Marker (slow.pcap), EAPOL (eapol.pcap), MPLS
(mpls.pcap) and MACsec (macsec.pcap). Writes Corpus/captures/<name>.pcap and the oracle of each
(see common.py). `l2.py stp lldp` writes only those captures; no argument writes them all."""
import struct
import sys

from scapy.all import LLC, SNAP, Dot3, Ether, raw
from scapy.utils import mac2str

from common import write_capture

BRIDGE_GROUP = "01:80:c2:00:00:00"
SLOW_GROUP = "01:80:c2:00:00:02"
NEAREST_BRIDGE = "01:80:c2:00:00:0e"
CDP_GROUP = "01:00:0c:cc:cc:cc"
HOST_A = "00:11:22:33:44:55"
HOST_B = "00:11:22:33:44:66"


def padded(frame):
    """The frame's bytes, padded with zeros to Ethernet's 60-byte minimum."""
    data = frame if isinstance(frame, bytes) else raw(frame)
    return data + bytes(max(0, 60 - len(data)))


def dot3_llc(dst, payload, sap=0x42):
    return Dot3(dst=dst, src=HOST_A) / LLC(dsap=sap, ssap=sap, ctrl=3) / payload


# STP ---------------------------------------------------------------------------------------

def bridge_id(priority, mac):
    return struct.pack(">H", priority) + mac2str(mac)


def stp_common(version, bpdu_type, flags, root, cost, bridge, port, age=0):
    """Everything a configuration, RST or MST BPDU has up to the forward delay; timers in
    1/256 seconds (max age 20 s, hello 2 s, forward delay 15 s)."""
    return (struct.pack(">HBBB", 0, version, bpdu_type, flags) + root + struct.pack(">I", cost) + bridge
            + struct.pack(">HHHHH", port, age * 256, 20 * 256, 2 * 256, 15 * 256))


def stp_frames():
    config = stp_common(0, 0x00, 0x81, bridge_id(0x8000, "00:11:22:33:44:00"), 4, bridge_id(0x8001, HOST_A), 0x8001,
                        age=1)
    tcn = struct.pack(">HBB", 0, 0, 0x80)
    rst = stp_common(2, 0x02, 0x3C, bridge_id(0x1000, "00:11:22:33:44:00"), 20000, bridge_id(0x800A, HOST_A),
                     0x8002) + b"\x00"
    # MST: the CIST part, then the MST configuration identifier (format 0, a NUL-padded name, a
    # revision, a digest), the CIST internal root path cost, bridge ID and remaining hops, then
    # one 16-byte MSTI configuration message per instance.
    mst_config = b"\x00" + b"region1".ljust(32, b"\x00") + struct.pack(">H", 1) + bytes(range(16))
    cist = struct.pack(">I", 200000) + bridge_id(0x8000, HOST_A) + b"\x14"
    msti = (b"\x7c" + bridge_id(0x1001, "00:11:22:33:44:00") + struct.pack(">I", 20000) + b"\x80\x80\x14"
            + b"\x5e" + bridge_id(0x2002, "00:11:22:33:44:01") + struct.pack(">I", 2000) + b"\x40\x90\x13")
    extension = mst_config + cist + msti
    mst = (stp_common(3, 0x02, 0x7C, bridge_id(0x8000, "00:11:22:33:44:00"), 0, bridge_id(0x8000, "00:11:22:33:44:00"),
                      0x8001) + b"\x00" + struct.pack(">H", len(extension)) + extension)
    # A 32-character MST configuration name fills its field: no NUL.
    full_name = mst.replace(b"region1".ljust(32, b"\x00"), b"R" * 32)
    return [padded(dot3_llc(BRIDGE_GROUP, bpdu)) for bpdu in (config, tcn, rst, mst, full_name)]


# CDP ---------------------------------------------------------------------------------------

def cdp_frames():
    from scapy.contrib.cdp import (CDPAddrRecordIPv4, CDPAddrRecordIPv6, CDPMsgAddr, CDPMsgCapabilities,
                                   CDPMsgDeviceID, CDPMsgDuplex, CDPMsgGeneric, CDPMsgMgmtAddr, CDPMsgNativeVLAN,
                                   CDPMsgPlatform, CDPMsgPortID, CDPMsgSoftwareVersion, CDPMsgVTPMgmtDomain,
                                   CDPv2_HDR)
    switch = CDPv2_HDR(vers=2, ttl=180, msg=[
        CDPMsgDeviceID(val=b"switch1"), CDPMsgAddr(addr=[CDPAddrRecordIPv4(addr="10.0.0.1")]),
        CDPMsgPortID(iface=b"GigabitEthernet0/1"), CDPMsgCapabilities(cap=0x28),
        CDPMsgSoftwareVersion(val=b"Cisco IOS Software, Version 15.2(2)E"), CDPMsgPlatform(val=b"cisco WS-C2960"),
        CDPMsgNativeVLAN(vlan=1), CDPMsgDuplex(duplex=1)])
    router = CDPv2_HDR(vers=2, ttl=120, msg=[
        CDPMsgDeviceID(val=b"router1.example.com"),
        CDPMsgAddr(addr=[CDPAddrRecordIPv4(addr="10.0.0.2"), CDPAddrRecordIPv6(addr="2001:db8::2")]),
        CDPMsgCapabilities(cap=0x01), CDPMsgVTPMgmtDomain(val=b"lab"),
        CDPMsgMgmtAddr(addr=[CDPAddrRecordIPv4(addr="192.0.2.2")]), CDPMsgGeneric(type=0x0014, val=b"router1"),
        CDPMsgGeneric(type=0x7777, val=b"\x01\x02")])
    snap = LLC(dsap=0xAA, ssap=0xAA, ctrl=3) / SNAP(OUI=0x00000C, code=0x2000)
    return [padded(Dot3(dst=CDP_GROUP, src=src) / snap / cdp) for src, cdp in ((HOST_A, switch), (HOST_B, router))]


# LLDP --------------------------------------------------------------------------------------

def lldp_frames():
    from scapy.contrib.lldp import (LLDPDUChassisID, LLDPDUEndOfLLDPDU, LLDPDUGenericOrganisationSpecific,
                                    LLDPDUManagementAddress, LLDPDUPortDescription, LLDPDUPortID,
                                    LLDPDUSystemCapabilities, LLDPDUSystemDescription, LLDPDUSystemName,
                                    LLDPDUTimeToLive)
    full = (LLDPDUChassisID(subtype=4, id=HOST_A) / LLDPDUPortID(subtype=5, id=b"eth0") / LLDPDUTimeToLive(ttl=120)
            / LLDPDUPortDescription(description=b"uplink") / LLDPDUSystemName(system_name=b"switch1")
            / LLDPDUSystemDescription(description=b"Linux 6.1")
            / LLDPDUSystemCapabilities(mac_bridge_available=1, router_available=1, mac_bridge_enabled=1)
            / LLDPDUManagementAddress(management_address_subtype=1, management_address=b"\x0a\x00\x00\x01",
                                      interface_numbering_subtype=2, interface_number=3)
            / LLDPDUGenericOrganisationSpecific(org_code=0x0080C2, subtype=1, data=b"\x00\x0a")
            / LLDPDUGenericOrganisationSpecific(org_code=0x00120F, subtype=4, data=b"\x05\xee")
            / LLDPDUGenericOrganisationSpecific(org_code=0x123456, subtype=9, data=b"vendor")
            / LLDPDUEndOfLLDPDU())
    # Network-address and MAC IDs, an IPv6 management address with an OID, a locally assigned
    # port ID, and a time to live of 0 (the agent shuts down).
    other = (LLDPDUChassisID(subtype=5, family=1, id="192.0.2.7") / LLDPDUPortID(subtype=3, id=HOST_B)
             / LLDPDUTimeToLive(ttl=0)
             / LLDPDUManagementAddress(management_address_subtype=2,
                                       management_address=bytes.fromhex("20010db8000000000000000000000007"),
                                       interface_numbering_subtype=3, interface_number=12,
                                       object_id=b"\x2b\x06\x01\x02\x01")
             / LLDPDUPortID(subtype=7, id=b"port-7") / LLDPDUEndOfLLDPDU())
    return [raw(Ether(dst=NEAREST_BRIDGE, src=src, type=0x88CC) / lldp) for src, lldp in ((HOST_A, full), (HOST_B, other))]


# Slow protocols: LACP and Marker -------------------------------------------------------------

def slow_frames():
    from scapy.contrib.lacp import LACP, MarkerProtocol, SlowProtocol
    lacp = LACP(actor_system_priority=32768, actor_system=HOST_A, actor_key=13, actor_port_priority=32768,
                actor_port_number=22, actor_state=0x3D, partner_system_priority=32768, partner_system=HOST_B,
                partner_key=13, partner_port_priority=32768, partner_port_number=5, partner_state=0x3F,
                collector_max_delay=0)
    # Not yet in sync: defaulted and expired, a short timeout, no partner known.
    waiting = LACP(actor_system_priority=65535, actor_system=HOST_B, actor_key=1, actor_port_priority=255,
                   actor_port_number=1, actor_state=0xC7, partner_state=0x02, collector_max_delay=10)
    marker = MarkerProtocol(marker_type=1, requester_port=22, requester_system=HOST_A, requester_transaction_id=7)
    response = MarkerProtocol(marker_type=2, requester_port=22, requester_system=HOST_A, requester_transaction_id=7)
    return [raw(Ether(dst=SLOW_GROUP, src=src) / SlowProtocol() / pdu)
            for src, pdu in ((HOST_A, lacp), (HOST_B, waiting), (HOST_A, marker), (HOST_B, response))]


# EAPOL -------------------------------------------------------------------------------------

def eapol_key(info, replay, nonce, mic=bytes(16), data=b""):
    """An 802.11 RSN EAPOL-Key descriptor (type 2) with a 16-byte MIC."""
    return (struct.pack(">BHHQ", 2, info, 16, replay) + nonce + bytes(16) + bytes(8) + bytes(8) + mic
            + struct.pack(">H", len(data)) + data)


def eapol_frames():
    from scapy.layers.eap import EAP, EAPOL
    # 4-way handshake message 1 (pairwise, ACK) and message 3 (install, ACK, MIC, secure, with
    # encrypted key data, which tshark leaves as bytes).
    message1 = eapol_key(0x008A, 1, bytes(range(32)))
    message3 = eapol_key(0x13CA, 2, bytes(range(32, 64)), mic=bytes(range(0x80, 0x90)), data=bytes(range(0xA0, 0xB8)))
    bodies = [
        EAPOL(version=1, type=1),
        EAPOL(version=2, type=0) / EAP(code=1, id=1, type=1),
        EAPOL(version=2, type=0) / EAP(code=2, id=1, type=1, identity=b"alice@example.com"),
        EAPOL(version=2, type=0) / (b"\x01\x02\x00\x16\x04\x10" + bytes(range(16))),
        EAPOL(version=2, type=0) / EAP(code=3, id=2),
        EAPOL(version=2, type=3, len=len(message1)) / message1,
        EAPOL(version=2, type=3, len=len(message3)) / message3,
        EAPOL(version=2, type=2),
        # An 802.1X-2004 RC4 key descriptor: a 13-byte unicast key at index 1.
        EAPOL(version=1, type=3, len=57) / (struct.pack(">BHQ", 1, 13, 5) + bytes(range(16)) + b"\x81"
                                             + bytes(range(16, 32)) + bytes(range(13))),
    ]
    return [padded(Ether(dst="01:80:c2:00:00:03", src=HOST_A, type=0x888E) / body) for body in bodies]


# MPLS --------------------------------------------------------------------------------------

def mpls_frames():
    from scapy.contrib.mpls import MPLS
    from scapy.layers.inet import IP, UDP
    from scapy.layers.inet6 import IPv6
    payload = UDP(sport=1000, dport=9) / (b"mpls payload" * 2)
    stacks = [
        (0x8847, MPLS(label=100, cos=5, s=0, ttl=64) / MPLS(label=200, cos=0, s=1, ttl=63)
         / IP(src="10.0.0.1", dst="10.0.0.2", id=1) / payload),
        (0x8847, MPLS(label=16, cos=0, s=1, ttl=1) / IPv6(src="2001:db8::1", dst="2001:db8::2") / payload),
        (0x8848, MPLS(label=1048575, cos=7, s=1, ttl=255) / IP(src="10.0.0.1", dst="232.1.1.1", id=2) / payload),
        # Three entries, the explicit null label first, then bytes that are neither IPv4 nor IPv6.
        (0x8847, MPLS(label=0, cos=0, s=0, ttl=10) / MPLS(label=3000, cos=1, s=0, ttl=11)
         / MPLS(label=4000, cos=2, s=1, ttl=12) / (b"\x55" * 40)),
    ]
    return [raw(Ether(dst=HOST_B, src=HOST_A, type=ethertype) / stack) for ethertype, stack in stacks]


# MACsec ------------------------------------------------------------------------------------

def macsec_frames():
    from scapy.layers.inet import IP, UDP

    def sectag(tci_an, short_length, pn, sci=b""):
        return bytes([tci_an, short_length]) + struct.pack(">I", pn) + sci

    icv = bytes(range(0xC0, 0xD0))
    sci = mac2str(HOST_A) + struct.pack(">H", 1)
    inner = raw(IP(src="10.0.0.1", dst="10.0.0.2", id=3) / UDP(sport=1024, dport=9) / (b"integrity only " * 2))
    frames = [
        # Encrypted and changed (E, C), with the SCI (SC), association number 1.
        sectag(0x2C | 1, 0, 5, sci) + bytes(range(40)) + icv,
        # Integrity only (E and C clear): an EtherType and an IPv4 packet; end station (ES), no SCI.
        sectag(0x40, 0, 6) + b"\x08\x00" + inner + icv,
        # A short length: 20 bytes of encrypted data; single copy broadcast (SCB), AN 3.
        sectag(0x1C | 3, 20, 0xFFFFFFFF) + bytes(range(20)) + icv,
    ]
    # The short frame is left unpadded: tshark 4.0 takes the ICV from the frame's last 16 bytes
    # whatever the short length says, so padding after the ICV would be read differently.
    return [raw(Ether(dst=HOST_B, src=HOST_A, type=0x88E5)) + frame for frame in frames]


CAPTURES = {
    "stp": stp_frames,
    "cdp": cdp_frames,
    "lldp": lldp_frames,
    "slow": slow_frames,
    "eapol": eapol_frames,
    "mpls": mpls_frames,
    "macsec": macsec_frames,
}

if __name__ == "__main__":
    for name in sys.argv[1:] or CAPTURES:
        write_capture(name, 1, CAPTURES[name]())
