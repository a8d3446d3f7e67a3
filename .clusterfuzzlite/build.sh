#!/bin/bash -eu
# Builds every fuzz target for ClusterFuzzLite / OSS-Fuzz: each binary into $OUT with its
# dictionary (fuzz-<target>.dict), seed corpus (fuzz-<target>_seed_corpus.zip, the seeds and
# the regressions) and the bundled schemas ($OUT/schemas, which the targets find beside
# themselves). Runs as it is outside Docker too:
#   OUT=/tmp/cfl-out .clusterfuzzlite/build.sh
# OSS-Fuzz runs this from the Dockerfile's WORKDIR (the repository); locally, from anywhere.
[ -f Package.swift ] || cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.build/clusterfuzzlite-out}
mkdir -p "$OUT"

if command -v precompile_swift >/dev/null 2>&1 || [ -n "${SWIFTFLAGS:-}" ]; then
  # The base-builder-swift image: its flags select the sanitizer the run asks for.
  [ -n "${SWIFTFLAGS:-}" ] || . precompile_swift
  flags=(-c release $SWIFTFLAGS)
else
  # One flag for both sanitizers: SwiftPM's two --sanitize flags reach the compiler in no fixed
  # order and only the last takes effect (see scripts/fuzz.sh).
  flags=(-c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
fi
scratch=.build/clusterfuzzlite

targets="dissector views schema codable roundtrip pcap formats"
for target in $targets; do
  swift build "${flags[@]}" --scratch-path "$scratch" --product "fuzz-$target"
done
bin=$(swift build "${flags[@]}" --scratch-path "$scratch" --show-bin-path)
swift build --product dissect-fuzz
tool=$(swift build --show-bin-path)/dissect-fuzz

rm -rf "$OUT/schemas" && cp -r Schemas "$OUT/schemas"
for target in $targets; do
  cp "$bin/fuzz-$target" "$OUT/"
  "$tool" dictionary "$target" > "$OUT/fuzz-$target.dict"
  [ -s "$OUT/fuzz-$target.dict" ] || rm "$OUT/fuzz-$target.dict"
  rm -f "$OUT/fuzz-$target"_seed_corpus.zip
  python3 - "$OUT/fuzz-$target"_seed_corpus.zip "Corpus/fuzz/$target" "Corpus/regressions/$target" <<'PYTHON'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as archive:
    for folder in sys.argv[2:]:
        if os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):
                archive.write(os.path.join(folder, name), f"{os.path.basename(folder)}-{name}")
PYTHON
done
echo "built into $OUT: $(ls "$OUT" | tr '\n' ' ')"
