#!/usr/bin/env python3
"""Tally's speed and memory benchmark (issues: "Fast at any catalogue size", "Never slower than
the script a team would write").

Generates workloads (a StoreKit configuration + a tally-catalog/1 JSON catalogue with known
injected mismatches, by ../shared/bench/gen_catalog.py) at several sizes, runs the release
build of `tally check` on each, verifies that the findings are exactly the injected ones, and
prints wall time, MB/s, products/s and peak resident memory. When ../shared/bench/peer_check.py
exists, it runs that on the same files, interleaved with Tally's runs, and prints the ratios.
Then the same catalogue as CSV (../shared/bench/catalog_to_csv.py, one row per product and
territory) at --csv-sizes, against the peer's CSV check, verified the same way.

Figures are medians of --runs interleaved runs (wall time and peak memory each).

usage: python3 bench/bench.py [--sizes 1000,20000,100000] [--csv-sizes 20000] [--territories 175]
                              [--runs 5] [--no-build] [--keep DIR]
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "bench")
GEN = os.path.join(SHARED, "gen_catalog.py")
PEER = os.path.join(SHARED, "peer_check.py")
TO_CSV = os.path.join(SHARED, "catalog_to_csv.py")


def measure(argv, cwd=ROOT):
    """Runs argv once; returns (wall seconds, peak RSS in MB, exit status, stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status), out


def best(runs):
    """The median wall time and the median peak memory of the runs (the machine may be shared:
    a median is what a user sees, a minimum flatters), with the first run's status and output."""
    wall = statistics.median(r[0] for r in runs)
    rss = statistics.median(r[1] for r in runs)
    return wall, rss, runs[0][2], runs[0][3]


def verify(out, expected_path):
    report = json.loads(out)
    got = sorted((f["rule"], f["product"]) for f in report["findings"])
    expected = sorted((e["rule"], e["product"]) for e in json.load(open(expected_path)))
    return got == expected, len(got), len(expected)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,20000,100000")
    ap.add_argument("--territories", type=int, default=175)
    ap.add_argument("--csv-sizes", default="20000", help="sizes for the CSV workload ('' to skip it)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--keep", help="generate workloads into (and keep) this folder")
    a = ap.parse_args()

    if not os.path.exists(GEN):
        sys.exit(f"bench: {GEN} is missing: the workload generator lives in ../shared/bench")
    if not a.no_build:
        print("building release …", flush=True)
        subprocess.run(["swift", "build", "-c", "release", "--product", "tally"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    tally = os.path.join(bin_dir, "tally")
    work = a.keep or tempfile.mkdtemp(prefix="tally-bench-")
    have_peer = os.path.exists(PEER)
    failures = 0

    # The shipped example: the whole process, start to exit.
    small = best([measure([tally, "check", "--no-color"]) for _ in range(max(a.runs, 5))])
    print(f"\nshipped configs/ + catalog/: {small[0] * 1000:.1f} ms wall, {small[1]:.1f} MB peak, exit {small[2]}"
          f" (target: under 50 ms)")
    if small[2] != 0:
        failures += 1

    header = (f"{'products':>9} {'MB':>7} | {'tally s':>8} {'MB/s':>7} {'products/s':>11} {'peak MB':>8} {'exact':>5}"
              + (f" | {'peer s':>7} {'peer MB':>8} | {'time ×':>7} {'memory ×':>8}" if have_peer else ""))
    print("\n" + header + "\n" + "-" * len(header))
    results = {}

    def workload(size):
        folder = os.path.join(work, f"w{size}")
        if not os.path.exists(os.path.join(folder, "expected.json")):
            subprocess.run([sys.executable, GEN, folder, "--products", str(size), "--territories", str(a.territories)],
                           check=True, stdout=subprocess.DEVNULL)
        return folder

    for size in [int(s) for s in a.sizes.split(",") if s]:
        folder = workload(size)
        config, catalog = os.path.join(folder, "App.storekit"), os.path.join(folder, "catalog.json")
        megabytes = (os.path.getsize(config) + os.path.getsize(catalog)) / 1e6
        tally_runs, peer_runs = [], []
        for _ in range(a.runs):  # interleaved, so that both see the same machine
            tally_runs.append(measure([tally, "check", config, catalog, "--format", "json", "--no-config"]))
            if have_peer:
                peer_runs.append(measure([sys.executable, PEER, config, catalog]))
        wall, rss, status, out = best(tally_runs)
        exact, got, expected = verify(out, os.path.join(folder, "expected.json"))
        if not exact or status != 1:
            failures += 1
        line = (f"{size:>9} {megabytes:>7.1f} | {wall:>8.3f} {megabytes / wall:>7.0f} {size / wall:>11.0f} {rss:>8.1f}"
                f" {'yes' if exact else f'NO {got}/{expected}':>5}")
        if have_peer:
            peer_wall, peer_rss, _, _ = best(peer_runs)
            line += f" | {peer_wall:>7.3f} {peer_rss:>8.1f} | {wall / peer_wall:>7.2f} {rss / peer_rss:>8.2f}"
        print(line, flush=True)
        results[size] = (wall, rss)

    if 20000 in results and 100000 in results:
        t = results[100000][0] / results[20000][0]
        m = results[100000][1] / results[20000][1]
        print(f"\ngrowth 20,000 → 100,000 products: time ×{t:.2f}, memory ×{m:.2f} (linear is ×5; the target is at most ×6)")
    print("\ntargets at 20,000 × 175: time × at most 0.25 and memory × at most 0.50 of the peer script")

    csv_sizes = [int(s) for s in a.csv_sizes.split(",") if s]
    if csv_sizes:
        print("\nCSV catalogue (catalog_to_csv.py: one row per product and territory)")
        print(header.replace("     MB", " CSV MB") + "\n" + "-" * len(header))
    for size in csv_sizes:
        folder = workload(size)
        config, catalog = os.path.join(folder, "App.storekit"), os.path.join(folder, "catalog.csv")
        if not os.path.exists(catalog):
            subprocess.run([sys.executable, TO_CSV, os.path.join(folder, "catalog.json"), catalog], check=True)
        megabytes = os.path.getsize(catalog) / 1e6
        tally_runs, peer_runs = [], []
        for _ in range(a.runs):
            tally_runs.append(measure([tally, "check", config, catalog, "--format", "json", "--no-config"]))
            if have_peer:
                peer_runs.append(measure([sys.executable, PEER, config, catalog]))
        wall, rss, status, out = best(tally_runs)
        exact, got, expected = verify(out, os.path.join(folder, "expected.json"))
        if not exact or status != 1:
            failures += 1
        line = (f"{size:>9} {megabytes:>7.1f} | {wall:>8.3f} {megabytes / wall:>7.0f} {size / wall:>11.0f} {rss:>8.1f}"
                f" {'yes' if exact else f'NO {got}/{expected}':>5}")
        if have_peer:
            peer_wall, peer_rss, peer_status, _ = best(peer_runs)
            if peer_status != 1:
                failures += 1
            line += f" | {peer_wall:>7.3f} {peer_rss:>8.1f} | {wall / peer_wall:>7.2f} {rss / peer_rss:>8.2f}"
        print(line, flush=True)
    if csv_sizes:
        print("\ntargets for CSV at 20,000 × 175: time × at most 0.50 and memory × at most 4 of the peer script")
    print(f"\nmedians of {a.runs} interleaved runs; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
