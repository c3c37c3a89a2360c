#!/usr/bin/env bash
# Lockstep (two engines, the verifier's same-thread loop) against one engine, for each jar given:
# scripts/LockstepRatio.java in one JVM per jar and ROM, interleaved batches, thread CPU time.
#
# Usage: scripts/lockstep-ratio.sh [--batches B] [--frames N] [--warmup W] JAR... [-- ROM...]
# Default ROMs: the built-in demo and five ROMs under the roms dir ($LOCKSTEP_ROMS, else
# ../shared/roms).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opts=() jars=() roms=()
while [ $# -gt 0 ]; do
  case "$1" in
    --batches|--frames|--warmup) opts+=("$1" "$2"); shift 2 ;;
    --) shift; roms=("$@"); break ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "error: unknown option $1 (see: $0 --help)" >&2; exit 2 ;;
    *) jars+=("$1"); shift ;;
  esac
done
[ ${#jars[@]} -gt 0 ] || { echo "error: give at least one lockstep jar (see: $0 --help)" >&2; exit 2; }
if [ ${#roms[@]} -eq 0 ]; then
  dir="${LOCKSTEP_ROMS:-$root/../shared/roms}"
  roms=(demo)
  for r in spritecans-2011/spritecans.nes nes15-1.0.0/nes15-NTSC.nes tutor/tutor.nes \
           other/BladeBuster.nes other/high-hopes.nes; do
    roms+=("$dir/nes-test-roms/$r")
  done
fi
for j in "${jars[@]}"; do
  [ -f "$j" ] || { echo "error: $j: no such jar" >&2; exit 2; }
  echo "$(basename "$j"):"
  # One JVM per ROM, so one ROM's JIT profile does not shape another's.
  for r in "${roms[@]}"; do
    header=()
    [ "$r" = "${roms[0]}" ] || header=(--no-header)
    java -cp "$j" "$root/scripts/LockstepRatio.java" ${opts[@]+"${opts[@]}"} ${header[@]+"${header[@]}"} "$r"
  done
done
