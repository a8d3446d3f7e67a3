#!/bin/sh
# tcpdump's one-line output (-# -nn -S: numbered, no name lookups, absolute sequence numbers) of
# every TCP segment in Corpus/captures, as "<capture><TAB><tcpdump's line>", in
# Corpus/tcpdump/tcp-segments.txt: SummaryLineTests checks the summary view's TCP flags,
# sequence ranges and acks against it, without needing tcpdump at test time.
#
#     scripts/tcpdump-oracle.sh      (after adding or changing a capture)
set -eu
cd "$(dirname "$0")/.."
mkdir -p Corpus/tcpdump
out=Corpus/tcpdump/tcp-segments.txt
: > "$out"
for capture in Corpus/captures/*.pcap Corpus/captures/*.pcapng; do
    [ -e "$capture" ] || continue
    name=$(basename "$capture")
    tcpdump -# -nn -S -r "$capture" 2>/dev/null | grep -E '^ *[0-9]+ .* IP6? [^ ]+ > [^ ]+: Flags \[' \
        | sed "s|^|$name	|" >> "$out" || true
done
wc -l "$out"
