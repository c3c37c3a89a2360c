#!/usr/bin/env python3
"""What C2 inlined into a hot method, from a HotSpot compilation log.

Run a JVM with the log on, then read the log:

    java -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=c.xml \\
        -jar app/target/lockstep.jar bench ROM --mode threads --frames 1500 --min-seconds 3
    scripts/inlining-tree.py c.xml 'ChainedRun resume'            # every C2 compile, summed
    scripts/inlining-tree.py c.xml 'ChainedRun resume' --tree      # the last one's whole tree

METHOD is matched against the log's method names ("lockstep/nes/core/chain/ChainedRun resume
..."). For each C2 compile of it (OSR compiles too) the summary lists its direct calls in
bytecode order, the bytecode size inlined beneath each, and each call C2 left out of line with
its reason. C2 inlines greedily in bytecode order until the compile holds DesiredMethodLimit
(8000) bytecodes, so a call that fails with "size > DesiredMethodLimit" or
"NodeCountInliningCutoff" lost its place to the calls parsed before it.
"""
import re
import sys


def attr(text, key):
    m = re.search(key + r"='([^']*)'", text)
    return m.group(1) if m else None


def compiles(path, want):
    """(head attributes, [(depth, method, size, verdict)]) for each C2 compile of `want`."""
    text = open(path, errors="replace").read()
    for head, body in re.findall(r"<task (.*?)>(.*?)</task>", text, re.S):
        if want not in (attr(head, "method") or "") or attr(head, "level") not in (None, "4"):
            continue
        klass = {m.group(1): m.group(2).split("/")[-1]
                 for m in re.finditer(r"<klass id='(\d+)' name='([^']*)'", body)}
        method = {}
        for m in re.finditer(r"<method id='(\d+)' holder='(\d+)' name='([^']*)'[^>]*bytes='(\d+)'", body):
            method[m.group(1)] = (klass.get(m.group(2), "?") + "::" + m.group(3), int(m.group(4)))
        calls, depth, pending = [], 0, None
        for m in re.finditer(r"<(/?)(parse|call|inline_fail|inline_success|intrinsic)\b([^>]*)>", body):
            close, tag, a = m.group(1), m.group(2), m.group(3)
            if tag == "parse":
                depth += -1 if close else 1
            elif tag == "call":
                pending = (depth,) + method.get(attr(a, "method"), ("?", 0))
            elif pending:
                verdict = {"inline_success": "inlined", "intrinsic": "intrinsic"}.get(
                    tag, "out of line: " + (attr(a, "reason") or "").replace("&gt;", ">"))
                calls.append(pending + (verdict,))
                pending = None
        yield head, calls


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, want, tree = sys.argv[1], sys.argv[2], "--tree" in sys.argv[3:]
    found = list(compiles(path, want))
    if not found:
        sys.exit(f"error: {path}: no C2 compile of a method matching '{want}'")
    for n, (head, calls) in enumerate(found):
        osr = attr(head, "osr_bci")
        print(f"== compile {attr(head, 'compile_id')} at {attr(head, 'stamp')} s"
              + (f", OSR at bci {osr}" if osr else ""))
        if tree and n == len(found) - 1:
            for depth, name, size, verdict in calls:
                print("  " * depth + f"{name} ({size} bytes) {verdict}")
            continue
        top, order = {}, []
        for depth, name, size, verdict in calls:
            if depth == 1:
                key = len(order)
                order.append((name, verdict))
                top[key] = 0
            if verdict == "inlined" and order:
                top[len(order) - 1] += size
        for key, (name, verdict) in enumerate(order):
            print(f"  {top[key]:6d}  {name}" + ("" if verdict == "inlined" else f"  ({verdict})"))
        print(f"  {sum(top.values()):6d}  bytecode bytes inlined")


if __name__ == "__main__":
    main()
