#!/usr/bin/env bash
# Builds one fuzz target with libFuzzer and a sanitizer: the one build command scripts/fuzz.sh
# and .clusterfuzzlite/build.sh share.
#
#   scripts/fuzz-build.sh TARGET [SCRATCH] [SANITIZER]     -> prints the binary's path
#
# Both sanitizers go in one -sanitize flag (two --sanitize options would keep only the last);
# -DFUZZING makes the target's replay main() step aside for libFuzzer's.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=$1
SCRATCH=${2:-.build-fuzz}
SANITIZER=${3:-address}
swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,"$SANITIZER" -Xswiftc -DFUZZING \
    --product "fuzz-$TARGET" --scratch-path "$SCRATCH" >&2
echo "$SCRATCH/release/fuzz-$TARGET"
