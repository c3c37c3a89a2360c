#!/usr/bin/env bash
# The lockstep modes against one engine, for one jar: for each round and each ROM,
# `lockstep bench ROM --mode M` for single, lockstep, threads and strict (one JVM each, in turn,
# wall clock), then each mode's fps as a ratio to the same row's single figure, and the median
# ratio per mode and round. A last column, "two", runs two single-engine benches at once (two
# JVMs): what each of two independent engines gets on this machine, the ceiling of the threads
# mode. Two cores are needed for threads and strict to mean anything; run it on an otherwise idle
# machine.
#
# Usage: scripts/lockstep-modes.sh [--frames N] [--warmup W] [--min-seconds S] [--rounds R]
#                                  JAR [-- ROM...]
# Default ROMs: the demo (emulator-core/target/lockstep-demo.nes, left by the build) and the eight
# ROMs of the device speed run under the roms dir ($LOCKSTEP_ROMS, else ../shared/roms).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench-common.sh
. "$root/scripts/bench-common.sh"
bench_parse "--frames --warmup --min-seconds --rounds" "$@"
bench_window
bench_one_jar "$root"
modes=(single lockstep threads strict)
names=(single lockstep threads strict two)
results="$(mktemp)"
trap 'rm -f "$results"' EXIT
printf '%-6s %-22s %9s %9s %9s %9s %9s\n' round rom single lockstep threads strict two
for ((round = 1; round <= rounds; round++)); do
  for r in "${roms[@]}"; do
    row=()
    for m in "${modes[@]}"; do
      fps="$(java -jar "$jar" bench "$r" --mode "$m" --frames "$frames" --warmup "$warmup" \
               --min-seconds "$min_seconds" 2>/dev/null | sed -n 's/.*fps=\([0-9.]*\).*/\1/p' | tail -1)"
      [ -n "$fps" ] || { echo "error: $r: bench --mode $m gave no figure" >&2; exit 1; }
      row+=("$fps")
    done
    # Two single engines at once: the mean of their fps.
    two="$( (java -jar "$jar" bench "$r" --frames "$frames" --warmup "$warmup" --min-seconds "$min_seconds" 2>/dev/null &
             java -jar "$jar" bench "$r" --frames "$frames" --warmup "$warmup" --min-seconds "$min_seconds" 2>/dev/null
             wait) | sed -n 's/.*fps=\([0-9.]*\).*/\1/p' | awk '{ s += $1; n++ } END { if (n == 2) printf "%.1f", s / 2 }')"
    [ -n "$two" ] || { echo "error: $r: two benches at once gave no figures" >&2; exit 1; }
    row+=("$two")
    name="$(basename "$r" .nes)"
    printf '%-6s %-22s %9s' "$round" "$name" "${row[0]}"
    for k in 1 2 3 4; do
      ratio="$(awk -v a="${row[$k]}" -v s="${row[0]}" 'BEGIN { printf "%.2f", a / s }')"
      printf ' %9s' "$ratio"
      echo "$round ${names[$k]} $ratio" >>"$results"
    done
    echo
  done
done
echo "median ratio to single, per round:"
for ((round = 1; round <= rounds; round++)); do
  line="  round $round:"
  for m in lockstep threads strict two; do
    med="$(awk -v r="$round" -v m="$m" '$1 == r && $2 == m { print $3 }' "$results" | median)"
    line="$line $m=$med"
  done
  echo "$line"
done
