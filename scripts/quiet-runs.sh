#!/usr/bin/env bash
# JVMs of one or more jars on one ROM, each bracketed by a fixed piece of reference work that no
# JVM runs (SHA-256 of 300 MB of zeros), so that a JVM slowed by the machine can be told from one
# the JIT compiled badly. A shared virtual machine's speed drifts by up to 1.7x over tens of
# seconds (the reference's own time moves as much); a JVM counts as quiet when the reference took
# at most 10% over its fastest time just before and just after it. For each jar: the fps of every
# JVM, then of the quiet ones their median and spread (max/min - 1): the spread of the JIT's
# steady state, and, with two jars, an A/B comparison that the machine's drift does not decide.
# Jars take turns, the first jar first on odd rounds and last on even ones. With --modes M1,M2,...
# each jar runs in each of those modes, every jar and mode a JVM of its own taking its turn (one
# jar in two modes: threads mode against same-thread lockstep, the machine's drift set aside).
#
# Usage: scripts/quiet-runs.sh [--frames N] [--warmup W] [--min-seconds S] [--rounds R]
#                              [--mode M | --modes M1,M2,...] JAR... -- ROM
# Defaults: --frames 3000 --warmup 600 --min-seconds 3 --rounds 5 --mode single.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench-common.sh
. "$root/scripts/bench-common.sh"
bench_parse "--frames --warmup --min-seconds --rounds --mode --modes" "$@"
bench_window
rounds=5 mode=single modes=""
for ((i = 0; i < ${#opts[@]}; i += 2)); do
  case "${opts[$i]}" in
    --rounds) rounds="${opts[$i + 1]}" ;;
    --mode) mode="${opts[$i + 1]}" ;;
    --modes) modes="${opts[$i + 1]}" ;;
  esac
done
[ ${#roms[@]} -eq 1 ] || { echo "error: give one ROM after -- (see: $0 --help)" >&2; exit 2; }
rom="${roms[0]}"
[ -f "$rom" ] || { echo "error: $rom: no such ROM" >&2; exit 2; }

reference() {
  local s e
  s=$(date +%s%N)
  head -c 300000000 /dev/zero | sha256sum >/dev/null
  e=$(date +%s%N)
  echo $(( (e - s) / 1000000 ))
}
# The entries that take turns: a jar and the mode it runs in, and their name in the table.
entry_jar=() entry_mode=() entry_name=()
IFS=',' read -r -a mode_list <<<"${modes:-$mode}"
for j in "${jars[@]}"; do
  for m in "${mode_list[@]}"; do
    entry_jar+=("$j") entry_mode+=("$m")
    if [ -n "$modes" ]; then entry_name+=("$(basename "$j") $m"); else entry_name+=("$(basename "$j")"); fi
  done
done
# fps and cpu (CPU-seconds of the whole process per 1,000 timed frames) of one bench JVM.
fps_of() {
  java -jar "$1" bench "$rom" --mode "$2" --frames "$frames" --warmup "$warmup" \
    --min-seconds "$min_seconds" 2>/dev/null | tail -1 \
    | sed -n 's/.*[^_]fps=\([0-9.]*\).* cpu=\([0-9.]*\).*/\1 \2/p'
}

results=$(mktemp)
trap 'rm -f "$results"' EXIT
n=${#entry_jar[@]}
echo "| round | jar | reference before (ms) | fps | cpu | reference after (ms) |"
echo "|---:|---|---:|---:|---:|---:|"
for ((r = 1; r <= rounds; r++)); do
  for ((k = 0; k < n; k++)); do
    if ((r % 2)); then j=$k; else j=$((n - 1 - k)); fi
    before=$(reference)
    fc=$(fps_of "${entry_jar[$j]}" "${entry_mode[$j]}")
    after=$(reference)
    [ -n "$fc" ] || { echo "error: ${entry_name[$j]}: bench gave no figure on $rom" >&2; exit 1; }
    f=${fc% *} c=${fc#* }
    echo "$j $before $f $after $c" >>"$results"
    echo "| $r | ${entry_name[$j]} | $before | $f | $c | $after |"
  done
done
best=$(awk '{ m = $2 < $4 ? $2 : $4; if (NR == 1 || m < b) b = m } END { print b }' "$results")
echo
echo "fastest reference: $best ms; quiet: both references at most $(( best * 11 / 10 )) ms"
for ((j = 0; j < n; j++)); do
  all=$(awk -v j=$j '$1 == j { printf "%s ", $3 }' "$results")
  quiet=$(awk -v j=$j -v lim=$(( best * 11 / 10 )) '$1 == j && $2 <= lim && $4 <= lim { print $3 }' "$results")
  quiet_cpu=$(awk -v j=$j -v lim=$(( best * 11 / 10 )) '$1 == j && $2 <= lim && $4 <= lim { print $5 }' "$results")
  q=$(echo "$quiet" | grep -c . || true)
  if [ "$q" -gt 0 ]; then
    med=$(echo "$quiet" | median)
    spread=$(echo "$quiet" | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.1f%%", 100 * (hi / lo - 1) }')
    echo "${entry_name[$j]}: all fps $all; quiet $q of $rounds: median $med fps, spread $spread, median cpu $(echo "$quiet_cpu" | median)"
  else
    echo "${entry_name[$j]}: all fps $all; no quiet JVM"
  fi
done
