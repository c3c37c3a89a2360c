#!/usr/bin/env python3
"""Turns `lockstep test-roms --json FILE` output into a Markdown table: passed/total per suite.

Usage: scripts/results-table.py results.json [> table.md]
A suite is the folder under nes-test-roms/ (or the first folder of the ROM's path).
"""
import json
import sys


def suite(rom):
    parts = rom.replace("\\", "/").split("/")
    if len(parts) >= 3 and parts[0] == "nes-test-roms":
        return parts[1]
    return parts[0] if len(parts) >= 2 else "(other)"


def main(argv):
    if len(argv) != 2:
        print("usage: results-table.py RESULTS.json", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            data = json.load(f)
        results = data["results"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"error: {argv[1]}: not a test-roms --json file ({e})", file=sys.stderr)
        return 2
    suites = {}
    for r in results:
        s = suites.setdefault(suite(r["rom"]), [0, 0])
        s[1] += 1
        if r["status"] == "pass":
            s[0] += 1
    print("| Suite | Passed | Total |")
    print("|---|---:|---:|")
    for name in sorted(suites, key=str.lower):
        passed, total = suites[name]
        print(f"| {name} | {passed} | {total} |")
    passed = sum(s[0] for s in suites.values())
    total = sum(s[1] for s in suites.values())
    print(f"| **all** | **{passed}** | **{total}** |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
