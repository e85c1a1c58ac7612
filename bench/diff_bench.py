#!/usr/bin/env python3
"""Benchmark `tally diff` against the same diff in Python: deepdiff, and plain json + dict.

Generates two catalogues with ../shared/bench/gen_catalog.py (same products, different seeds:
prices differ in nearly every territory, some periods, offers, levels and groups too), builds
Tally in release mode, then runs each tool on the pair and prints wall time, CPU time and peak
memory (each child's own maximum resident set, from os.wait4). Tally's text and JSON reports
and the plain script run interleaved, --runs times each; the figures are medians (the machine
may be shared, so CPU time is printed beside them), with the ratios to the plain script.

Correctness is checked on the way: Tally's summary line, and the summary at the end of its JSON
report (every change streamed), must give the same counts as bench/plain_diff.py (which the
test suite also compares change by change on smaller pairs).

usage: bench/diff_bench.py [--products 20000] [--territories 175] [--runs 5] [--work DIR]
                           [--skip-deepdiff] [--deepdiff-timeout 1800] [--deepdiff-max-gb 16]
"""
import argparse, json, os, re, resource, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
GENERATOR = os.path.join(os.path.dirname(REPO), "shared", "bench", "gen_catalog.py")


def ensure_deepdiff():
    try:
        import deepdiff  # noqa: F401
        return True
    except ImportError:
        print("deepdiff is not installed: pip install deepdiff", flush=True)
        result = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "deepdiff"])
        return result.returncode == 0


def measure(command, timeout=None, max_bytes=None, stdout=subprocess.DEVNULL):
    """Runs command; returns (wall seconds, cpu seconds, peak RSS in MB, exit status or None on timeout)."""
    def limit():
        if max_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (max_bytes, max_bytes))
    errors = tempfile.TemporaryFile()
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=stdout, stderr=errors, preexec_fn=limit)
    deadline = start + timeout if timeout else None
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if deadline and time.monotonic() > deadline:
            process.kill()
            pid, status, usage = os.wait4(process.pid, 0)
            return time.monotonic() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, None
        time.sleep(0.01)
    wall = time.monotonic() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        errors.seek(0)
        sys.stderr.write(errors.read().decode(errors="replace")[-2000:])
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, process.returncode


def median(results):
    """Median wall, CPU and peak memory of several runs; the worst status."""
    statuses = [r[3] for r in results]
    status = None if None in statuses else max(statuses, key=abs)
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
            statistics.median(r[2] for r in results), status)


def json_summary(binary, old, new):
    """The run summary at the end of `tally diff --format json`, read as it streams (the report
    of millions of changes is never held whole)."""
    process = subprocess.Popen([binary, "diff", old, new, "--format", "json"], stdout=subprocess.PIPE)
    tail = b""
    while True:
        chunk = process.stdout.read(1 << 20)
        if not chunk:
            break
        tail = (tail + chunk)[-65536:]
    process.wait()
    text = tail.decode()
    start = text.rindex('\n  "summary": ') + len('\n  "summary": ')
    end = text.rindex(',\n  "version"')
    return json.loads(text[start:end])


def tally_counts(binary, old, new):
    text = subprocess.run([binary, "diff", old, new, "--no-color"], capture_output=True, text=True, check=True).stdout
    line = next(l for l in text.splitlines() if " unchanged products" in l)
    numbers = re.match(r"(\d+) added, (\d+) removed, (\d+) changed, (\d+) unchanged products · (\d+) price changes \((\d+) up, (\d+) down", line)
    attention = re.search(r"(\d+) needs? attention", line)
    keys = ["added", "removed", "changed", "unchanged", "price_changes", "price_increases", "price_decreases"]
    counts = dict(zip(keys, map(int, numbers.groups())))
    counts["attention"] = int(attention.group(1))
    return counts, line


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--products", type=int, default=20000)
    parser.add_argument("--territories", type=int, default=175)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work", default=os.path.join("/tmp", "tally-diff-bench"))
    parser.add_argument("--skip-deepdiff", action="store_true")
    parser.add_argument("--deepdiff-timeout", type=float, default=1800, help="seconds before deepdiff is stopped")
    parser.add_argument("--deepdiff-max-gb", type=float, default=16, help="address-space limit for deepdiff")
    args = parser.parse_args()

    if not os.path.exists(GENERATOR):
        sys.exit(f"the generator is missing: {GENERATOR} (../shared beside the repository)")
    old_dir, new_dir = os.path.join(args.work, "seed1"), os.path.join(args.work, "seed2")
    for directory, seed in ((old_dir, 1), (new_dir, 2)):
        shutil.rmtree(directory, ignore_errors=True)
        subprocess.run([sys.executable, GENERATOR, directory, "--products", str(args.products),
                        "--territories", str(args.territories), "--seed", str(seed)], check=True, stdout=subprocess.DEVNULL)
    old, new = os.path.join(old_dir, "catalog.json"), os.path.join(new_dir, "catalog.json")
    size = os.path.getsize(old) / 1e6

    print("building Tally (swift build -c release)...", flush=True)
    subprocess.run(["swift", "build", "-c", "release"], cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    binary = os.path.join(subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=REPO, check=True,
                                         capture_output=True, text=True).stdout.strip(), "tally")

    counts, line = tally_counts(binary, old, new)
    plain = json.loads(subprocess.run([sys.executable, os.path.join(HERE, "plain_diff.py"), old, new],
                                      capture_output=True, text=True, check=True).stdout)
    mismatched = {k: (v, plain.get(k)) for k, v in counts.items() if plain.get(k) != v}
    print(f"\n{args.products} products × {args.territories} territories, two seeds ({size:.0f} MB each)")
    print(f"tally: {line}")
    print("counts agree with plain_diff.py" if not mismatched else f"COUNTS DIFFER from plain_diff.py: {mismatched}")
    summary = json_summary(binary, old, new)
    json_mismatched = {k: (summary.get(k), plain.get(k)) for k in counts if summary.get(k) != plain.get(k)}
    print("JSON report's summary agrees with plain_diff.py" if not json_mismatched
          else f"JSON SUMMARY DIFFERS from plain_diff.py: {json_mismatched}")
    mismatched.update(json_mismatched)

    commands = {"text": [binary, "diff", old, new, "--no-color"],
                "json": [binary, "diff", old, new, "--format", "json"],
                "plain": [sys.executable, os.path.join(HERE, "plain_diff.py"), old, new]}
    runs = {name: [] for name in commands}
    for _ in range(args.runs):  # interleaved, so that all see the same machine
        for name, command in commands.items():
            runs[name].append(measure(command))
    results = {name: median(values) for name, values in runs.items()}
    rows = [("tally diff (text)", results["text"]),
            ("tally diff --format json", results["json"]),
            ("python json + dict (plain_diff.py)", results["plain"])]
    if args.skip_deepdiff:
        pass
    elif ensure_deepdiff():
        print(f"running deepdiff (once; stopped after {args.deepdiff_timeout:.0f} s or {args.deepdiff_max_gb:.0f} GB)...", flush=True)
        rows.append(("python deepdiff (deepdiff_diff.py)", measure([sys.executable, os.path.join(HERE, "deepdiff_diff.py"), old, new],
                                                                  timeout=args.deepdiff_timeout, max_bytes=int(args.deepdiff_max_gb * 2**30))))
    else:
        print("deepdiff could not be installed: skipped")

    print(f"\n{'tool':38} {'wall s':>8} {'cpu s':>8} {'peak MB':>8}  status")
    for name, (wall, cpu, peak, status) in rows:
        state = "ok" if status == 0 else ("timed out" if status is None else f"exit {status}")
        print(f"{name:38} {wall:8.2f} {cpu:8.2f} {peak:8.0f}  {state}")
    plain_wall, plain_peak = results["plain"][0], results["plain"][2]
    for name in ("text", "json"):
        wall, _, peak, _ = results[name]
        print(f"tally {name} / plain_diff.py: time × {wall / plain_wall:.2f}, memory × {peak / plain_peak:.2f}")
    print("target for the JSON report: time × at most 0.50 of plain_diff.py, memory no higher than before (758 MB)")
    print(f"\nload average: {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores; "
          f"medians of {args.runs} interleaved runs (deepdiff: 1)")
    if mismatched:
        sys.exit(1)


if __name__ == "__main__":
    main()
