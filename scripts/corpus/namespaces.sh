# Two network namespaces, $A and $B, joined by a veth pair, for the corpus scripts that capture
# real clients and servers. Source it after setting A, B (the namespaces' names) and work (a
# temporary directory): it removes both namespaces, kills what was started in the background
# and deletes $work on exit.
#   veth_pair IF_A IF_B MAC_A MAC_B   creates the pair, brings lo up on both sides, sets the MACs
#   in_a / in_b COMMAND…              runs a command in one namespace
#   background_a / background_b CMD…  starts one there, killed on exit
pids=()

cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 0.5
  ip netns del "$A" 2>/dev/null || true
  ip netns del "$B" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
in_a() { ip netns exec "$A" "$@"; }
in_b() { ip netns exec "$B" "$@"; }
background_a() { ip netns exec "$A" "$@" >/dev/null 2>&1 & pids+=($!); }
background_b() { ip netns exec "$B" "$@" >/dev/null 2>&1 & pids+=($!); }

veth_pair() {
  ip netns add "$A"
  ip netns add "$B"
  ip link add "$1" netns "$A" type veth peer name "$2" netns "$B"
  in_a ip link set lo up
  in_b ip link set lo up
  in_a ip link set "$1" address "$3"
  in_b ip link set "$2" address "$4"
}
