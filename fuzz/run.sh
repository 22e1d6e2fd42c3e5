#!/usr/bin/env bash
# Fuzz every target (or the ones named) for SECONDS each, one at a time,
# on stable (`-s none`: no sanitizer), and print exec/s and runs per target.
#   bash fuzz/run.sh SECONDS [TARGET...]
# A crash stops the script with a non-zero status; the crashing input is in
# fuzz/artifacts/<target>/ (see fuzz/README.md to minimize and commit it).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(shape_no_panic shape_idempotent shape_conforms shape_never_silent catalog_load_no_panic oracle_no_panic)
fi
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  log="artifacts/$t/last-run.log"
  status=0
  cargo fuzz run "$t" -s none "corpus/$t" "seeds/$t" -- \
    -dict=json-schema.dict -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  echo "$t: ${runs:-?} runs, ${rate:-?} exec/s in ${seconds}s"
  if [ "$status" -ne 0 ]; then
    echo "$t: CRASH (status $status); log: fuzz/$log" >&2
    grep -E "panicked|property violated|SUMMARY|Test unit written" "$log" | head -20 >&2 || true
    exit 1
  fi
done
