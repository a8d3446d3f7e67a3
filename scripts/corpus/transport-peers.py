#!/usr/bin/env python3
"""The peers scripts/capture-transport.sh runs in its network namespaces (bounded in time and count):

    transport-peers.py mptcp-server PORT CONNECTIONS
    transport-peers.py mptcp-client HOST PORT close|abort MESSAGES
    transport-peers.py udplite-server ADDRESS PORT DATAGRAMS
    transport-peers.py udplite-client ADDRESS PORT

MPTCP is a socket of protocol IPPROTO_MPTCP (262); `abort` closes with SO_LINGER 0, so that the
kernel ends the connection with MP_FASTCLOSE (and MP_TCPRST on the subflows). UDP-Lite is protocol
IPPROTO_UDPLITE (136); the client sends with checksum coverages 8 (the header only), 20 and 0 (all).
"""
import socket
import struct
import sys
import time

IPPROTO_MPTCP = 262
IPPROTO_UDPLITE = 136
UDPLITE_SEND_CSCOV = 10
UDPLITE_RECV_CSCOV = 11


def mptcp_server(port, connections):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("0.0.0.0", port))
    server.listen(4)
    server.settimeout(20)
    for _ in range(connections):
        connection, _ = server.accept()
        connection.settimeout(10)
        try:
            while True:
                data = connection.recv(4096)
                if not data:
                    break
                connection.sendall(data[:64])
        except OSError:
            pass
        connection.close()


def mptcp_client(host, port, mode, messages):
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP)
    client.settimeout(10)
    client.connect((host, port))
    for number in range(messages):
        client.sendall(b"mptcp data %d " % number * 20)
        try:
            client.recv(4096)
        except OSError:
            pass
        time.sleep(0.4)
    if mode == "abort":
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    client.close()


def udplite_server(address, port, datagrams):
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    server = socket.socket(family, socket.SOCK_DGRAM, IPPROTO_UDPLITE)
    server.setsockopt(IPPROTO_UDPLITE, UDPLITE_RECV_CSCOV, 8)
    server.bind((address, port))
    server.settimeout(10)
    for _ in range(datagrams):
        try:
            data, peer = server.recvfrom(4096)
        except OSError:
            break
        server.setsockopt(IPPROTO_UDPLITE, UDPLITE_SEND_CSCOV, 12)
        server.sendto(b"ack " + data[:16], peer)


def udplite_client(address, port):
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    client = socket.socket(family, socket.SOCK_DGRAM, IPPROTO_UDPLITE)
    client.settimeout(2)
    for coverage in (8, 20, 0):
        client.setsockopt(IPPROTO_UDPLITE, UDPLITE_SEND_CSCOV, coverage)
        client.sendto(b"udp-lite coverage %d: " % coverage + b"x" * 40, (address, port))
        try:
            client.recvfrom(4096)
        except OSError:
            pass


if __name__ == "__main__":
    role, args = sys.argv[1], sys.argv[2:]
    if role == "mptcp-server":
        mptcp_server(int(args[0]), int(args[1]))
    elif role == "mptcp-client":
        mptcp_client(args[0], int(args[1]), args[2], int(args[3]))
    elif role == "udplite-server":
        udplite_server(args[0], int(args[1]), int(args[2]))
    elif role == "udplite-client":
        udplite_client(args[0], int(args[1]))
