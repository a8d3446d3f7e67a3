#!/usr/bin/env bash
# Makes the 802.11 captures (issue 30) and records tshark's dissection of the same bytes as the
# oracle the tests compare with.
#
#   scripts/capture-wlan.sh      (needs tshark and python3-scapy)
#
# CRAFTED, not captured: the plan was hostapd and wpa_supplicant on mac80211_hwsim radios in two
# network namespaces, captured on hwsim0 with radiotap headers; this sandbox's kernel has no
# mac80211_hwsim module (`modprobe mac80211_hwsim` fails: not found in /lib/modules), so the
# frames are written with scapy (scripts/corpus/wlan_full.py) as that setup would produce them: a
# WPA2-PSK 802.11ax access point on channel 36 (elements as hostapd 2.10 writes them) and one
# station, each frame behind the radiotap header mac80211_hwsim writes (flags, rate, channel,
# antenna signal).
#
#   wlan-full.pcap   link type 127: beacon (SSID, rates, DS parameter, TIM, country, ERP, RSN, HT
#                    capabilities and operation, extended capabilities, VHT capabilities and
#                    operation, HE capabilities and operation, WMM parameter, WPS), probe request
#                    and response, open-system authentication, association request (RSN,
#                    HT/VHT/HE, WMM information) and response, the 4-way handshake (EAPOL-Key in
#                    QoS data), ADDBA request and response, CCMP- and TKIP-protected QoS data, a
#                    WEP-protected data frame (payload opaque), an A-MSDU of two subframes, RTS,
#                    CTS, ACK, Block Ack Request, compressed Block Ack, PS-Poll, CF-End, null and
#                    QoS null data, disassociation, deauthentication.
#   ppi-wlan.pcap    link type 192: PPI headers (802.11-Common, 802.11n MAC extension) before a
#                    beacon, a protected QoS data frame and an ACK ending with its FCS.
#
# Each capture is written to Corpus/captures/<name>.pcap with fixed timestamps (scripts/corpus/
# common.py's write_capture), with its oracle Corpus/oracle/<name>.json and <name>.checksums.tsv.
# Running again rewrites the files byte for byte.
set -euo pipefail
cd "$(dirname "$0")/corpus"
python3 wlan_full.py
