# Shared by the bench scripts (sourced, not run): command-line parsing and the default ROMs.

# bench_parse "VALUED OPTIONS" ARGS...: sets opts (option/value pairs), jars and roms (after --);
# --help prints the calling script's header comment.
bench_parse() {
  local valued=" $1 "
  shift
  opts=() jars=() roms=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --) shift; roms=("$@"); break ;;
      -h|--help) sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
      -*)
        if [[ "$valued" == *" $1 "* && $# -ge 2 ]]; then
          opts+=("$1" "$2"); shift 2
        else
          echo "error: unknown option or missing value: $1 (see: $0 --help)" >&2; exit 2
        fi ;;
      *) jars+=("$1"); shift ;;
    esac
  done
  [ ${#jars[@]} -gt 0 ] || { echo "error: give at least one lockstep jar (see: $0 --help)" >&2; exit 2; }
  local j
  for j in "${jars[@]}"; do
    [ -f "$j" ] || { echo "error: $j: no such jar" >&2; exit 2; }
  done
}

# bench_default_roms ROOT DEMO: sets roms to DEMO (left out when empty) and the eight ROMs of the
# device machine's speed run (../shared/device/speed.sh) under the roms dir ($LOCKSTEP_ROMS, else
# ../shared/roms next to ROOT): three that wait in spin loops much of the time (tutor,
# BladeBuster, pulsar), two partly (spritecans, quantum_disco), and three that render without
# waiting (nes15, high-hopes, snow).
bench_default_roms() {
  local dir="${LOCKSTEP_ROMS:-$1/../shared/roms}" r
  roms=()
  [ -n "$2" ] && roms+=("$2")
  for r in spritecans-2011/spritecans.nes nes15-1.0.0/nes15-NTSC.nes tutor/tutor.nes \
           other/BladeBuster.nes other/high-hopes.nes other/pulsar.nes \
           other/quantum_disco_brothers_by_wAMMA.nes other/snow.nes; do
    roms+=("$dir/nes-test-roms/$r")
  done
}

# bench_window: sets frames, warmup, min_seconds and rounds from opts (defaults 3000, 600, 5, 1).
bench_window() {
  frames=3000 warmup=600 min_seconds=5 rounds=1
  local i
  for ((i = 0; i < ${#opts[@]}; i += 2)); do
    case "${opts[$i]}" in
      --frames) frames="${opts[$i + 1]}" ;;
      --warmup) warmup="${opts[$i + 1]}" ;;
      --min-seconds) min_seconds="${opts[$i + 1]}" ;;
      --rounds) rounds="${opts[$i + 1]}" ;;
    esac
  done
}

# bench_roms ROOT: sets roms to the defaults (the demo left by the build, then eight ROMs) unless
# ROMs were given, and checks that each exists.
bench_roms() {
  local demo="$1/emulator-core/target/lockstep-demo.nes" r
  [ -f "$demo" ] || demo=""
  [ ${#roms[@]} -gt 0 ] || bench_default_roms "$1" "$demo"
  for r in "${roms[@]}"; do
    [ -f "$r" ] || { echo "error: $r: no such ROM" >&2; exit 2; }
  done
}

# bench_one_jar ROOT: sets jar to the only jar given, and the ROMs as bench_roms does.
bench_one_jar() {
  [ ${#jars[@]} -eq 1 ] || { echo "error: give exactly one lockstep jar" >&2; exit 2; }
  jar="${jars[0]}"
  bench_roms "$1"
}

# median: the median of the numbers on stdin, one per line.
median() {
  sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
