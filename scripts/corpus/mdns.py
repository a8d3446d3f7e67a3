#!/usr/bin/python3
"""Multicast DNS (RFC 6762) crafted with scapy: a query with the QU (unicast response) bit set in
its question's class, the response with cache-flush records (A, AAAA, PTR, SRV, TXT; names
compressed), and a query over IPv6 to ff02::fb. Writes Corpus/captures/mdns.pcap and its oracle
(see common.py).

    cd scripts/corpus && /usr/bin/python3 mdns.py
"""
from scapy.all import DNS, DNSQR, DNSRR, DNSRRSRV, IP, UDP, Ether, IPv6
from scapy.layers.dns import dns_compress

from common import write_capture

MAC_A = "00:11:22:33:44:55"
MAC_V4, MAC_V6 = "01:00:5e:00:00:fb", "33:33:00:00:00:fb"
QU = 0x8000           # question class: unicast response wanted
CACHE_FLUSH = 0x8000  # record class: replaces the cached records of this name and type
IN = 1


def mdns():
    query = DNS(id=0, rd=0, qd=DNSQR(qname="_http._tcp.local", qtype="PTR", qclass=QU | IN)
                / DNSQR(qname="printer.local", qtype="A", qclass=IN))
    service = "web._http._tcp.local"
    response = DNS(id=0, qr=1, aa=1, rd=0, qd=None,
                   an=DNSRR(rrname="_http._tcp.local", type="PTR", rclass=IN, ttl=4500, rdata=service)
                   / DNSRRSRV(rrname=service, rclass=CACHE_FLUSH | IN, ttl=120, priority=0, weight=0, port=8080,
                              target="printer.local")
                   / DNSRR(rrname=service, type="TXT", rclass=CACHE_FLUSH | IN, ttl=4500,
                           rdata=[b"path=/", b"version=1"]),
                   ar=DNSRR(rrname="printer.local", type="A", rclass=CACHE_FLUSH | IN, ttl=120, rdata="192.0.2.9")
                   / DNSRR(rrname="printer.local", type="AAAA", rclass=CACHE_FLUSH | IN, ttl=120,
                           rdata="2001:db8::9"))
    query6 = DNS(id=0, rd=0, qd=DNSQR(qname="printer.local", qtype="AAAA", qclass=QU | IN))
    frames = [
        Ether(dst=MAC_V4, src=MAC_A) / IP(src="192.0.2.1", dst="224.0.0.251", id=1, ttl=255)
        / UDP(sport=5353, dport=5353) / dns_compress(query),
        Ether(dst=MAC_V4, src=MAC_A) / IP(src="192.0.2.9", dst="224.0.0.251", id=2, ttl=255)
        / UDP(sport=5353, dport=5353) / dns_compress(response),
        Ether(dst=MAC_V6, src=MAC_A) / IPv6(src="fe80::1", dst="ff02::fb", hlim=255)
        / UDP(sport=5353, dport=5353) / dns_compress(query6),
    ]
    write_capture("mdns", 1, frames)


if __name__ == "__main__":
    mdns()
