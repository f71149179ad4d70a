#!/usr/bin/env bash
# Builds the benchmarks with link-time and cross-module optimisation, in a build folder of their
# own, then runs linkconform-bench with the given arguments.
#
#   scripts/bench.sh [linkconform-bench arguments]     e.g. scripts/bench.sh xcallback
#
# Swift's release build stops optimising at each module's edge: the parsers call into LinkURL
# (the URL scan, percent-decoding, the nested callback's reading) across one. With
# `--experimental-lto-mode=full` LLVM inlines across those edges at link time, and
# `-cross-module-optimization` lets the Swift optimiser do the same with generic code. Measured
# side by side (docs/benchmarks.md, "2026-11-28, afternoon"): the ULC comparison 4.5x -> 5.4x, the
# x-callback-url one 2.7x -> 3.0x, the same code. Every figure the benchmarks print names the build
# it came from. `.build/release/linkconform-bench` (plain `swift build -c release`) still works.
#
# The first build compiles every product and takes about 10 minutes on a 2-core machine (6 without
# link-time optimisation); later ones compile what changed and link every product again (about a
# minute and a half). The build log goes to .build-bench/build.log.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH=.build-bench
mkdir -p "$SCRATCH"
echo "bench.sh: building the benchmarks with link-time optimisation in $SCRATCH (log: $SCRATCH/build.log)..." >&2
if ! swift build -c release --experimental-lto-mode=full -Xswiftc -cross-module-optimization -Xswiftc -DLINKCONFORM_BENCH_LTO \
        --scratch-path "$SCRATCH" >"$SCRATCH/build.log" 2>&1; then
    tail -n 20 "$SCRATCH/build.log" >&2
    echo "bench.sh: the build failed (log: $SCRATCH/build.log)" >&2
    exit 2
fi
exec "$SCRATCH/release/linkconform-bench" "$@"
