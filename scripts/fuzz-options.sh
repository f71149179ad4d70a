# What every libFuzzer run of a target is given, sourced by scripts/fuzz.sh and
# scripts/fuzz-bench.sh so that the bench measures the runs that fuzz.sh makes.
#
#   . scripts/fuzz-options.sh; fuzz_options TARGET SECONDS    -> FUZZ_OPTIONS=(...), FUZZ_SEEDS=(...)

# Without these, crashes are slow (the Swift backtracer), misattributed or lost (SIGILL).
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=handle_sigill=1:detect_leaks=1:allocator_may_return_null=1:symbolize=1:malloc_context_size=2

# The dictionary, the time, a 10 s timeout per input, 2 GiB of memory, inputs up to 4 KiB; and
# the read-only inputs: the seeds, and the regression inputs when there are any.
fuzz_options() {
    FUZZ_OPTIONS=(-dict="Corpus/fuzz/$1.dict" -max_total_time="$2" -timeout=10 -rss_limit_mb=2048 -max_len=4096)
    FUZZ_SEEDS=("Corpus/fuzz/$1")
    if [ -d "Corpus/fuzz/regressions/$1" ]; then FUZZ_SEEDS+=("Corpus/fuzz/regressions/$1"); fi
}
