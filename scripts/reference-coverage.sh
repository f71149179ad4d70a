#!/usr/bin/env bash
# How much of the reference the corpus reaches: builds linkconform with coverage instrumentation
# (debug, scratch folder .build-coverage), runs every suite against the reference, and prints the
# line coverage of the protocol modules; given files, also the lines no case reached.
#
#   scripts/reference-coverage.sh                                   the table
#   scripts/reference-coverage.sh Sources/ULC/ULCParser.swift ...   and each file's unreached lines
#
# A line no case reaches is reference behaviour that nothing in the corpus checks: a case is
# missing (README, "Adding a case"), or the code serves other callers (`explain`, the builders'
# error descriptions, `linkconform check`), which the unit tests cover instead. The first run
# builds for about five minutes; later runs rebuild what changed.
#
# Exit 0, or 2 when the build, the run or the coverage tools failed.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH=.build-coverage
MODULES='ULC|XCallbackURL|XignQR|AASA|AssetLinks|MitIDAppSwitch|LinkURL'

# llvm-cov and llvm-profdata come with the Swift toolchain, beside swift itself.
tool() {
    local beside
    beside="$(dirname "$(readlink -f "$(command -v swift)")")/$1"
    if [ -x "$beside" ]; then echo "$beside"; elif command -v "$1" >/dev/null; then command -v "$1"
    elif command -v xcrun >/dev/null; then echo "xcrun $1"
    else echo "reference-coverage: no $1 beside swift or on PATH" >&2; exit 2; fi
}
COV=$(tool llvm-cov)
PROFDATA=$(tool llvm-profdata)

echo "building linkconform with coverage instrumentation ($SCRATCH)..." >&2
swift build --product linkconform --scratch-path "$SCRATCH" \
    -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping >&2 \
    || { echo "reference-coverage: the build failed" >&2; exit 2; }
BIN="$SCRATCH/debug/linkconform"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "running every suite against the reference..." >&2
LLVM_PROFILE_FILE="$WORK/run-%p.profraw" "$BIN" run --implementation reference \
    --db "$WORK/results.sqlite" --reports "$WORK/reports" --no-progress >/dev/null \
    || { echo "reference-coverage: the reference did not pass its own corpus (run 'linkconform run' to see why)" >&2; exit 2; }
$PROFDATA merge -sparse "$WORK"/*.profraw -o "$WORK/all.profdata"

echo
printf '%-58s %8s %8s %8s\n' "file" "lines" "missed" "covered"
$COV report "$BIN" -instr-profile="$WORK/all.profdata" 2>/dev/null \
    | awk -v modules="$MODULES" '
        $1 ~ ("Sources/(" modules ")/") {
            file = $1; sub(".*/Sources/", "Sources/", file)
            # columns: regions, missed, cover, functions, missed, executed, lines, missed, cover, ...
            printf "%-58s %8s %8s %8s\n", file, $8, $9, $10
        }'

for file in "$@"; do
    echo
    echo "== $file: lines no case reached"
    $COV show "$BIN" -instr-profile="$WORK/all.profdata" "$PWD/$file" 2>/dev/null \
        | awk -F'|' '$2 ~ /^ *0$/ { print $1 "|" $3 }'
done
