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

# bench_default_roms ROOT DEMO: sets roms to DEMO (left out when empty) and five ROMs under the
# roms dir ($LOCKSTEP_ROMS, else ../shared/roms next to ROOT).
bench_default_roms() {
  local dir="${LOCKSTEP_ROMS:-$1/../shared/roms}" r
  roms=()
  [ -n "$2" ] && roms+=("$2")
  for r in spritecans-2011/spritecans.nes nes15-1.0.0/nes15-NTSC.nes tutor/tutor.nes \
           other/BladeBuster.nes other/high-hopes.nes; do
    roms+=("$dir/nes-test-roms/$r")
  done
}
