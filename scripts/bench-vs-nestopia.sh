#!/usr/bin/env bash
# One engine against Nestopia's C++ core, in one interleaved run: for each round and each ROM,
# the peer harness (../shared/peers/libretro_bench.c, built here on first use) and then
# `lockstep bench` of every jar given, over the same frame window. Prints fps and the ratio to
# the peer of the same row (a shared machine moves absolute figures between runs; the ratios of
# one row are what compares), then the median ratio of each jar per round.
#
# Usage: scripts/bench-vs-nestopia.sh [--frames N] [--warmup W] [--min-seconds S] [--rounds R]
#                                     JAR... [-- ROM...]
# Default ROMs: the demo (emulator-core/target/lockstep-demo.nes, left by the build) and five
# ROMs under the roms dir ($LOCKSTEP_ROMS, else ../shared/roms).
# Needs: gcc, Debian's libretro-nestopia and retroarch-dev (libretro.h); NESTOPIA_CORE and
# LIBRETRO_BENCH_SRC override where the core and the harness source are.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
frames=3000 warmup=600 min_seconds=5 rounds=1
jars=() roms=()
while [ $# -gt 0 ]; do
  case "$1" in
    --frames) frames="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --min-seconds) min_seconds="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --) shift; roms=("$@"); break ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "error: unknown option $1 (see: $0 --help)" >&2; exit 2 ;;
    *) jars+=("$1"); shift ;;
  esac
done
[ ${#jars[@]} -gt 0 ] || { echo "error: give at least one lockstep jar (see: $0 --help)" >&2; exit 2; }
for j in "${jars[@]}"; do
  [ -f "$j" ] || { echo "error: $j: no such jar" >&2; exit 2; }
done

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

if [ ${#roms[@]} -eq 0 ]; then
  dir="${LOCKSTEP_ROMS:-$root/../shared/roms}"
  demo="$root/emulator-core/target/lockstep-demo.nes"
  [ -f "$demo" ] && roms+=("$demo")
  for r in spritecans-2011/spritecans.nes nes15-1.0.0/nes15-NTSC.nes tutor/tutor.nes \
           other/BladeBuster.nes other/high-hopes.nes; do
    roms+=("$dir/nes-test-roms/$r")
  done
fi
for r in "${roms[@]}"; do
  [ -f "$r" ] || { echo "error: $r: no such ROM" >&2; exit 2; }
done

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
    for i in "${!jars[@]}"; do
      f="$(java -jar "${jars[$i]}" bench "$r" --frames "$frames" --warmup "$warmup" \
           --min-seconds "$min_seconds" 2>/dev/null | fps_of)"
      [ -n "$f" ] || { echo "error: $r: ${jars[$i]} bench printed no fps" >&2; exit 1; }
      ratio="$(awk -v f="$f" -v p="$p" 'BEGIN { printf "%.2f", f / p }')"
      row+=" $f ($ratio) |"
      ratios+=("$i $ratio")
    done
    echo "$row"
  done
  for i in "${!jars[@]}"; do
    printf '%s\n' "${ratios[@]}" | awk -v i="$i" '$1 == i { print $2 }' | sort -n |
      awk -v jar="$(basename "${jars[$i]}")" '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "median ratio %s: %.2f\n", jar, m }'
  done
done
