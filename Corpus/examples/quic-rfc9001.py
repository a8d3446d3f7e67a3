#!/usr/bin/python3
"""Writes quic.pcap: RFC 9001's sample QUIC v1 packets in IPv4/UDP on port 443.

  /usr/bin/python3 quic-rfc9001.py quic.pcap

Frames: the client Initial of appendix A.2 (1200 bytes, CRYPTO frame with a ClientHello and
padding), the server Initial of A.3 (ServerHello), the Retry of A.4, a Version Negotiation
packet made here answering the A.2 Initial, and the ChaCha20 short-header packet of A.5.
Before writing, the A.2 and A.3 packets are decrypted with the Initial keys derived from the
client's destination connection ID (RFC 9001 §5.2): a wrong hex digit fails the AEAD tag.
"""

import struct
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand
from cryptography.hazmat.primitives import hmac
from scapy.all import IP, UDP, Ether, Raw, wrpcap

A2_CLIENT_INITIAL = bytes.fromhex(
    "c000000001088394c8f03e5157080000449e7b9aec34d1b1c98dd7689fb8ec11"
    "d242b123dc9bd8bab936b47d92ec356c0bab7df5976d27cd449f63300099f399"
    "1c260ec4c60d17b31f8429157bb35a1282a643a8d2262cad67500cadb8e7378c"
    "8eb7539ec4d4905fed1bee1fc8aafba17c750e2c7ace01e6005f80fcb7df6212"
    "30c83711b39343fa028cea7f7fb5ff89eac2308249a02252155e2347b63d58c5"
    "457afd84d05dfffdb20392844ae812154682e9cf012f9021a6f0be17ddd0c208"
    "4dce25ff9b06cde535d0f920a2db1bf362c23e596d11a4f5a6cf3948838a3aec"
    "4e15daf8500a6ef69ec4e3feb6b1d98e610ac8b7ec3faf6ad760b7bad1db4ba3"
    "485e8a94dc250ae3fdb41ed15fb6a8e5eba0fc3dd60bc8e30c5c4287e53805db"
    "059ae0648db2f64264ed5e39be2e20d82df566da8dd5998ccabdae053060ae6c"
    "7b4378e846d29f37ed7b4ea9ec5d82e7961b7f25a9323851f681d582363aa5f8"
    "9937f5a67258bf63ad6f1a0b1d96dbd4faddfcefc5266ba6611722395c906556"
    "be52afe3f565636ad1b17d508b73d8743eeb524be22b3dcbc2c7468d54119c74"
    "68449a13d8e3b95811a198f3491de3e7fe942b330407abf82a4ed7c1b311663a"
    "c69890f4157015853d91e923037c227a33cdd5ec281ca3f79c44546b9d90ca00"
    "f064c99e3dd97911d39fe9c5d0b23a229a234cb36186c4819e8b9c5927726632"
    "291d6a418211cc2962e20fe47feb3edf330f2c603a9d48c0fcb5699dbfe58964"
    "25c5bac4aee82e57a85aaf4e2513e4f05796b07ba2ee47d80506f8d2c25e50fd"
    "14de71e6c418559302f939b0e1abd576f279c4b2e0feb85c1f28ff18f58891ff"
    "ef132eef2fa09346aee33c28eb130ff28f5b766953334113211996d20011a198"
    "e3fc433f9f2541010ae17c1bf202580f6047472fb36857fe843b19f5984009dd"
    "c324044e847a4f4a0ab34f719595de37252d6235365e9b84392b061085349d73"
    "203a4a13e96f5432ec0fd4a1ee65accdd5e3904df54c1da510b0ff20dcc0c77f"
    "cb2c0e0eb605cb0504db87632cf3d8b4dae6e705769d1de354270123cb11450e"
    "fc60ac47683d7b8d0f811365565fd98c4c8eb936bcab8d069fc33bd801b03ade"
    "a2e1fbc5aa463d08ca19896d2bf59a071b851e6c239052172f296bfb5e724047"
    "90a2181014f3b94a4e97d117b438130368cc39dbb2d198065ae3986547926cd2"
    "162f40a29f0c3c8745c0f50fba3852e566d44575c29d39a03f0cda721984b6f4"
    "40591f355e12d439ff150aab7613499dbd49adabc8676eef023b15b65bfc5ca0"
    "6948109f23f350db82123535eb8a7433bdabcb909271a6ecbcb58b936a88cd4e"
    "8f2e6ff5800175f113253d8fa9ca8885c2f552e657dc603f252e1a8e308f76f0"
    "be79e2fb8f5d5fbbe2e30ecadd220723c8c0aea8078cdfcb3868263ff8f09400"
    "54da48781893a7e49ad5aff4af300cd804a6b6279ab3ff3afb64491c85194aab"
    "760d58a606654f9f4400e8b38591356fbf6425aca26dc85244259ff2b19c41b9"
    "f96f3ca9ec1dde434da7d2d392b905ddf3d1f9af93d1af5950bd493f5aa731b4"
    "056df31bd267b6b90a079831aaf579be0a39013137aac6d404f518cfd4684064"
    "7e78bfe706ca4cf5e9c5453e9f7cfd2b8b4c8d169a44e55c88d4a9a7f9474241"
    "e221af44860018ab0856972e194cd934"
)
A3_SERVER_INITIAL = bytes.fromhex(
    "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a"
    "5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3"
    "dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84"
    "022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4"
    "2158407dd074ee"
)
A4_RETRY = bytes.fromhex("ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f0f2496ba")
A5_SHORT = bytes.fromhex("4cfe4189655e5cd55c41f69080575d7999c25a5bfb")

CLIENT_DCID = bytes.fromhex("8394c8f03e515708")
SERVER_CID = bytes.fromhex("f067a5502a4262b5")
INITIAL_SALT = bytes.fromhex("38762cf7f55934b34d179ae6a4c80cadccbb7f0a")


def expand_label(secret, label, length):
    full = b"tls13 " + label
    info = struct.pack("!HB", length, len(full)) + full + b"\x00"
    return HKDFExpand(hashes.SHA256(), length, info).derive(secret)


def initial_secret(side):
    mac = hmac.HMAC(INITIAL_SALT, hashes.SHA256())
    mac.update(CLIENT_DCID)
    return expand_label(mac.finalize(), side, 32)


def decrypt_long(packet, side):
    """The plaintext of a protected Initial, or an exception if the tag does not verify."""
    secret = initial_secret(side)
    key, iv, hp = expand_label(secret, b"quic key", 16), expand_label(secret, b"quic iv", 12), expand_label(secret, b"quic hp", 16)
    position = 6 + packet[5]                     # after the destination connection ID
    position += 1 + packet[position]             # source connection ID

    def varint(at):
        prefix = packet[at] >> 6
        size = 1 << prefix
        value = packet[at] & 0x3F
        for byte in packet[at + 1:at + size]:
            value = value << 8 | byte
        return value, at + size

    token_length, position = varint(position)
    position += token_length
    length, pn_offset = varint(position)
    sample = packet[pn_offset + 4:pn_offset + 20]
    mask = Cipher(algorithms.AES(hp), modes.ECB()).encryptor().update(sample)
    first = packet[0] ^ (mask[0] & 0x0F)
    pn_length = (first & 0x03) + 1
    pn = bytes(b ^ m for b, m in zip(packet[pn_offset:pn_offset + pn_length], mask[1:]))
    header = bytes([first]) + packet[1:pn_offset] + pn
    nonce = bytes(a ^ b for a, b in zip(iv, int.from_bytes(pn, "big").to_bytes(12, "big")))
    return AESGCM(key).decrypt(nonce, packet[pn_offset + pn_length:pn_offset + length], header)


def main():
    client_hello = decrypt_long(A2_CLIENT_INITIAL, b"client in")
    assert client_hello.startswith(bytes.fromhex("060040f1010000ed0303ebf8fa56f129")), "A.2 plaintext"
    server_hello = decrypt_long(A3_SERVER_INITIAL, b"server in")
    assert server_hello.startswith(bytes.fromhex("02000000000600405a020000560303eefce7f7b37ba1d1")), "A.3 plaintext"

    # Version Negotiation (RFC 9000 §17.2.1) answering A.2: the connection IDs swapped, version 0,
    # QUIC v1, v2 (RFC 9369) and a reserved 0x?a?a?a?a version.
    version_negotiation = (bytes([0x80 | 0x2A]) + b"\x00\x00\x00\x00"
                           + bytes([len(SERVER_CID)]) + SERVER_CID + bytes([len(CLIENT_DCID)]) + CLIENT_DCID
                           + bytes.fromhex("00000001" "6b3343cf" "1a2a3a4a"))

    client, server = ("192.0.2.10", 49152), ("192.0.2.20", 443)
    frames = []
    for index, (payload, source, destination) in enumerate([
            (A2_CLIENT_INITIAL, client, server), (A3_SERVER_INITIAL, server, client), (A4_RETRY, server, client),
            (version_negotiation, server, client), (A5_SHORT, server, client)]):
        frame = (Ether(src="02:00:00:00:51:0a", dst="02:00:00:00:51:14") / IP(src=source[0], dst=destination[0])
                 / UDP(sport=source[1], dport=destination[1]) / Raw(payload))
        if source == server:
            frame[Ether].src, frame[Ether].dst = frame[Ether].dst, frame[Ether].src
        frame.time = 1795000000 + index / 100
        frames.append(frame)
    wrpcap(sys.argv[1], frames)


if __name__ == "__main__":
    main()
