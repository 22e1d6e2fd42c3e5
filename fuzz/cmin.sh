#!/usr/bin/env bash
# Minimize each target's grown corpus (fuzz/corpus/<target>) in place, or the
# named targets': libFuzzer's merge (`cargo fuzz cmin`) keeps the fewest
# inputs that reach every coverage feature the corpus reaches. A corpus kept
# between rounds only grows; the nightly workflow minimizes it before saving.
#   bash fuzz/cmin.sh [TARGET...]
# cargo fuzz replaces the corpus only when the merge succeeds; this script
# exits non-zero when a target's corpus was left as it was.
set -euo pipefail
cd "$(dirname "$0")"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(shape_no_panic shape_idempotent shape_conforms shape_never_silent catalog_load_no_panic oracle_no_panic)
fi
# The flags fuzz/run.sh builds with, so nothing is rebuilt.
build_flags=(-s none --no-trace-compares)
failed=0
for t in "${targets[@]}"; do
  if [ ! -d "corpus/$t" ] || [ -z "$(ls -A "corpus/$t")" ]; then
    echo "$t: no corpus in fuzz/corpus/$t, nothing to minimize"
    continue
  fi
  mkdir -p "artifacts/$t"
  log="artifacts/$t/last-cmin.log"
  before=$(find "corpus/$t" -type f | wc -l)
  status=0
  timeout --kill-after=10 1800 cargo fuzz cmin "${build_flags[@]}" "$t" "corpus/$t" -- \
    -timeout=20 -rss_limit_mb=2048 >"$log" 2>&1 || status=$?
  after=$(find "corpus/$t" -type f | wc -l)
  if [ "$status" -eq 0 ] && grep -q "^MERGE-OUTER: successful" "$log"; then
    echo "$t: $before -> $after inputs"
  else
    echo "$t: not minimized (status $status), corpus left as it was ($after inputs); log: fuzz/$log"
    failed=1
  fi
done
exit "$failed"
