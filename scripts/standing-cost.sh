#!/usr/bin/env bash
# The digest's standing cost: what one engine pays so that a whole-state digest is available
# after any cycle in O(1) (memories hash their writes; components count their changes for the
# chain). Builds a variant of JAR with both removed (state's Memory.write stores plainly,
# ChangeCounter.bump does nothing; its digests are then meaningless, so it is only for timing),
# then runs `lockstep bench --cpu-time` of the variant and of JAR in turn, round by round, and
# prints each row's ratio JAR/variant and the median per round: 1 - ratio is the standing cost.
#
# Usage: scripts/standing-cost.sh [--frames N] [--warmup W] [--min-seconds S] [--rounds R]
#                                 JAR [-- ROM...]
# The state module's sources are taken from this checkout: run it from the commit JAR was built
# from. Default ROMs: the demo and the eight ROMs of the device speed run under the roms dir
# ($LOCKSTEP_ROMS, else ../shared/roms).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench-common.sh
. "$root/scripts/bench-common.sh"
bench_parse "--frames --warmup --min-seconds --rounds" "$@"
bench_window
bench_one_jar "$root"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
src="$root/state/src/main/java/lockstep/nes/state"
mkdir -p "$work/src" "$work/classes"
# Memory.write becomes the plain store (no compare, no hash update); ChangeCounter.bump does
# nothing.
python3 - "$src" "$work/src" <<'PY'
import re, sys
src, out = sys.argv[1:]
for name, method, body in (("Memory", "public void write(int index, int value) {", "\n        data[index] = (byte) value;"),
                           ("ChangeCounter", "public void bump() {", "")):
    s = open(f"{src}/{name}.java").read()
    s, n = re.subn(re.escape(method) + r".*?(\n    \})", lambda m: method + body + m.group(1), s, count=1, flags=re.S)
    if n != 1:
        sys.exit(f"error: {name}: {method} not found: the variant cannot be built from this checkout")
    open(f"{out}/{name}.java", "w").write(s)
PY
javac -nowarn -cp "$jar" -d "$work/classes" "$work/src/Memory.java" "$work/src/ChangeCounter.java"
python3 - "$jar" "$work/variant.jar" "$work/classes" <<'PY'
import os, sys, zipfile
src, dst, classes = sys.argv[1:]
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED) as zout:
    for item in zin.infolist():
        patched = os.path.join(classes, item.filename)
        data = open(patched, 'rb').read() if os.path.isfile(patched) else zin.read(item.filename)
        zout.writestr(item, data)
PY

results="$work/ratios"
printf '%-6s %-22s %10s %10s %7s\n' round rom variant jar ratio
for ((round = 1; round <= rounds; round++)); do
  for r in "${roms[@]}"; do
    row=()
    for j in "$work/variant.jar" "$jar"; do
      fps="$(java -jar "$j" bench "$r" --cpu-time --frames "$frames" --warmup "$warmup" \
               --min-seconds "$min_seconds" 2>/dev/null | sed -n 's/.*fps=\([0-9.]*\).*/\1/p' | tail -1)"
      [ -n "$fps" ] || { echo "error: $r: bench gave no figure" >&2; exit 1; }
      row+=("$fps")
    done
    ratio="$(awk -v a="${row[1]}" -v b="${row[0]}" 'BEGIN { printf "%.3f", a / b }')"
    printf '%-6s %-22s %10s %10s %7s\n' "$round" "$(basename "$r" .nes)" "${row[0]}" "${row[1]}" "$ratio"
    echo "$round $ratio" >>"$results"
  done
done
echo "median ratio jar/variant, per round (standing cost = 1 - ratio):"
for ((round = 1; round <= rounds; round++)); do
  med="$(awk -v r="$round" '$1 == r { print $2 }' "$results" | median)"
  echo "  round $round: $med"
done
