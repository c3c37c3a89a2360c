#!/usr/bin/env bash
# JVMs of one or more jars on one ROM, each bracketed by a fixed piece of reference work that no
# JVM runs (SHA-256 of 300 MB of zeros), so that a JVM slowed by the machine can be told from one
# the JIT compiled badly. A shared virtual machine's speed drifts by up to 1.7x over tens of
# seconds (the reference's own time moves as much); a JVM counts as quiet when the reference took
# at most 10% over its fastest time just before and just after it. For each jar: the fps of every
# JVM, then of the quiet ones their median and spread (max/min - 1): the spread of the JIT's
# steady state, and, with two jars, an A/B comparison that the machine's drift does not decide.
# Jars take turns, the first jar first on odd rounds and last on even ones.
#
# Usage: scripts/quiet-runs.sh [--frames N] [--warmup W] [--min-seconds S] [--rounds R]
#                              [--mode M] JAR... -- ROM
# Defaults: --frames 3000 --warmup 600 --min-seconds 3 --rounds 5 --mode single.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench-common.sh
. "$root/scripts/bench-common.sh"
bench_parse "--frames --warmup --min-seconds --rounds --mode" "$@"
bench_window
rounds=5 mode=single
for ((i = 0; i < ${#opts[@]}; i += 2)); do
  case "${opts[$i]}" in
    --rounds) rounds="${opts[$i + 1]}" ;;
    --mode) mode="${opts[$i + 1]}" ;;
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
fps_of() {
  java -jar "$1" bench "$rom" --mode "$mode" --frames "$frames" --warmup "$warmup" \
    --min-seconds "$min_seconds" 2>/dev/null | sed -n 's/.*[^_]fps=\([0-9.]*\).*/\1/p' | tail -1
}

results=$(mktemp)
trap 'rm -f "$results"' EXIT
n=${#jars[@]}
echo "| round | jar | reference before (ms) | fps | reference after (ms) |"
echo "|---:|---|---:|---:|---:|"
for ((r = 1; r <= rounds; r++)); do
  for ((k = 0; k < n; k++)); do
    if ((r % 2)); then j=$k; else j=$((n - 1 - k)); fi
    jar="${jars[$j]}"
    before=$(reference)
    f=$(fps_of "$jar")
    after=$(reference)
    [ -n "$f" ] || { echo "error: $jar: bench gave no figure on $rom" >&2; exit 1; }
    echo "$j $before $f $after" >>"$results"
    echo "| $r | $(basename "$jar") | $before | $f | $after |"
  done
done
best=$(awk '{ m = $2 < $4 ? $2 : $4; if (NR == 1 || m < b) b = m } END { print b }' "$results")
echo
echo "fastest reference: $best ms; quiet: both references at most $(( best * 11 / 10 )) ms"
for ((j = 0; j < n; j++)); do
  all=$(awk -v j=$j '$1 == j { printf "%s ", $3 }' "$results")
  quiet=$(awk -v j=$j -v lim=$(( best * 11 / 10 )) '$1 == j && $2 <= lim && $4 <= lim { print $3 }' "$results")
  q=$(echo "$quiet" | grep -c . || true)
  if [ "$q" -gt 0 ]; then
    med=$(echo "$quiet" | median)
    spread=$(echo "$quiet" | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.1f%%", 100 * (hi / lo - 1) }')
    echo "$(basename "${jars[$j]}"): all fps $all; quiet $q of $rounds: median $med fps, spread $spread"
  else
    echo "$(basename "${jars[$j]}"): all fps $all; no quiet JVM"
  fi
done
