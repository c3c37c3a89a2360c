#!/usr/bin/env bash
# One engine against Nestopia's C++ core, in one interleaved run: for each round and each ROM,
# the peer harness (../shared/peers/libretro_bench.c, built here on first use) and then
# `lockstep bench` of every jar given, over the same frame window. Prints fps and the ratio to
# the peer of the same row (a shared machine moves absolute figures between runs; the ratios of
# one row are what compares), then the median ratio of each jar per round. The jars run in the
# given order on odd rounds and in reverse on even ones, so none always follows the peer.
#
# Usage: scripts/bench-vs-nestopia.sh [--frames N] [--warmup W] [--min-seconds S] [--rounds R]
#                                     [--clock wall|cpu] JAR... [-- ROM...]
# --clock cpu times the jars' emulating thread (`bench --cpu-time`; the peer is always wall time).
# Default ROMs: the demo (emulator-core/target/lockstep-demo.nes, left by the build) and five
# ROMs under the roms dir ($LOCKSTEP_ROMS, else ../shared/roms).
# Needs: gcc, Debian's libretro-nestopia and retroarch-dev (libretro.h); NESTOPIA_CORE and
# LIBRETRO_BENCH_SRC override where the core and the harness source are.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench-common.sh
. "$root/scripts/bench-common.sh"
bench_parse "--frames --warmup --min-seconds --rounds --clock" "$@"
bench_window
clock=wall
for ((i = 0; i < ${#opts[@]}; i += 2)); do
  [ "${opts[$i]}" != --clock ] || clock="${opts[$i + 1]}"
done
case "$clock" in
  wall) clock_opt=() ;;
  cpu) clock_opt=(--cpu-time) ;;
  *) echo "error: --clock must be wall or cpu, not '$clock'" >&2; exit 2 ;;
esac

core="${NESTOPIA_CORE:-/usr/lib/x86_64-linux-gnu/libretro/nestopia_libretro.so}"
if [ ! -f "$core" ]; then
  echo "error: $core: Nestopia's libretro core is not installed (apt-get install libretro-nestopia retroarch-dev)" >&2
  exit 2
fi
src="${LIBRETRO_BENCH_SRC:-$root/../shared/peers/libretro_bench.c}"
peer="$root/target/peers/libretro_bench"
if [ ! -x "$peer" ] || [ "$src" -nt "$peer" ]; then
  [ -f "$src" ] || { echo "error: $src: the peer harness source is missing" >&2; exit 2; }
  [ -f /usr/include/libretro-common/libretro.h ] || {
    echo "error: /usr/include/libretro-common/libretro.h is missing (apt-get install retroarch-dev)" >&2; exit 2; }
  mkdir -p "$(dirname "$peer")"
  gcc -O2 -Wall -I/usr/include/libretro-common -o "$peer" "$src" -ldl
fi

bench_roms "$root"

fps_of() { sed -n 's/.*fps=\([0-9.]*\).*/\1/p' | tail -1; }

for ((round = 1; round <= rounds; round++)); do
  echo "round $round: frames=$frames warmup=$warmup min-seconds=$min_seconds, fps (ratio to Nestopia)"
  header="| ROM | Nestopia |" rule="|---|---:|"
  for j in "${jars[@]}"; do header+=" $(basename "$j") |"; rule+="---:|"; done
  echo "$header"; echo "$rule"
  ratios=()
  for r in "${roms[@]}"; do
    p="$("$peer" "$core" "$r" "$frames" "$warmup" "$min_seconds" 2>/dev/null | fps_of)"
    [ -n "$p" ] || { echo "error: $r: the peer harness printed no fps" >&2; exit 1; }
    row="| $(basename "$r" .nes) | $p |"
    order=("${!jars[@]}")
    if ((round % 2 == 0)); then
      order=()
      for ((k = ${#jars[@]} - 1; k >= 0; k--)); do order+=("$k"); done
    fi
    cells=()
    for i in "${order[@]}"; do
      f="$(java -jar "${jars[$i]}" bench "$r" --frames "$frames" --warmup "$warmup" \
           --min-seconds "$min_seconds" ${clock_opt[@]+"${clock_opt[@]}"} 2>/dev/null | fps_of)"
      [ -n "$f" ] || { echo "error: $r: ${jars[$i]} bench printed no fps" >&2; exit 1; }
      ratio="$(awk -v f="$f" -v p="$p" 'BEGIN { printf "%.2f", f / p }')"
      cells[$i]=" $f ($ratio) |"
      ratios+=("$i $ratio")
    done
    for i in "${!jars[@]}"; do row+="${cells[$i]}"; done
    echo "$row"
  done
  for i in "${!jars[@]}"; do
    printf '%s\n' "${ratios[@]}" | awk -v i="$i" '$1 == i { print $2 }' | sort -n |
      awk -v jar="$(basename "${jars[$i]}")" '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "median ratio %s: %.2f\n", jar, m }'
  done
done
