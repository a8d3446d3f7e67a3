#!/usr/bin/env bash
# DocC documentation of the public modules: their symbol graphs from a build of its own (so the
# everyday build is not rebuilt), then `docc convert` of each module's catalog. A link to a symbol
# that does not exist, or any other warning, fails the run.
#
#   scripts/make-docs.sh            (writes .build/docs/<Module>.doccarchive)
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(BinaryIO BinarySchema BinaryCoding Dissector PacketCapture CapturePipeline)
# The graphs are written when a module is compiled: kept between runs, as the build is.
graphs=.build/docs-build/symbol-graphs
mkdir -p "$graphs/all" .build/docs
for module in "${modules[@]}"; do
  swift build --scratch-path .build/docs-build --target "$module" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs/all" >/dev/null
done
docc=$(command -v docc || echo "$(dirname "$(command -v swift)")/docc")
for module in "${modules[@]}"; do
  rm -rf "${graphs:?}/$module"
  mkdir -p "$graphs/$module"
  cp "$graphs/all/$module.symbols.json" "$graphs/$module/"
  "$docc" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs/$module" \
    --output-path ".build/docs/$module.doccarchive" --fallback-display-name "$module" \
    --fallback-bundle-identifier "dissect.$module" --warnings-as-errors
  echo "docs: .build/docs/$module.doccarchive"
done
