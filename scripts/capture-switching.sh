#!/usr/bin/env bash
# Captures switching and discovery protocols and records tshark's dissection of the same bytes as
# the oracle the tests compare with.
#
#   scripts/capture-switching.sh [lldpd] [crafted]
#                           (as root; needs tcpdump, tshark, Debian's lldpd and python3-scapy)
#
# Real daemons: lldpd in two network namespaces joined by a veth pair (02:00:00:00:00:a1 and
# 02:00:00:00:00:b1, 10.98.0.1 and 10.98.0.2; nothing leaves them; both run for 5 seconds with a
# 2-second transmit interval). Side a is an LLDP-MED network connectivity device that also sends
# CDPv2, EDP, FDP and SONMP; side b a class III endpoint sending CDPv1 and v2.
#
#   lldpd.pcap         LLDP: chassis, port (MAC and interface name), TTL, system name, description,
#                      capabilities, IPv4 and IPv6 management addresses; IEEE 802.3 MAC/PHY, power
#                      via MDI (PSE and PD), link aggregation, maximum frame size; LLDP-MED
#                      capabilities, network policy (voice, voice signalling, video conferencing
#                      unknown), location (coordinates, civic address, ELIN), extended power via MDI
#                      (PSE and PD), inventory (set with `configure inventory`). This container has no 8021q or bonding module, so
#                      lldpd has no VLAN or aggregate to report: the IEEE 802.1 TLVs (port VLAN ID,
#                      port and protocol VLAN ID, VLAN name, protocol identity, management VID, link
#                      aggregation), 802.3's link aggregation and maximum frame size, and one TLV of
#                      an unknown OUI are lldpd's custom TLVs (`configure lldp custom-tlv`): their
#                      contents are written here, lldpd sends them.
#   lldpd-cdp.pcap     CDPv1 and CDPv2 from lldpd: device ID, addresses, port ID, capabilities,
#                      software version, platform.
#   lldpd-legacy.pcap  EDP (Extreme: display and info TLVs), FDP (Foundry: device ID, address, port,
#                      capabilities, version, platform) and SONMP (Nortel, tshark's ndp: segment and
#                      flatnet hellos) from lldpd.
#
# Crafted with scapy (scripts/corpus/switching.py), no Linux daemon speaking them: HSRP v1/v2,
# GLBP, UDLD, DTP, VTP, CDP TLVs lldpd does not send, PVST+, MVRP, LLC after an 802.1Q tag, and
# ERSPAN types I, II and III (see that script's header for each capture's frames).
#
# Each capture is copied frame by frame into Corpus/captures/<name>.pcap with fixed timestamps
# (scripts/corpus/common.py's write_capture), with its oracle Corpus/oracle/<name>.json and
# <name>.checksums.tsv. Running again rewrites the files: the crafted ones byte for byte, lldpd's
# with the same frames (-k and `configure inventory` keep the host out of them), perhaps one more
# or fewer as the daemons' timers fall within the 5 seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(lldpd crafted)
a=dsx-sw-a
b=dsx-sw-b

work=$(mktemp -d)
chmod 0755 "$work"      # lldpd runs lldpcli on its configuration as its own user
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
  [ -n "${SWITCHING_KEEP_LOGS:-}" ] && cp -r "$work" "$SWITCHING_KEEP_LOGS"
  rm -rf "$work"
}
trap cleanup EXIT

want() { local w; for w in "${wanted[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }

if want lldpd; then
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
  ip netns add "$a"
  ip netns add "$b"
  ip link add dsxsw0 netns "$a" address 02:00:00:00:00:a1 type veth peer name dsxsw1 netns "$b" address 02:00:00:00:00:b1
  ip -n "$a" addr add 10.98.0.1/24 dev dsxsw0
  ip -n "$b" addr add 10.98.0.2/24 dev dsxsw1
  ip -n "$a" addr add fd00:98::1/64 dev dsxsw0 nodad
  ip -n "$b" addr add fd00:98::2/64 dev dsxsw1 nodad
  for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
  ip -n "$a" link set dsxsw0 up
  ip -n "$b" link set dsxsw1 up

  # lldpcli commands each lldpd runs at start (-O), so that its first frames carry them.
  cat > "$work/a.conf" <<'CONF'
configure system hostname switch-a
configure system description "dsx switch a"
configure lldp tx-interval 2
configure lldp portidsubtype ifname
configure med fast-start enable
configure ports dsxsw0 med location coordinate latitude 48.85667N longitude 2.2014E altitude 117.47 m datum WGS84
configure ports dsxsw0 med location address country FR language en street "Commercial Road" city "Vonnas" building "Hall 3" floor 2 room 214
configure ports dsxsw0 med location elin 1911555123
configure ports dsxsw0 med policy application voice vlan 500 priority voice dscp 46
configure ports dsxsw0 med policy application video-conferencing unknown
configure ports dsxsw0 med power pse source primary priority high value 15000
configure ports dsxsw0 dot3 power pse supported enabled paircontrol powerpairs spare class class-3 type 2 source primary priority low requested 13000 allocated 15400
configure lldp custom-tlv oui 00,80,c2 subtype 1 oui-info 00,0a
configure lldp custom-tlv add oui 00,80,c2 subtype 2 oui-info 06,00,14
configure lldp custom-tlv add oui 00,80,c2 subtype 3 oui-info 00,0a,07,76,6f,69,63,65,2d,61
configure lldp custom-tlv add oui 00,80,c2 subtype 4 oui-info 02,88,8e
configure lldp custom-tlv add oui 00,80,c2 subtype 6 oui-info 00,64
configure lldp custom-tlv add oui 00,80,c2 subtype 7 oui-info 03,00,00,00,05
configure lldp custom-tlv add oui 00,12,0f subtype 3 oui-info 03,00,00,00,07
configure lldp custom-tlv add oui 00,12,0f subtype 4 oui-info 05,ee
configure lldp custom-tlv add oui 33,44,55 subtype 44 oui-info 55,55,55
CONF
  cat > "$work/b.conf" <<'CONF'
configure system hostname phone-b
configure lldp tx-interval 2
configure inventory hardware-revision "rev B"
configure inventory software-revision "dsx-phone 2.1"
configure inventory firmware-revision "1.0.7"
configure inventory serial-number "DSX0001234"
configure inventory manufacturer "dsx"
configure inventory model "desk phone"
configure inventory asset "asset-42"
configure ports dsxsw1 med policy application voice vlan 500 priority voice dscp 46
configure ports dsxsw1 med policy application voice-signaling vlan 500 priority voice dscp 24
configure ports dsxsw1 med power pd source pse priority high value 6500
configure ports dsxsw1 dot3 power pd supported enabled powerpairs signal class class-2 type 2 source pse priority high requested 6500 allocated 6500
CONF

  ip netns exec "$a" tcpdump -U -q -i dsxsw0 -w "$work/lldpd.raw.pcap" 'ether proto 0x88cc' 2>/dev/null & pids+=($!)
  ip netns exec "$a" tcpdump -U -q -i dsxsw0 -w "$work/lldpd-cdp.raw.pcap" 'ether dst 01:00:0c:cc:cc:cc' 2>/dev/null & pids+=($!)
  ip netns exec "$a" tcpdump -U -q -i dsxsw0 -w "$work/lldpd-legacy.raw.pcap" 'not ip and not ip6 and not ether proto 0x88cc and not ether dst 01:00:0c:cc:cc:cc' 2>/dev/null & pids+=($!)
  sleep 1
  # -l: LLDP even with a CDP peer; -ccc: CDPv1 and v2 unasked; -ee -ff -ss: EDP, FDP, SONMP unasked;
  # -M: LLDP-MED class; -k: no kernel release in the system description.
  ip netns exec "$a" timeout 5 lldpd -d -k -l -ccc -ee -ff -ss -M 4 -m 10.98.0.1,fd00:98::1 -I dsxsw0 \
    -u "$work/a.sock" -O "$work/a.conf" -S "dsx switch a" -P dsx 2>"$work/a.log" & pids+=($!)
  ip netns exec "$b" timeout 5 lldpd -d -k -l -cc -M 3 -m 10.98.0.2 -I dsxsw1 \
    -u "$work/b.sock" -O "$work/b.conf" -S "dsx phone b" -P dsx 2>"$work/b.log" & pids+=($!)
  sleep 7
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  pids=()
  for name in lldpd lldpd-cdp lldpd-legacy; do
    python3 scripts/corpus/import_capture.py "$work/$name.raw.pcap" "$name"
  done
fi

if want crafted; then
  python3 scripts/corpus/switching.py
fi
