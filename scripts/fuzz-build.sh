#!/usr/bin/env bash
# Builds one fuzz target with libFuzzer and a sanitizer: the one build command scripts/fuzz.sh
# and .clusterfuzzlite/build.sh share.
#
#   scripts/fuzz-build.sh TARGET [SCRATCH] [SANITIZER]     -> prints the binary's path
#
# Both sanitizers go in one -sanitize flag (two --sanitize options would keep only the last);
# -DFUZZING makes the target's replay main() step aside for libFuzzer's.
#
# AddressSanitizer checks each memory access through a call into its runtime rather than inline
# (-asan-instrumentation-with-call-threshold=0). Swift runs the coverage pass after the ASan
# pass, so an inline check's test of the shadow byte is an integer comparison that the coverage
# pass then traces: a __sanitizer_cov_trace_const_cmp1 call for every load and store, whose
# operands (a shadow byte and 0) are not the code's comparisons, and a coverage counter for each
# check's slow path. The runtime call checks the same bytes and reports the same errors; the
# comparisons of the code under test are still traced (docs/fuzzing.md, "2026-11-27, late").
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=$1
SCRATCH=${2:-.build-fuzz}
SANITIZER=${3:-address}
ASAN_CALLS=()
if [ "$SANITIZER" = address ]; then
    ASAN_CALLS=(-Xswiftc -Xllvm -Xswiftc -asan-instrumentation-with-call-threshold=0)
fi
# SwiftPM does not rebuild what is up to date when only these flags change, so the scratch
# folder records the flags it was built with; when they differ, its build products go (the
# package checkouts stay) and everything is compiled again.
FLAGS="sanitize=fuzzer,$SANITIZER ${ASAN_CALLS[*]+${ASAN_CALLS[*]}}"
STAMP="$SCRATCH/linkconform-fuzz-flags"
mkdir -p "$SCRATCH"
(   # one check at a time: scripts/fuzz.sh may build two targets at once
    flock 9
    if [ "$(cat "$STAMP" 2>/dev/null)" != "$FLAGS" ]; then
        if [ -e "$STAMP" ] || compgen -G "$SCRATCH/*-*-*/release" >/dev/null; then
            echo "fuzz-build: $SCRATCH was built with other flags; compiling it again ($FLAGS)" >&2
            rm -rf "$SCRATCH"/*-*-*/release
        fi
        echo "$FLAGS" > "$STAMP"
    fi
) 9> "$SCRATCH/linkconform-fuzz-flags.lock"
swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,"$SANITIZER" -Xswiftc -DFUZZING ${ASAN_CALLS[@]+"${ASAN_CALLS[@]}"} \
    --product "fuzz-$TARGET" --scratch-path "$SCRATCH" >&2
echo "$SCRATCH/release/fuzz-$TARGET"
