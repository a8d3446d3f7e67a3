#!/usr/bin/env bash
# A fuzz campaign on one target: build it with libFuzzer and AddressSanitizer, fuzz it from the
# seed corpus with its schema-drawn dictionary, merge new coverage back into Corpus/fuzz/<target>,
# minimize every crash, timeout and out-of-memory input into Corpus/regressions/<target>/, and
# report execs/s, coverage, corpus growth and each crash with its reproducer and stack.
#
#   scripts/fuzz.sh TARGET [SECONDS=600] [JOBS=1]      (make fuzz TARGET=… SECONDS=… JOBS=…)
#
# TARGET: dissector, views, schema, codable, roundtrip, pcap, formats or reassembly. Exits 1 if anything crashed.
# Work files (the growing corpus, logs, raw artifacts) stay in .build/fuzz/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS] [JOBS]}
seconds=${2:-600}
jobs=${3:-1}
case "$target" in
  dissector|views|schema|codable|roundtrip|pcap|formats|reassembly) ;;
  *) echo "unknown target '$target' (dissector, views, schema, codable, roundtrip, pcap, formats, reassembly)" >&2; exit 2 ;;
esac
case "$target" in
  pcap) max_len=65536 ;;
  schema) max_len=8192 ;;
  *) max_len=4096 ;;
esac

work=.build/fuzz/$target
seeds=Corpus/fuzz/$target
regressions=Corpus/regressions/$target
mkdir -p "$work/corpus" "$seeds" "$regressions"
# Artifacts of an earlier campaign were minimized into $regressions then: start clean.
rm -rf "$work/artifacts" && mkdir -p "$work/artifacts"

echo "== building fuzz-$target (libFuzzer + AddressSanitizer, release)"
# A scratch path of its own, so instrumented objects do not replace the plain release build.
# Both sanitizers in one compiler flag: given `--sanitize=fuzzer --sanitize=address`, SwiftPM
# (6.3) passes them as two flags in no fixed order and the compiler keeps only the last, so a
# build came out with coverage but no ASan, or ASan but no coverage.
fuzz_build=(-c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --scratch-path .build/fuzzing)
swift build "${fuzz_build[@]}" --product "fuzz-$target" 2>&1 | grep -E "error:" && exit 1
fuzzer=$(swift build "${fuzz_build[@]}" --show-bin-path)/fuzz-$target
swift build --product dissect-fuzz >/dev/null
tool=$(swift build --show-bin-path)/dissect-fuzz
"$tool" dictionary "$target" > "$work/dictionary"

cp -n "$seeds"/* "$work/corpus/" 2>/dev/null || true
cp -n "$regressions"/* "$work/corpus/" 2>/dev/null || true
corpus_before=$(ls "$seeds" | wc -l)

# Swift's backtracer would take the crash signal and libFuzzer would write no artifact.
export SWIFT_BACKTRACE=enable=no
flags=(-max_len="$max_len" -timeout=10 -rss_limit_mb=2560 -max_total_time="$seconds"
       -artifact_prefix="$work/artifacts/" -print_final_stats=1)
[ -s "$work/dictionary" ] && flags+=(-dict="$work/dictionary")
# With several jobs, fork mode shares one corpus and keeps going after a crash.
[ "$jobs" -gt 1 ] && flags+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)

echo "== fuzzing $target for ${seconds}s with $jobs job(s)"
status=0
"$fuzzer" "${flags[@]}" "$work/corpus" > "$work/log" 2>&1 || status=$?

echo "== merging new coverage into $seeds"
"$fuzzer" -merge=1 -max_len="$max_len" "$seeds" "$work/corpus" > "$work/merge.log" 2>&1 || true
corpus_after=$(ls "$seeds" | wc -l)

crashes=0
for artifact in "$work"/artifacts/crash-* "$work"/artifacts/timeout-* "$work"/artifacts/oom-* "$work"/artifacts/leak-*; do
  [ -e "$artifact" ] || continue
  crashes=$((crashes + 1))
  name=$(basename "$artifact")
  minimized="$regressions/found-$name"
  "$fuzzer" -minimize_crash=1 -runs=20000 -max_len="$max_len" -exact_artifact_path="$minimized" "$artifact" \
    > "$work/minimize-$name.log" 2>&1 || true
  [ -e "$minimized" ] || cp "$artifact" "$minimized"
  echo "-- $name → $minimized ($(wc -c < "$minimized") bytes)"
  "$tool" replay "$target" "$minimized" | sed 's/^/   /' || true
  "$fuzzer" -runs=1 "$minimized" 2>&1 | grep -E "^ +#[0-9]+ |ERROR|Fatal error|SUMMARY" | head -25 | sed 's/^/   /' || true
done

echo "== report: $target"
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" "$work/log" || true
last=$(grep -E "cov: [0-9]+ ft: [0-9]+" "$work/log" | tail -1 || true)
echo "coverage: $(echo "$last" | grep -oE "cov: [0-9]+ ft: [0-9]+" || echo "?") (edges, features)"
echo "corpus: $corpus_before → $corpus_after files in $seeds"
echo "crashes, timeouts, ooms: $crashes (minimized into $regressions)"
echo "fuzzer exit status: $status; log: $work/log"
[ "$crashes" -eq 0 ] && [ "$status" -eq 0 ]
