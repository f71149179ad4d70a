#!/usr/bin/env bash
# The libFuzzer targets' speed, measured side by side: exec/s of each target (one core, no fork,
# AddressSanitizer, release), optionally next to another revision built beside this one.
#
#   scripts/fuzz-bench.sh [-s SECONDS] [-r ROUNDS] [-b REVISION] [TARGET...]
#
#   -s SECONDS   how long each run lasts (default 20)
#   -r ROUNDS    runs per target and build (default 1); the table prints each and their median
#   -b REVISION  also build REVISION (a commit, tag or branch) in a worktree of its own
#                (.fuzz/bench-before, build folder .build-fuzz-before) and run it in alternation
#                with the working tree: before, now, before, now... so that noise on a shared
#                machine hits both alike; the last column is now / before (medians)
#   TARGET       default: every target (`linkconform fuzz targets --names`)
#
# Every run starts from the target's seeds and regression inputs with an empty work corpus, and
# the environment and options of scripts/fuzz.sh (scripts/fuzz-options.sh), so the figures are
# comparable with the ones docs/fuzzing.md lists. The work corpus goes to /dev/shm when there is
# one: libFuzzer writes every new input to a file (thousands in the first seconds), and on some
# disks creating those files took a quarter of the run (kernel time in the file system's inode
# allocation), which is the disk's speed, not the target's.
#
# Prints: target, exec/s of each run (libFuzzer's stat::average_exec_per_sec), the median, edges
# and features reached, and with -b the ratio. Exit 0, or 2 when a build or a run failed.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_RUN=20
ROUNDS=1
BEFORE=""
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }
while getopts "s:r:b:h" opt; do
    case $opt in
        s) SECONDS_PER_RUN=$OPTARG ;;
        r) ROUNDS=$OPTARG ;;
        b) BEFORE=$OPTARG ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ "$SECONDS_PER_RUN" =~ ^[0-9]+$ && "$ROUNDS" =~ ^[0-9]+$ && "$ROUNDS" -ge 1 ]] || usage

swift build -c release --product linkconform 2>&1 | grep -E "error" >&2 || true
TARGETS=$(.build/release/linkconform fuzz targets --names | tr '\n' ' ')
[ $# -gt 0 ] && TARGETS="$*"

mkdir -p .fuzz
build() {   # build SOURCE_DIR SCRATCH TARGET -> path of the binary (relative to SOURCE_DIR)
    local log=$PWD/.fuzz/bench-build.log
    (cd "$1" && scripts/fuzz-build.sh "$3" "$2" address 2>"$log") \
        || { tail -20 "$log" >&2; echo "the fuzz build of $3 in $1 failed (log: $log)" >&2; exit 2; }
}

BEFORE_DIR=""
if [ -n "$BEFORE" ]; then
    BEFORE_DIR=.fuzz/bench-before
    # Resolved here: inside the worktree, a name such as HEAD would mean the worktree's own.
    BEFORE_COMMIT=$(git rev-parse --verify --quiet "$BEFORE^{commit}") || { echo "no such revision: $BEFORE" >&2; exit 64; }
    if [ -d "$BEFORE_DIR" ]; then
        git -C "$BEFORE_DIR" checkout --quiet --detach "$BEFORE_COMMIT"
    else
        git worktree add --quiet --detach "$BEFORE_DIR" "$BEFORE_COMMIT"
    fi
    echo "before: $(git -C "$BEFORE_DIR" log -1 --format='%h %s' | cut -c1-80)" >&2
fi
echo "now:    $(git log -1 --format='%h' HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo ' + uncommitted changes')" >&2

WORKROOT=/dev/shm
[ -d "$WORKROOT" ] && [ -w "$WORKROOT" ] || WORKROOT=${TMPDIR:-/tmp}
# Every run's work corpus and log go in one folder, removed however the script ends (an
# interrupted run would otherwise leave its corpus in memory, in /dev/shm).
BENCH_ROOT=$(mktemp -d "$WORKROOT/linkconform-fuzz-bench.XXXXXX")
trap 'rm -rf "$BENCH_ROOT"' EXIT
trap 'exit 130' INT TERM
. scripts/fuzz-options.sh   # what scripts/fuzz.sh gives every run

# run BINARY TARGET LABEL -> "EXECS EDGES FEATURES" (on a terminal, says what runs meanwhile)
run() {
    [ -t 2 ] && printf '\r\033[K  %s: %s, %ss...' "$2" "$3" "$SECONDS_PER_RUN" >&2
    local work log
    fuzz_options "$2" "$SECONDS_PER_RUN"
    work=$(mktemp -d "$BENCH_ROOT/run.XXXXXX")
    log=$work.log
    "$1" "${FUZZ_OPTIONS[@]}" -print_final_stats=1 "$work" "${FUZZ_SEEDS[@]}" >"$log" 2>&1 \
        || { echo "fuzz-$2 failed: $(tail -3 "$log")" >&2; rm -rf "$work" "$log"; exit 2; }
    local execs edges features
    execs=$(grep -a "stat::average_exec_per_sec" "$log" | awk '{print $2}')
    edges=$(grep -aE "^#[0-9]+.*cov:" "$log" | tail -1 | grep -oE "cov: [0-9]+" | awk '{print $2}')
    features=$(grep -aE "^#[0-9]+.*cov:" "$log" | tail -1 | grep -oE "ft: [0-9]+" | awk '{print $2}')
    rm -rf "$work" "$log"
    [ -t 2 ] && printf '\r\033[K' >&2
    echo "${execs:-0} ${edges:-?} ${features:-?}"
}

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }

printf "%-11s %-26s %-9s %-26s %-9s %s\n" target "before exec/s" median "now exec/s" median "now/before  (edges, features now)"
for target in $TARGETS; do
    now_bin=$(build . .build-fuzz "$target")
    before_bin=""
    [ -n "$BEFORE_DIR" ] && before_bin=$BEFORE_DIR/$(build "$BEFORE_DIR" .build-fuzz-before "$target")
    before_runs="" now_runs="" last="" got=""
    for round in $(seq "$ROUNDS"); do
        if [ -n "$before_bin" ]; then
            # An assignment, so that a failed run stops the script (set -e): inside a here-string
            # its status would be lost, and an empty rate taken for a figure.
            got=$(run "$before_bin" "$target" "before, run $round of $ROUNDS")
            before_runs="$before_runs ${got%% *}"
        fi
        last=$(run "$now_bin" "$target" "now, run $round of $ROUNDS")
        now_runs="$now_runs ${last%% *}"
    done
    now_median=$(echo "$now_runs" | median)
    read -r _ edges features <<<"$last"
    if [ -n "$before_bin" ]; then
        before_median=$(echo "$before_runs" | median)
        ratio=$(awk -v a="$now_median" -v b="$before_median" 'BEGIN { printf (b > 0 ? "%.2fx" : "-"), a / b }')
    else
        before_median="-" ratio="-"
    fi
    printf "%-11s %-26s %-9s %-26s %-9s %s\n" "$target" "${before_runs:- -}" "$before_median" "$now_runs" "$now_median" \
        "$ratio  ($edges, $features)"
done
