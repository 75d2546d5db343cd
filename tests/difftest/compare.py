#!/usr/bin/env python3
"""compare.py -- compare two outputs of the differential test script.

    compare.py SCRIPT EXPECTED_OUT ACTUAL_OUT [MAX_SHOWN [NAME]]

Both outputs come from running SCRIPT with psql's -a (every input line is
echoed before its results), so each output is cut into one block per
input line: the echoed line and what followed it.  A statement passes when
its block is identical in both outputs (the same rows, or the same
"ERROR:  SQLSTATE" line).  Prints the first MAX_SHOWN (default 20)
differing statements with both blocks, then
    RESULT difftest-NAME: N passed, N failed, 0 skipped
(NAME defaults to the script's base name)
counting the generated SELECT statements (setup lines must match too; a
mismatch there counts as one failure).  Exit status 1 if any failed.
"""
import sys


def blocks(script_lines, out_lines):
    """Map input line index -> the output lines that followed its echo."""
    result = {}
    i = 0  # next script line whose echo we expect
    current = None
    for line in out_lines:
        if i < len(script_lines) and line == script_lines[i]:
            current = i
            result[current] = []
            i += 1
        elif current is not None:
            result[current].append(line)
        else:
            result.setdefault(-1, []).append(line)
    return result, i


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: compare.py SCRIPT EXPECTED_OUT ACTUAL_OUT [MAX_SHOWN]")
    max_shown = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    name = sys.argv[5] if len(sys.argv) > 5 else \
        sys.argv[1].rsplit("/", 1)[-1].rsplit(".", 1)[0]

    def read(p):
        with open(p, encoding="utf-8", errors="replace") as f:
            return f.read().split("\n")

    script = [l for l in read(sys.argv[1]) if l != ""]
    exp, exp_seen = blocks(script, read(sys.argv[2]))
    act, act_seen = blocks(script, read(sys.argv[3]))
    passed = failed = shown = 0
    for idx, line in enumerate(script):
        e, a = exp.get(idx), act.get(idx)
        is_test = line.startswith("SELECT ")
        if e == a and e is not None:
            passed += is_test
            continue
        if not is_test and e is not None and a is not None and e == a:
            continue
        failed += 1
        if shown < max_shown:
            shown += 1
            print("--- statement %d: %s" % (idx + 1, line))
            print("  postgresql:", *(e if e is not None else ["(no output: not reached)"]), sep="\n    ")
            print("  tupledb:", *(a if a is not None else ["(no output: not reached)"]), sep="\n    ")
    if act_seen < len(script):
        print("tupledb's output stops after input line %d of %d" % (act_seen, len(script)))
    print("RESULT difftest-%s: %d passed, %d failed, 0 skipped"
          % (name, passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
