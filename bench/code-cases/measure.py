#!/usr/bin/env python3
"""Runs `tally show FILES… --format json` on every case of ../shared/fixtures/realworld/code
(each case's files read together, as check reads a code source) and compares the IDs found with
the case's expected.json. Prints one line per case that differs, then the per-language table:
cases, exact, precision, recall (over all the IDs of the language's cases).

    python3 bench/code-cases/measure.py [path/to/tally] [path/to/code-cases]
"""
import json, os, subprocess, sys
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
tally = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "../../.build/debug/tally")
cases = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "../../../shared/fixtures/realworld/code")

rows = defaultdict(lambda: [0, 0, 0, 0, 0])  # cases, exact, true positives, found, expected
for case in sorted(os.listdir(cases)):
    folder = os.path.join(cases, case)
    expected_path = os.path.join(folder, "expected.json")
    if not os.path.isfile(expected_path):
        continue
    expected = json.load(open(expected_path))
    run = subprocess.run([tally, "show", *expected["files"], "--format", "json"], cwd=folder, capture_output=True, text=True)
    found = set()
    if run.returncode == 0:
        found = {p["id"] for p in json.loads(run.stdout).get("products", [])}
    want = set(expected["ids"])
    language = "negative" if case.split("-")[1] == "neg" else expected["language"]
    row = rows[language]
    row[0] += 1
    row[1] += found == want
    row[2] += len(found & want)
    row[3] += len(found)
    row[4] += len(want)
    if found != want:
        detail = f"exit {run.returncode}: {run.stderr.strip().splitlines()[0] if run.stderr.strip() else ''}" if run.returncode else ""
        print(f"{case}: missing {sorted(want - found)} extra {sorted(found - want)} {detail}")

print()
print("| language | cases | exact | precision | recall |")
print("|---|---|---|---|---|")
total = [0, 0, 0, 0, 0]
for language in sorted(rows):
    c, e, tp, f, w = rows[language]
    total = [a + b for a, b in zip(total, rows[language])]
    precision = f"{tp / f:.2f}" if f else "–"
    recall = f"{tp / w:.2f}" if w else "–"
    print(f"| {language} | {c} | {e} | {precision} | {recall} |")
c, e, tp, f, w = total
print(f"| all | {c} | {e} | {tp / f if f else 0:.2f} | {tp / w if w else 0:.2f} |")
