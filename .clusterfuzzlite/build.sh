#!/usr/bin/env bash
# ClusterFuzzLite / OSS-Fuzz build: every fuzz target, built with the same command as
# scripts/fuzz.sh (scripts/fuzz-build.sh), laid out the OSS-Fuzz way: $OUT/<target>,
# $OUT/<target>_seed_corpus.zip, $OUT/<target>.dict and $OUT/<target>.options.
set -euo pipefail
cd "$SRC/linkconform"
# The list of targets is the one table in Swift (FuzzTargetTable), printed by the CLI.
swift build -c release --product linkconform --scratch-path "$WORK/tools" >&2
TARGETS=$("$WORK/tools/release/linkconform" fuzz targets --names)
for target in $TARGETS; do
    binary=$(scripts/fuzz-build.sh "$target" "$WORK/build" "${SANITIZER:-address}")
    cp "$binary" "$OUT/$target"
    (cd "Corpus/fuzz/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    if [ -d "Corpus/fuzz/regressions/$target" ]; then
        (cd "Corpus/fuzz/regressions/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    fi
    cp "Corpus/fuzz/$target.dict" "$OUT/$target.dict"
    cat > "$OUT/$target.options" <<OPTIONS
[libfuzzer]
dict = $target.dict
max_len = 4096
timeout = 10
rss_limit_mb = 2048

[asan]
handle_sigill = 1
malloc_context_size = 2
OPTIONS
done
