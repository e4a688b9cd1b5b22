#!/usr/bin/env bash
# The Dutch pairing engine beside bbpPairings: the same input files, each program run as a
# pairing program is run (`--dutch IN.trf -p OUT.txt`: read the file, pair the next round,
# write the pairs), timed by hyperfine when installed, else by a loop; then a table, and
# whether both programs made the same pairing.
#
#   scripts/bench-dutch.sh [--bbp PATH/bbpPairings.exe] [--runs N] [--cases small|large|all]
#
# The cases (issue 15): a 150-player Swiss of 9 rounds paired for round 9; a 1,000-player Swiss
# of 11 rounds paired for round 11.
# Inputs: made once into $WORK (default ${CARGO_TARGET_DIR:-target}/bench-dutch) and reused —
# by bbpPairings' random tournament generator with a fixed seed when bbpPairings is given
# (--bbp, $BBPPAIRINGS or bbpPairings.exe on the PATH), else by our own generator
# (crates/tournament/examples/dutch_bench_input.rs: every round paired by our engine, random
# results); then cut before the round to pair. Without bbpPairings only Arbiter is timed.
#
# bbpPairings (Apache-2.0) is only a peer to measure against: build it from its source
# (github.com/BieremaBoyzProgramming/bbpPairings, `make`), nothing of it is in this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

bbp=${BBPPAIRINGS:-$(command -v bbpPairings.exe || true)}
runs=""
cases=all
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bbp) bbp=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "bench-dutch: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ -n "$bbp" && ! -x "$bbp" ]]; then
  echo "bench-dutch: $bbp is not an executable" >&2
  exit 2
fi

target=${CARGO_TARGET_DIR:-$root/target}
work=${WORK:-$target/bench-dutch}
mkdir -p "$work"
cargo build --quiet --release -p arbiter -p arbiter-tournament --bin arbiter --example dutch_bench_input
arbiter=$target/release/arbiter
input_tool=$target/release/examples/dutch_bench_input

# name players rounds round-to-pair seed runs
all_cases=(
  "swiss150-r9 150 9 9 150 10"
  "swiss1000-r11 1000 11 11 1000 3"
)

# Makes $work/NAME.trf (the tournament before ROUND is paired) unless it is there.
make_input() {
  local name=$1 players=$2 rounds=$3 round=$4 seed=$5
  local input=$work/$name.trf full=$work/$name.full.trf
  [[ -s "$input" ]] && return
  if [[ -n "$bbp" ]]; then
    echo "   $name: generating with bbpPairings' random tournament generator (seed $seed)" >&2
    printf '%s\n' "PlayersNumber=$players" "RoundsNumber=$rounds" "DrawPercentage=33" \
      "ForfeitRate=11" "RetiredRate=268" "HalfPointByeRate=168" "HighestRating=2700" \
      "LowestRating=1000" >"$work/$name.cfg"
    "$bbp" --dutch -g "$work/$name.cfg" -o "$full" -s "$seed" >/dev/null
  else
    echo "   $name: generating with our generator (seed $seed; no bbpPairings)" >&2
    "$input_tool" generate "$players" "$rounds" "$seed" "$((round - 1))" >"$full"
  fi
  "$input_tool" cut "$full" "$round" >"$input"
}

# Prints the mean and the fastest time (seconds) of running "$@" $runs times.
time_command() {
  local n=$1; shift
  if command -v hyperfine >/dev/null; then
    hyperfine --style none --warmup 1 --runs "$n" --export-csv "$work/hyperfine.csv" "$*" >/dev/null
    # command,mean,stddev,median,user,system,min,max
    awk -F, 'NR == 2 { printf "%.3f %.3f\n", $2, $7 }' "$work/hyperfine.csv"
  else
    "$@" >/dev/null
    local times=()
    for ((i = 0; i < n; i++)); do
      local start end
      start=$(date +%s.%N)
      "$@" >/dev/null
      end=$(date +%s.%N)
      times+=("$(echo "$end - $start" | bc)")
    done
    printf '%s\n' "${times[@]}" | awk '{ s += $1; if (NR == 1 || $1 < m) m = $1 } END { printf "%.3f %.3f\n", s / NR, m }'
  fi
}

echo "== Dutch pairing: arbiter $("$arbiter" --version | awk '{print $2}')${bbp:+ beside $bbp}"
echo "   timer: $(command -v hyperfine >/dev/null && echo hyperfine || echo 'date loop')"
rows=()
for case in "${all_cases[@]}"; do
  read -r name players rounds round seed case_runs <<<"$case"
  case "$cases" in
    small) [[ $players -gt 200 ]] && continue ;;
    large) [[ $players -le 200 ]] && continue ;;
  esac
  make_input "$name" "$players" "$rounds" "$round" "$seed"
  n=${runs:-$case_runs}
  input=$work/$name.trf
  read -r ours_mean ours_min < <(time_command "$n" "$arbiter" pair --dutch "$input" -p "$work/$name.arbiter.txt")
  if [[ -n "$bbp" ]]; then
    read -r bbp_mean bbp_min < <(time_command "$n" "$bbp" --dutch "$input" -p "$work/$name.bbp.txt")
    same=$(cmp -s "$work/$name.arbiter.txt" "$work/$name.bbp.txt" && echo yes || echo NO)
    ratio=$(awk -v a="$ours_mean" -v b="$bbp_mean" 'BEGIN { printf "%.2f", a / b }')
  else
    bbp_mean=- bbp_min=- same=- ratio=-
  fi
  rows+=("$(printf '| %-16s | %7s | %5s | %12s | %12s | %12s | %12s | %14s | %6s |' \
    "$name" "$players" "$round" "$ours_mean" "$ours_min" "$bbp_mean" "$bbp_min" "$ratio" "$same")")
done

echo
printf '| %-16s | %7s | %5s | %12s | %12s | %12s | %12s | %14s | %6s |\n' \
  input players round "arbiter (s)" "fastest (s)" "bbpPairings" "fastest (s)" "arbiter / bbp" same
echo "|------------------|---------|-------|--------------|--------------|--------------|--------------|----------------|--------|"
printf '%s\n' "${rows[@]}"
echo
echo "Inputs and outputs: $work (mean of the runs; 'same': both wrote the same pairing)."
