#!/usr/bin/env python3
"""Where a compiled method's time goes, instruction by instruction.

Samples from `perf record` (addresses) laid over the method's machine code as HotSpot printed it
(`-XX:+PrintAssembly` with an hsdis disassembler), both from the same JVM, so that the addresses
agree. With `-e cpu-clock` (no hardware counters needed) a sample lands on the instruction that
was next to retire, which is usually the one after a slow load or a mispredicted branch.

    perf record -e cpu-clock -F 4000 -o /tmp/p.data -- java -XX:+UnlockDiagnosticVMOptions \\
        -XX:+DumpPerfMapAtExit -XX:CompileCommand=print,lockstep.nes.ppu.FastDots::visibleDots \\
        -XX:PrintAssemblyOptions=intel -jar app/target/lockstep.jar bench ROM --frames 1500 \\
        > /tmp/asm.txt
    perf script -i /tmp/p.data -F ip,sym > /tmp/ips.txt
    scripts/hot-instructions.py /tmp/ips.txt /tmp/asm.txt FastDots.visibleDots [TOP]

SYMBOL is matched against perf's symbol names (from the JVM's /tmp/perf-PID.map). Prints the
samples that fell in the symbol, then its TOP (default 30) hottest instructions in code order,
each with its sample count and its line of the listing (the listing's own line number first, to
read the code around it). benchmarks/README.md says how to get perf and hsdis.
"""
import bisect
import collections
import re
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    ips_path, asm_path, symbol = sys.argv[1:4]
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    samples = collections.Counter()
    for line in open(ips_path, errors="replace"):
        parts = line.split(None, 1)
        if len(parts) == 2 and symbol in parts[1]:
            try:
                samples[int(parts[0], 16)] += 1
            except ValueError:
                pass
    listing = open(asm_path, errors="replace").read().split("\n")
    at = {}
    for i, text in enumerate(listing):
        m = re.match(r"\s+0x([0-9a-f]+):\s", text)
        if m:
            at[int(m.group(1), 16)] = i
    if not samples:
        sys.exit(f"no samples of {symbol} in {ips_path}")
    if not at:
        sys.exit(f"no instructions in {asm_path}: was hsdis found (benchmarks/README.md)?")
    starts = sorted(at)
    hits = collections.Counter()
    unplaced = 0
    for ip, n in samples.items():
        j = bisect.bisect_right(starts, ip) - 1
        if j >= 0 and ip - starts[j] < 16:
            hits[at[starts[j]]] += n
        else:
            unplaced += n
    total = sum(samples.values())
    print(f"{total} samples in {symbol}; {unplaced} outside the listing (another compile of it)")
    for i in sorted(i for i, _ in hits.most_common(top)):
        print(f"{hits[i]:6d} {100.0 * hits[i] / total:5.1f}% {i:7d} {listing[i].strip()[:110]}")


if __name__ == "__main__":
    main()
