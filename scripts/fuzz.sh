#!/usr/bin/env bash
# Runs one libFuzzer target, then minimises and records whatever it found.
#
#   scripts/fuzz.sh TARGET [SECONDS]      TARGET: one of `linkconform fuzz targets --names`
#
# Builds the target with libFuzzer and AddressSanitizer (a build folder of its own, .build-fuzz),
# runs it for SECONDS (default 60) on both cores (FUZZ_JOBS=1 for one), with the target's
# dictionary (Corpus/fuzz/TARGET.dict), its seeds (Corpus/fuzz/TARGET/) and regression inputs
# (Corpus/fuzz/regressions/TARGET/) read-only, and a work corpus in .fuzz/TARGET/ (not in git).
# Each crash, leak, timeout or out-of-memory is minimised and recorded in the results store
# (`linkconform findings`). Prints exec/s, coverage and corpus size at the end.
# Exit: 0 nothing found, 1 findings recorded, 2 the harness could not run, 64 usage.
set -euo pipefail
cd "$(dirname "$0")/.."

# The targets come from the one table in Swift (FuzzTargetTable), through the release CLI that
# also records the findings.
swift build -c release --product linkconform 2>&1 | grep -E "error" >&2 || true
LINKCONFORM=.build/release/linkconform
[ -x "$LINKCONFORM" ] || { echo "cannot build linkconform (swift build -c release --product linkconform)" >&2; exit 2; }
TARGETS=$("$LINKCONFORM" fuzz targets --names | tr '\n' ' ')
usage() { echo "usage: scripts/fuzz.sh TARGET [SECONDS]   (TARGET: $(echo $TARGETS | sed 's/ /, /g'))" >&2; exit 64; }
[ $# -ge 1 ] || usage
TARGET=$1
RUN_SECONDS=${2:-60}
JOBS=${FUZZ_JOBS:-2}
[[ " $TARGETS " == *" $TARGET "* ]] || usage
[[ "$RUN_SECONDS" =~ ^[0-9]+$ ]] || usage

WORK=.fuzz/$TARGET
mkdir -p "$WORK/corpus" "$WORK/artifacts" "$WORK/minimised" "Corpus/fuzz/regressions/$TARGET"

echo "building fuzz-$TARGET with libFuzzer and AddressSanitizer..."
BIN=$(scripts/fuzz-build.sh "$TARGET" .build-fuzz address 2> "$WORK/build.log") || true
[ -n "$BIN" ] && [ -x "$BIN" ] || { tail -20 "$WORK/build.log" >&2; echo "the fuzz build failed (log: $WORK/build.log)" >&2; exit 2; }

# The environment and options every run shares (SWIFT_BACKTRACE, ASAN_OPTIONS, the dictionary, limits).
. scripts/fuzz-options.sh
fuzz_options "$TARGET" "$RUN_SECONDS"
ARGS=("${FUZZ_OPTIONS[@]}" -artifact_prefix="$WORK/artifacts/" -print_final_stats=1)
if [ "$JOBS" -gt 1 ]; then
    ARGS+=(-fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
LOG=$WORK/fuzz.log
echo "fuzzing $TARGET for ${RUN_SECONDS}s on $JOBS core(s); log: $LOG"
set +e
"$BIN" "${ARGS[@]}" "$WORK/corpus" "${FUZZ_SEEDS[@]}" >"$LOG" 2>&1 &
FUZZER=$!
trap 'kill $FUZZER 2>/dev/null' INT TERM
# Progress: the newest status line, every 15 seconds.
while kill -0 $FUZZER 2>/dev/null; do
    sleep 15
    line=$(grep -aE "(cov:|pulse)" "$LOG" | tail -1)
    [ -n "$line" ] && echo "  $line"
done
wait $FUZZER
set -e

# Findings: minimise each new artifact, replay it for its report, record it.
# fails INPUT REPORT: replays INPUT once, writes its report, and succeeds when it failed.
fails() { ! "$BIN" -timeout=10 -rss_limit_mb=2048 -runs=1 "$1" >"$2" 2>&1; }
found=0
for artifact in "$WORK"/artifacts/crash-* "$WORK"/artifacts/leak-* "$WORK"/artifacts/timeout-* "$WORK"/artifacts/oom-*; do
    [ -f "$artifact" ] || continue
    name=$(basename "$artifact")
    minimised=$WORK/minimised/$name
    if [ ! -f "$minimised" ]; then
        case $name in
            crash-*|leak-*) "$BIN" -minimize_crash=1 -runs=20000 -exact_artifact_path="$minimised" "$artifact" >/dev/null 2>&1 || true ;;
        esac
        [ -f "$minimised" ] || cp "$artifact" "$minimised"
    fi
    report=$WORK/minimised/$name.report
    if ! fails "$minimised" "$report"; then
        # libFuzzer's minimiser can end on an input that no longer fails: keep the artifact.
        cp "$artifact" "$minimised"
        if ! fails "$minimised" "$report"; then
            echo "warning: $name does not fail when replayed alone (it may depend on earlier inputs); kept as $minimised, not recorded" >&2
            rm -f "$artifact"
            continue
        fi
    fi
    "$LINKCONFORM" findings record --target "$TARGET" --log "$report" --input "$minimised" || true
    rm -f "$artifact"
    found=$((found + 1))
done

# Figures: from the last status line (#EXECUTIONS ... cov: EDGES ft: FEATURES ... time: Ts in
# fork mode), and libFuzzer's final statistics when it printed them (one core).
stats=$(grep -aE "^#[0-9]+.*cov:" "$LOG" | tail -1 || true)
units=$(echo "$stats" | grep -oE "^#[0-9]+" | tr -d '#' || true)
elapsed=$(echo "$stats" | grep -oE " time: [0-9]+" | awk '{print $2}' || true)
execs=$(grep -aE "stat::average_exec_per_sec" "$LOG" | tail -1 | awk '{print $2}' || true)
if [ -z "$execs" ] && [ -n "$units" ] && [ -n "$elapsed" ] && [ "$elapsed" -gt 0 ]; then execs=$((units / elapsed)); fi
cov=$(echo "$stats" | grep -oE "cov: [0-9]+" | awk '{print $2}' || true)
ft=$(echo "$stats" | grep -oE "ft: [0-9]+" | awk '{print $2}' || true)
corpus=$(find "$WORK/corpus" -type f | wc -l)
echo "$TARGET: ${RUN_SECONDS}s on $JOBS core(s), ${units:-?} inputs run, ${execs:-?} exec/s, coverage ${cov:-?} edges (${ft:-?} features), work corpus $corpus inputs, $found new artifact(s)"
if [ "$found" -gt 0 ]; then
    echo "see: $LINKCONFORM findings --target $TARGET"
    exit 1
fi
