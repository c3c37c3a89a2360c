#!/usr/bin/env bash
# One engine against the C++ cores, in one interleaved run: for each round and each ROM, the peer
# harness (../shared/peers/libretro_bench.c, built here on first use) on each peer core and then
# `lockstep bench` of every jar given, over the same frame window. Prints fps and each jar's ratio
# to each peer of the same row (a shared machine moves absolute figures between runs; the ratios
# of one row are what compares), then the median ratio of each jar to each peer per round. The
# jars run in the given order on odd rounds and in reverse on even ones, so none always follows
# the peers.
#
# Usage: scripts/bench-vs-nestopia.sh [--frames N] [--warmup W] [--min-seconds S] [--rounds R]
#                                     [--clock wall|cpu] [--peers LIST] [--spin count|run]
#                                     JAR... [-- ROM...]
# --clock cpu times the jars' emulating thread (`bench --cpu-time`; the peers are always wall time).
# --peers: comma-separated, of nestopia (Debian's core), fceumm and quicknes (the prebuilt cores
# in ../shared/peers/bin); default nestopia.
# --spin run benches the jars with `--no-spin-skip` (every spin-loop iteration run): the engine's
# own speed; default count.
# Default ROMs: the demo (emulator-core/target/lockstep-demo.nes, left by the build) and the eight
# ROMs of the device speed run under the roms dir ($LOCKSTEP_ROMS, else ../shared/roms).
# Needs: gcc, Debian's libretro-nestopia and retroarch-dev (libretro.h); NESTOPIA_CORE,
# PEERS_BIN and LIBRETRO_BENCH_SRC override where the cores and the harness source are.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench-common.sh
. "$root/scripts/bench-common.sh"
bench_parse "--frames --warmup --min-seconds --rounds --clock --peers --spin" "$@"
bench_window
clock=wall peer_names=nestopia spin=count
for ((i = 0; i < ${#opts[@]}; i += 2)); do
  case "${opts[$i]}" in
    --clock) clock="${opts[$i + 1]}" ;;
    --peers) peer_names="${opts[$i + 1]}" ;;
    --spin) spin="${opts[$i + 1]}" ;;
  esac
done
case "$clock" in
  wall) clock_opt=() ;;
  cpu) clock_opt=(--cpu-time) ;;
  *) echo "error: --clock must be wall or cpu, not '$clock'" >&2; exit 2 ;;
esac
case "$spin" in
  count) ;;
  run) clock_opt+=(--no-spin-skip) ;;
  *) echo "error: --spin must be count or run, not '$spin'" >&2; exit 2 ;;
esac

peers=() cores=()
IFS=, read -r -a peers <<<"$peer_names"
for p in "${peers[@]}"; do
  case "$p" in
    nestopia) core="${NESTOPIA_CORE:-/usr/lib/x86_64-linux-gnu/libretro/nestopia_libretro.so}"
      [ -f "$core" ] || { echo "error: $core: Nestopia's libretro core is not installed (apt-get install libretro-nestopia retroarch-dev)" >&2; exit 2; } ;;
    fceumm|quicknes) core="${PEERS_BIN:-$root/../shared/peers/bin}/${p}_libretro.so"
      [ -f "$core" ] || { echo "error: $core: the prebuilt $p core is missing" >&2; exit 2; } ;;
    *) echo "error: --peers: unknown peer '$p' (nestopia, fceumm or quicknes)" >&2; exit 2 ;;
  esac
  cores+=("$core")
done
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
  echo "round $round: frames=$frames warmup=$warmup min-seconds=$min_seconds spin=$spin, fps (ratio to ${peers[*]})"
  header="| ROM |" rule="|---|"
  for p in "${peers[@]}"; do header+=" $p |"; rule+="---:|"; done
  for j in "${jars[@]}"; do header+=" $(basename "$j") |"; rule+="---|"; done
  echo "$header"; echo "$rule"
  ratios=()
  for r in "${roms[@]}"; do
    row="| $(basename "$r" .nes) |"
    pf=()
    for k in "${!peers[@]}"; do
      p="$("$peer" "${cores[$k]}" "$r" "$frames" "$warmup" "$min_seconds" 2>/dev/null | fps_of)"
      [ -n "$p" ] || { echo "error: $r: the peer harness printed no fps for ${peers[$k]}" >&2; exit 1; }
      pf+=("$p")
      row+=" $p |"
    done
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
      cell=" $f ("
      for k in "${!peers[@]}"; do
        ratio="$(awk -v f="$f" -v p="${pf[$k]}" 'BEGIN { printf "%.2f", f / p }')"
        ratios+=("$i $k $ratio")
        if [ "$k" -gt 0 ]; then cell+=", "; fi
        cell+="$ratio"
      done
      cells[$i]="$cell) |"
    done
    for i in "${!jars[@]}"; do row+="${cells[$i]}"; done
    echo "$row"
  done
  for i in "${!jars[@]}"; do
    for k in "${!peers[@]}"; do
      printf '%s\n' "${ratios[@]}" | awk -v i="$i" -v k="$k" '$1 == i && $2 == k { print $3 }' | sort -n |
        awk -v jar="$(basename "${jars[$i]}")" -v peer="${peers[$k]}" '{ v[NR] = $1 } END {
          m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "median ratio %s to %s: %.2f (lowest %.2f)\n", jar, peer, m, v[1] }'
    done
  done
done
