#!/usr/bin/env bash
# The speed ratios, measured in one run (harness/benches/README.md):
#  (a) per lane, `wireshape shape --pipeline v1 --lane L FILE` end to end (the
#      release CLI process: wall time and peak RSS) over the serde_json floor
#      (examples/serde_floor.rs: parse + pretty-print of the same file),
#      measured right beside it. Target: <= 3.
#  (b) per lane, the in-memory v1 shaping rate (examples/shape_rate.rs: parsed
#      tools in, shaped out, no I/O) over the fastest Python peer's in-process
#      rate on the same schemas (peers_inprocess.py). Target: >= 20.
# Prints a markdown table with the command line and date to stdout; progress
# goes to stderr.
#
# Usage: bash harness/benches/ratios.sh [--input CATALOG] [--python PY]
#          [--peers PY_PEERS] [--lanes L1,L2,...] [--no-peers]
#  --input   the catalog to shape (default: every tool of the first
#            directory of $WIRESHAPE_CORPUS_PATH, else ../shared/corpus, built by
#            alltools.py into target/ratios/alltools.json: 14,142 tools, 40 MB)
#  --python  the interpreter the peers are installed in
#            (default $WIRESHAPE_PEERS_PYTHON, else /tmp/peers-venv/bin/python;
#            install: bash ../shared/peers/setup.sh)
#  --peers   the peers' driver py_peers.py (default $WIRESHAPE_PEERS_DRIVER,
#            else ../shared/peers/py_peers.py), read in place
#  --lanes   a subset of the 16 lanes (default: all)
#  --no-peers  the Rust side only
# Without the peers the peer columns say n/a and the script still exits 0.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
command_line="bash harness/benches/ratios.sh${*:+ $*}"

input=""
python=${WIRESHAPE_PEERS_PYTHON:-/tmp/peers-venv/bin/python}
driver=${WIRESHAPE_PEERS_DRIVER:-$root/../shared/peers/py_peers.py}
lanes_arg=""
peers=yes
while [ $# -gt 0 ]; do
  case $1 in
    --input) input=${2:?--input needs a value}; shift 2 ;;
    --python) python=${2:?--python needs a value}; shift 2 ;;
    --peers) driver=${2:?--peers needs a value}; shift 2 ;;
    --lanes) lanes_arg=${2:?--lanes needs a value}; shift 2 ;;
    --no-peers) peers=no; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "ratios.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
# Paths given relative to where the script was called from.
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
[ -z "$input" ] || input=$(abs "$input")
case $python in */*) python=$(abs "$python") ;; esac
driver=$(abs "$driver")
# The first directory of WIRESHAPE_CORPUS_PATH (a `:` list, as for `wireshape run`).
corpus=$(abs "$(echo "${WIRESHAPE_CORPUS_PATH:-$root/../shared/corpus}" | tr ':' '\n' | grep -m1 .)")
cd "$root"
PEER_LANES=(pydantic-ai:openai-strict openai:to-strict anthropic:transform-schema google-genai:process-schema)

say() { echo "ratios.sh: $*" >&2; }
commas() { printf "%s" "$1" | rev | sed 's/\([0-9]\{3\}\)/\1,/g; s/,$//' | rev; }

# Build what is measured (release, the locked dependency versions).
say "building (release)"
cargo build --release --locked --bin wireshape --example serde_floor --example shape_rate >&2
target=${CARGO_TARGET_DIR:-target}
case $target in /*) ;; *) target=$root/$target ;; esac
bin=$target/release

# The input: given, or the whole shared corpus in one catalog.
if [ -z "$input" ]; then
  [ -d "$corpus/catalogs" ] || { say "no corpus at $corpus: set WIRESHAPE_CORPUS_PATH or pass --input"; exit 2; }
  mkdir -p "$target/ratios"
  input=$target/ratios/alltools.json
  say "building $input from $corpus"
  python3 harness/benches/alltools.py "$corpus" "$input" >/dev/null
fi
[ -f "$input" ] || { say "no such file: $input"; exit 2; }

if [ -n "$lanes_arg" ]; then
  IFS=, read -r -a lanes <<<"$lanes_arg"
else
  mapfile -t lanes < <("$bin/wireshape" lanes | awk '{print $1}')
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure CMD...: run CMD (stdout to /dev/null); sets wall (s), rss (MB), rc.
measure() {
  local t0 t1
  t0=$(date +%s%N)
  set +e
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$tmp/rss" "$@" >/dev/null 2>"$tmp/err"
  else
    echo 0 >"$tmp/rss"; "$@" >/dev/null 2>"$tmp/err"
  fi
  rc=$?
  set -e
  t1=$(date +%s%N)
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
  rss=$(tail -n 1 "$tmp/rss" | awk '{ printf "%.0f", $1 / 1024 }')
}

# (a) the CLI against the floor, lane by lane, each beside its own floor.
say "warming the page cache"
"$bin/examples/serde_floor" "$input" >/dev/null
declare -A shape_s shape_rss floor_s shape_rc
floor_rss=0
for lane in "${lanes[@]}"; do
  measure "$bin/examples/serde_floor" "$input"
  [ "$rc" = 0 ] || { say "serde_floor failed: $(cat "$tmp/err")"; exit 1; }
  floor_s[$lane]=$wall; floor_rss=$rss
  measure "$bin/wireshape" shape --pipeline v1 --lane "$lane" "$input"
  # exit 1: some tool errored (a documented limit such as nesting depth)
  [ "$rc" -le 1 ] || { say "wireshape shape --lane $lane failed (exit $rc): $(head -c 500 "$tmp/err")"; exit 1; }
  shape_s[$lane]=$wall; shape_rss[$lane]=$rss; shape_rc[$lane]=$rc
  say "$lane: shape ${wall} s, floor ${floor_s[$lane]} s"
done

# (b) in memory: wireshape v1, then the peers, on the same schemas.
say "in-memory v1 shaping rate"
declare -A rate
while IFS=$'\t' read -r lane n secs r; do
  rate[$lane]=$r; tools=$n
done < <("$bin/examples/shape_rate" "$input" "${lanes[@]}")

peer=""; peer_rate=""; peer_note=""; peer_lines=""
if [ "$peers" = no ]; then
  peer_note="peer columns missing: --no-peers"
elif ! command -v "$python" >/dev/null; then
  peer_note="peer columns missing: no interpreter at $python (install the peers: bash ../shared/peers/setup.sh, or pass --python)"
elif [ ! -f "$driver" ]; then
  peer_note="peer columns missing: no peers driver at $driver (pass --peers)"
else
  say "the peers' in-process rate (${PEER_LANES[*]})"
  "$python" harness/benches/peers_inprocess.py --peers "$driver" "$input" "${PEER_LANES[@]}" >"$tmp/peers"
  while IFS=$'\t' read -r name n secs r errored shaped_rate; do
    if [ "$n" = unavailable ]; then
      peer_lines+="- $name: unavailable ($secs)"$'\n'
      continue
    fi
    peer_lines+="- $name: $(commas "$n") schemas in $secs s = $(commas "$r")/s; it raised on $(commas "$errored"), its rate on the $(commas $((n - errored))) it shaped: $(commas "$shaped_rate")/s"$'\n'
    if [ -z "$peer_rate" ] || [ "$r" -gt "$peer_rate" ]; then peer=$name; peer_rate=$r; fi
  done <"$tmp/peers"
  [ -n "$peer_rate" ] || peer_note="peer columns missing: no peer lane imports under $python"
fi

# The table.
meet_a=0; meet_b=0
echo "| lane | shape wall s | floor s | ratio | RSS MB | in-memory v1 tools/s | fastest peer tools/s | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for lane in "${lanes[@]}"; do
  ra=$(awk -v a="${shape_s[$lane]}" -v b="${floor_s[$lane]}" 'BEGIN { printf "%.1f", a / b }')
  awk -v r="$ra" 'BEGIN { exit !(r <= 3) }' && meet_a=$((meet_a + 1))
  if [ -n "$peer_rate" ]; then
    rb=$(awk -v a="${rate[$lane]}" -v b="$peer_rate" 'BEGIN { printf "%.1f", a / b }')
    awk -v r="$rb" 'BEGIN { exit !(r >= 20) }' && meet_b=$((meet_b + 1))
    pr=$(commas "$peer_rate")
  else
    rb=n/a; pr=n/a
  fi
  err=""; [ "${shape_rc[$lane]}" = 0 ] || err=" ¹"
  echo "| \`$lane\`$err | ${shape_s[$lane]} | ${floor_s[$lane]} | $ra | ${shape_rss[$lane]} | $(commas "${rate[$lane]}") | $pr | $rb |"
done
echo
# Shown relative to the workspace root when it is inside it: the table goes
# into the README, which names no path of the machine it was measured on.
shown=${input#"$root"/}
echo "Input: \`$shown\` ($(commas "$tools") tools, $(du -m "$input" | cut -f1) MB). Floor (\`examples/serde_floor.rs\`): serde_json parse + pretty-print of the same file, measured beside each lane, peak RSS $floor_rss MB."
for lane in "${lanes[@]}"; do
  if [ "${shape_rc[$lane]}" != 0 ]; then
    echo "¹ \`wireshape shape\` exited ${shape_rc[$lane]}: some tools errored (shipped unchanged), timed all the same."
    break
  fi
done
if [ -n "$peer_rate" ]; then
  echo "Fastest peer: $peer ($python, deep copy + transform per schema, parse not timed):"
  printf "%s" "$peer_lines"
else
  echo "$peer_note"
fi
if [ -n "$peer_rate" ]; then met_b="$meet_b of ${#lanes[@]} lanes"; else met_b="n/a (no peers)"; fi
echo "Targets: shape/floor <= 3 on $meet_a of ${#lanes[@]} lanes; in-memory/peer >= 20 on $met_b."
echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), wireshape $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- harness || echo '+dirty'), release build:"
echo
echo "    $command_line"
