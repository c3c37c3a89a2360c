#!/usr/bin/env bash
# Two jars on each ROM in interleaved pairs: `lockstep bench --cpu-time` of OLD and NEW in turn
# (OLD first on odd pairs, NEW first on even ones, so neither always follows the other), and
# each pair's ratio NEW/OLD; then the median ratio per ROM. Made for telling a small change of
# one engine's speed from the JIT's spread between JVMs (20-30% on this machine): read the
# median of many pairs, never one.
#
# Usage: scripts/bench-pairs.sh [--frames N] [--warmup W] [--min-seconds S] [--rounds PAIRS]
#                               OLD.jar NEW.jar [-- ROM...]
# --rounds is the number of pairs per ROM (default 1). Default ROMs: the demo and the eight ROMs
# of the device speed run under the roms dir ($LOCKSTEP_ROMS, else ../shared/roms).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench-common.sh
. "$root/scripts/bench-common.sh"
bench_parse "--frames --warmup --min-seconds --rounds" "$@"
bench_window
[ ${#jars[@]} -eq 2 ] || { echo "error: give two jars, OLD and NEW (see: $0 --help)" >&2; exit 2; }
bench_roms "$root"

fps() {
  java -jar "$1" bench "$2" --frames "$frames" --warmup "$warmup" --min-seconds "$min_seconds" --cpu-time \
    2>/dev/null | sed -n 's/.*fps=\([0-9.]*\).*/\1/p' | tail -1
}

echo "| ROM | pair | $(basename "${jars[0]}") fps | $(basename "${jars[1]}") fps | new/old |"
echo "|---|---:|---:|---:|---:|"
for r in "${roms[@]}"; do
  ratios=()
  for ((i = 1; i <= rounds; i++)); do
    if ((i % 2)); then
      old="$(fps "${jars[0]}" "$r")"; new="$(fps "${jars[1]}" "$r")"
    else
      new="$(fps "${jars[1]}" "$r")"; old="$(fps "${jars[0]}" "$r")"
    fi
    [ -n "$old" ] && [ -n "$new" ] || { echo "error: $r: a bench printed no fps" >&2; exit 1; }
    ratio="$(awk -v o="$old" -v n="$new" 'BEGIN { printf "%.3f", n / o }')"
    ratios+=("$ratio")
    echo "| $(basename "$r" .nes) | $i | $old | $new | $ratio |"
  done
  echo "median new/old $(basename "$r" .nes): $(printf '%s\n' "${ratios[@]}" | median)"
done
