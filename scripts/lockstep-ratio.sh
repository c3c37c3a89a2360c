#!/usr/bin/env bash
# Lockstep (two engines, the verifier's same-thread loop) against one engine, for each jar given:
# scripts/LockstepRatio.java in one JVM per jar and ROM, interleaved batches, thread CPU time.
#
# Usage: scripts/lockstep-ratio.sh [--batches B] [--frames N] [--warmup W] JAR... [-- ROM...]
# Default ROMs: the built-in demo and the eight ROMs of the device speed run under the roms dir
# ($LOCKSTEP_ROMS, else ../shared/roms).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench-common.sh
. "$root/scripts/bench-common.sh"
bench_parse "--batches --frames --warmup" "$@"
[ ${#roms[@]} -gt 0 ] || bench_default_roms "$root" demo
for j in "${jars[@]}"; do
  echo "$(basename "$j"):"
  # One JVM per ROM, so one ROM's JIT profile does not shape another's.
  for r in "${roms[@]}"; do
    header=()
    [ "$r" = "${roms[0]}" ] || header=(--no-header)
    java -cp "$j" "$root/scripts/LockstepRatio.java" ${opts[@]+"${opts[@]}"} ${header[@]+"${header[@]}"} "$r"
  done
done
