#!/usr/bin/env bash
# Two jars on each ROM in interleaved pairs: `lockstep bench --cpu-time` of OLD and NEW, and
# each pair's ratio NEW/OLD; then the median ratio per ROM. Made for telling a small change of
# one engine's speed from the JIT's spread between JVMs (20-30% on this machine): read the
# median of many pairs, never one.
#
# Usage: scripts/bench-pairs.sh [--frames N] [--warmup W] [--min-seconds S] [--rounds PAIRS]
#                               [--mode single|lockstep] [--layout turns|together]
#                               [--spin count|run]
#                               OLD.jar NEW.jar [-- ROM...]
# --rounds is the number of pairs per ROM (default 1). --mode is bench's (default single; the
# threads modes need both cores and cannot be paired). --layout turns (the default) runs OLD and
# NEW one after the other, OLD first on odd pairs and NEW first on even ones, so neither always
# follows the other; --layout together runs them at the same time, each pinned to a core of its
# own (taskset; cores swapped every pair), so the VM's drift, which slows every program on it
# alike, falls on both halves of a pair (benchmarks/README.md). Default ROMs: the demo and the
# eight ROMs of the device speed run under the roms dir ($LOCKSTEP_ROMS, else ../shared/roms).
# --spin run benches with --no-spin-skip (every spin-loop iteration run: the engine's own speed);
# the default, count, benches as the engine runs by default.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench-common.sh
. "$root/scripts/bench-common.sh"
bench_parse "--frames --warmup --min-seconds --rounds --mode --layout --spin" "$@"
bench_window
mode=single layout=turns spin=count
for ((i = 0; i < ${#opts[@]}; i += 2)); do
  case "${opts[$i]}" in
    --mode) mode="${opts[$i + 1]}" ;;
    --layout) layout="${opts[$i + 1]}" ;;
    --spin) spin="${opts[$i + 1]}" ;;
  esac
done
case "$mode" in single | lockstep) ;; *) echo "error: --mode must be single or lockstep, not '$mode'" >&2; exit 2 ;; esac
case "$spin" in count) spin_flag=() ;; run) spin_flag=(--no-spin-skip) ;; *) echo "error: --spin must be count or run, not '$spin'" >&2; exit 2 ;; esac
case "$layout" in turns | together) ;; *) echo "error: --layout must be turns or together, not '$layout'" >&2; exit 2 ;; esac
if [ "$layout" = together ]; then
  command -v taskset >/dev/null || { echo "error: --layout together needs taskset (util-linux)" >&2; exit 2; }
  [ "$(nproc)" -ge 2 ] || { echo "error: --layout together needs two cores" >&2; exit 2; }
fi
[ ${#jars[@]} -eq 2 ] || { echo "error: give two jars, OLD and NEW (see: $0 --help)" >&2; exit 2; }
bench_roms "$root"

# fps JAR ROM [CORE]: bench's fps (per second of the emulating thread's CPU time), pinned to CORE if given.
fps() {
  local pin=()
  [ -n "${3:-}" ] && pin=(taskset -c "$3")
  "${pin[@]}" java -jar "$1" bench "$2" --mode "$mode" --frames "$frames" --warmup "$warmup" \
    --min-seconds "$min_seconds" --cpu-time "${spin_flag[@]}" 2>/dev/null | sed -n 's/.*fps=\([0-9.]*\).*/\1/p' | tail -1
}

echo "| ROM | pair | $(basename "${jars[0]}") fps | $(basename "${jars[1]}") fps | new/old |"
echo "|---|---:|---:|---:|---:|"
for r in "${roms[@]}"; do
  ratios=()
  for ((i = 1; i <= rounds; i++)); do
    if [ "$layout" = together ]; then
      tmp="$(mktemp)"
      fps "${jars[0]}" "$r" $((i % 2)) > "$tmp" &
      new="$(fps "${jars[1]}" "$r" $(((i + 1) % 2)))"
      wait
      old="$(cat "$tmp")"; rm -f "$tmp"
    elif ((i % 2)); then
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
