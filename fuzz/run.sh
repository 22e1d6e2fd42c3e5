#!/usr/bin/env bash
# Fuzz every target (or the ones named) for SECONDS each on stable (`-s none`:
# no sanitizer; no comparison tracing), and print runs and exec/s per target.
#   bash fuzz/run.sh SECONDS [TARGET...]
# FUZZ_JOBS=N runs N targets at a time (default 1: the cores are shared).
# Any crash (or timeout, or out-of-memory) makes the script exit non-zero;
# the input is in fuzz/artifacts/<target>/ (fuzz/README.md: minimize, commit).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(shape_no_panic shape_idempotent shape_conforms shape_never_silent catalog_load_no_panic oracle_no_panic)
fi
jobs=${FUZZ_JOBS:-1}
# No sanitizer (`-s none`: stable Rust) and no comparison tracing: without
# it the targets ran 1.2-2.2x the inputs per second and reached more
# coverage in the same minute on every target (fuzz/README.md, "Measured").
# `cargo fuzz run` and `tmin` must get the same flags, or they rebuild.
build_flags=(-s none --no-trace-compares)
# -entropic_scale_per_exec_time=1: libFuzzer schedules the inputs that run
# fast up to 30x more often than the slow ones (the grown corpora lean to
# large generated gemini-openapi schemas that cost hundreds of times the
# median input). Over ten minutes from the same corpus it ran 8.5x the
# inputs and reached more coverage (fuzz/README.md, "Measured").

# Build once, up front, so the fuzzing time is all fuzzing.
cargo fuzz build "${build_flags[@]}"

fuzz_one() {
  local t=$1 log status=0 runs rate
  mkdir -p "corpus/$t" "artifacts/$t"
  log="artifacts/$t/last-run.log"
  # libFuzzer can hang after reporting a timeout: bound the whole run
  # (with room for a rebuild when the sources changed since the build above).
  timeout --kill-after=10 $((seconds + 600)) cargo fuzz run "$t" "${build_flags[@]}" "corpus/$t" "seeds/$t" -- \
    -dict=json-schema.dict -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=4096 -entropic_scale_per_exec_time=1 -print_final_stats=1 >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ "$status" -eq 0 ]; then
    echo "$t: ${runs:-?} runs, ${rate:-?} exec/s in ${seconds}s, no crash"
  else
    echo "$t: CRASH (status $status) after ${runs:-?} runs; log: fuzz/$log"
    grep -E "panicked|property violated|ALARM|out-of-memory|Test unit written" "$log" | cut -c1-400 | head -10
  fi
  return "$status"
}

failed=0
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
exit "$failed"
