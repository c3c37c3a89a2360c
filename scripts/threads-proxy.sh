#!/usr/bin/env bash
# The two-core proxy of the threads mode's speed: for each ROM, `lockstep bench ROM --mode M` for
# single, threads, single --no-spin-skip and strict (one JVM each, in turn), and the CPU time of
# the whole process per 1,000 timed frames (bench's cpu=) of each, the engine threads' parked share
# (parked=), and threads cpu / single cpu: what two engines in lockstep cost against one where
# wall-clock figures cannot be judged (target: at most 2.2, parked at most 5%). Run it on an
# otherwise idle machine.
#
# Usage: scripts/threads-proxy.sh [--frames N] [--warmup W] [--min-seconds S] JAR [-- ROM...]
# Defaults: --frames 1500 --warmup 600 --min-seconds 3; ROMs: the demo (emulator-core/target/
# lockstep-demo.nes, left by the build) and the eight ROMs of the device speed run under the roms
# dir ($LOCKSTEP_ROMS, else ../shared/roms).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench-common.sh
. "$root/scripts/bench-common.sh"
bench_parse "--frames --warmup --min-seconds" "$@"
frames=1500 warmup=600 min_seconds=3
for ((i = 0; i < ${#opts[@]}; i += 2)); do
  case "${opts[$i]}" in
    --frames) frames="${opts[$i + 1]}" ;;
    --warmup) warmup="${opts[$i + 1]}" ;;
    --min-seconds) min_seconds="${opts[$i + 1]}" ;;
  esac
done
bench_one_jar "$root"
# last_line MODE ROM: bench's last line (passes=... cpu=C [parked=P]).
last_line() {
  local line
  # shellcheck disable=SC2086
  line="$(java -jar "$jar" bench "$2" --mode ${1} --frames "$frames" --warmup "$warmup" \
          --min-seconds "$min_seconds" 2>/dev/null | tail -1)"
  case "$line" in
    *cpu=*) echo "$line" ;;
    *) echo "error: $2: bench --mode $1 gave no figure" >&2; exit 1 ;;
  esac
}
field() { sed -n "s/.*[^a-z]$1=\([0-9.]*\).*/\1/p;s/^$1=\([0-9.]*\).*/\1/p" | tail -1; }
printf '%-24s %8s %8s %7s %7s %10s %8s %7s\n' rom single threads parked ratio no-spin strict parked
for r in "${roms[@]}"; do
  s="$(last_line single "$r")"
  t="$(last_line threads "$r")"
  n="$(last_line "single --no-spin-skip" "$r")"
  x="$(last_line strict "$r")"
  sc="$(echo "$s" | field cpu)" tc="$(echo "$t" | field cpu)"
  ratio="$(awk -v a="$tc" -v b="$sc" 'BEGIN { printf "%.2f", a / b }')"
  printf '%-24s %8s %8s %7s %7s %10s %8s %7s\n' "$(basename "$r" .nes | cut -c1-24)" "$sc" "$tc" \
    "$(echo "$t" | field parked)" "$ratio" "$(echo "$n" | field cpu)" "$(echo "$x" | field cpu)" \
    "$(echo "$x" | field parked)"
done
