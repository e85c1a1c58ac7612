#!/usr/bin/env python3
"""The writers' speed and memory benchmark (issue 30: "Writers as fast as the readers").

Generates a tally-catalog/1 JSON catalogue (../shared/bench/gen_catalog.py, 175 territories by
default), then runs, interleaved, the release build of

    tally convert catalog.json --to csv                 -o out.csv
    tally convert catalog.json --to tally-catalog-json  -o out.json
    tally show    catalog.json --format json            -o show.json
    tally convert catalog.json --to tally-catalog-yaml  -o out.yaml

and the script a team would write, ../shared/bench/peer_convert.py (json.load, then csv.writer or
json.dump with indent=2), on the same file: the CSV peer is the yardstick for `--to csv`, the JSON
peer for the three others (there is no standard-library YAML writer). Prints each command's median
wall time (and CPU time: on a shared machine wall time waits for a core) and peak resident
memory, the peer's, the ratios and the targets (time at most 0.5 and
memory at most 1 of the peer's). With several --sizes, prints how time and memory grow with the
number of products: the slope (per 1,000 products) of a least-squares line, and how far each
point is from it.

--compare-with OTHER_TALLY also runs another build (for example the writers before issue 30) once
per command on each workload and requires byte-identical output (cmp).

usage: python3 bench/writers_bench.py [--sizes 20000] [--territories 175] [--runs 3] [--peer-runs N]
                                      [--no-build] [--keep DIR] [--compare-with OTHER_TALLY]
       python3 bench/writers_bench.py --sizes 2000,20000,60000 --runs 1     # growth
"""
import argparse, filecmp, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ../shared beside the checkout (or beside the folder of worktrees a worktree is in)
SHARED = next((p for p in (os.path.join(os.path.dirname(ROOT), "shared", "bench"),
                           os.path.join(os.path.dirname(os.path.dirname(ROOT)), "shared", "bench")) if os.path.isdir(p)),
              os.path.join(os.path.dirname(ROOT), "shared", "bench"))
GEN = os.path.join(SHARED, "gen_catalog.py")
PEER = os.path.join(SHARED, "peer_convert.py")
SCRATCH = ".build-release"  # a release build beside the debug one (.build-*/ is ignored by git)

COMMANDS = [  # name, arguments after the binary (CATALOG and OUT filled in), output file, peer output
    ("convert --to csv", ["convert", "CATALOG", "--to", "csv", "-o", "OUT"], "out.csv", "peer.csv"),
    ("convert --to tally-catalog-json", ["convert", "CATALOG", "--to", "tally-catalog-json", "-o", "OUT"], "out.json", "peer.json"),
    ("show --format json", ["show", "CATALOG", "--format", "json", "--output", "OUT"], "show.json", "peer.json"),
    ("convert --to tally-catalog-yaml", ["convert", "CATALOG", "--to", "tally-catalog-yaml", "-o", "OUT"], "out.yaml", "peer.json"),
]


def measure(argv, cwd):
    """Runs argv once; returns (wall seconds, peak RSS in MB, exit status, CPU seconds: user + system)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime


def median(runs):
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), max(r[2] for r in runs)


def cpu(runs):
    return statistics.median(r[3] for r in runs)


def fit(points):
    """Least-squares line through (products, value): (slope per product, intercept, worst relative residual)."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    intercept = my - slope * mx
    worst = max(abs(y - (slope * x + intercept)) / y for x, y in points) if points else 0.0
    return slope, intercept, worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="20000")
    ap.add_argument("--territories", type=int, default=175)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--keep", help="generate workloads into (and keep) this folder")
    ap.add_argument("--compare-with", help="another tally binary whose output must be byte-identical")
    a = ap.parse_args()

    for needed in (GEN, PEER):
        if not os.path.exists(needed):
            sys.exit(f"writers_bench: {needed} is missing: the generator and the peer live in ../shared/bench")
    if not a.no_build:
        print("building release …", flush=True)
        subprocess.run(["swift", "build", "-c", "release", "--product", "tally", "--scratch-path", SCRATCH], cwd=ROOT,
                       check=True, stdout=subprocess.DEVNULL)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--scratch-path", SCRATCH, "--show-bin-path"], cwd=ROOT,
                             check=True, capture_output=True, text=True).stdout.strip()
    tally = os.path.join(bin_dir, "tally")
    work = a.keep or tempfile.mkdtemp(prefix="tally-writers-bench-")
    failures = 0
    sizes = [int(s) for s in a.sizes.split(",") if s]
    growth = {name: [] for name, *_ in COMMANDS}
    peer_growth = {"csv": [], "json": []}

    for size in sizes:
        folder = os.path.join(work, f"w{size}x{a.territories}")
        catalog = os.path.join(folder, "catalog.json")
        if not os.path.exists(catalog):
            subprocess.run([sys.executable, GEN, folder, "--products", str(size), "--territories", str(a.territories)],
                           check=True, stdout=subprocess.DEVNULL)
        megabytes = os.path.getsize(catalog) / 1e6
        tally_runs = {name: [] for name, *_ in COMMANDS}
        peer_runs = {"peer.csv": [], "peer.json": []}
        for _ in range(a.runs):  # interleaved, so that both see the same machine
            for name, args, out, peer_out in COMMANDS:
                argv = [tally] + [catalog if x == "CATALOG" else os.path.join(folder, out) if x == "OUT" else x for x in args]
                tally_runs[name].append(measure(argv, folder))
                if peer_out == "peer.csv" or name == "convert --to tally-catalog-json":
                    peer_runs[peer_out].append(measure([sys.executable, PEER, catalog, os.path.join(folder, peer_out)], folder))
        sizes_out = {out: os.path.getsize(os.path.join(folder, out)) / 1e6 for _, _, out, _ in COMMANDS}
        print(f"\n{size:,} products × {a.territories} territories: catalog.json {megabytes:.1f} MB; "
              f"medians of {a.runs} interleaved run{'s' if a.runs != 1 else ''}")
        header = (f"{'command':<32} {'out MB':>7} | {'tally s':>8} {'cpu s':>6} {'peak MB':>8} | {'peer s':>7} {'cpu s':>6} {'peer MB':>8} |"
                  f" {'time ×':>7} {'memory ×':>8} | target")
        print(header + "\n" + "-" * len(header))
        for name, _, out, peer_out in COMMANDS:
            wall, rss, status = median(tally_runs[name])
            peer_wall, peer_rss, peer_status = median(peer_runs[peer_out])
            t, m = wall / peer_wall, rss / peer_rss
            met = status == 0 and peer_status == 0 and t <= 0.5 and m <= 1.0
            failures += 0 if met else 1
            print(f"{name:<32} {sizes_out[out]:>7.1f} | {wall:>8.3f} {cpu(tally_runs[name]):>6.2f} {rss:>8.1f} |"
                  f" {peer_wall:>7.3f} {cpu(peer_runs[peer_out]):>6.2f} {peer_rss:>8.1f} |"
                  f" {t:>7.2f} {m:>8.2f} | {'met' if met else 'MISSED' if status == 0 else f'exit {status}'}")
            growth[name].append((size, wall, rss, cpu(tally_runs[name])))
        for key, peer_out in (("csv", "peer.csv"), ("json", "peer.json")):
            wall, rss, _ = median(peer_runs[peer_out])
            peer_growth[key].append((size, wall, rss, cpu(peer_runs[peer_out])))

        if a.compare_with:
            for name, args, out, _ in COMMANDS:
                other_out = os.path.join(folder, "other-" + out)
                argv = [a.compare_with] + [catalog if x == "CATALOG" else other_out if x == "OUT" else x for x in args]
                subprocess.run(argv, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                same = filecmp.cmp(os.path.join(folder, out), other_out, shallow=False)
                failures += 0 if same else 1
                print(f"  {name}: {'the same bytes as' if same else 'DIFFERENT from'} {a.compare_with}")
                os.remove(other_out)
        for _, _, out, peer_out in COMMANDS:
            for path in (out, peer_out):
                if os.path.exists(os.path.join(folder, path)):
                    os.remove(os.path.join(folder, path))

    print("\ntargets at 20,000 × 175: time × at most 0.50 and memory × at most 1.00 of the peer script (interleaved)")
    if len(sizes) >= 2:
        print(f"\ngrowth from {sizes[0]:,} to {sizes[-1]:,} products: CPU seconds (user + system; wall time on a shared"
              f" machine mostly measures the queue for a core) and peak MB at each size, and the slope of a least-squares"
              f" line per 1,000 products ('off': the worst point's distance from the line)")
        header = f"{'command':<32} " + " ".join(f"{s:>15,}" for s in sizes) + " | CPU s per 1k products   MB per 1k products"
        print(header + "\n" + "-" * len(header))
        rows = [(name, growth[name]) for name, *_ in COMMANDS] + [("peer: csv.writer", peer_growth["csv"]),
                                                                  ("peer: json.dump", peer_growth["json"])]
        for name, points in rows:
            cells = " ".join(f"{c:>6.2f} s {r:>5.0f} MB" for _, _, r, c in points)
            ts, _, tw = fit([(s, c) for s, _, _, c in points])
            ms, _, mw = fit([(s, r) for s, _, r, _ in points])
            print(f"{name:<32} {cells} | {ts * 1000:>11.3f} (off {tw * 100:>3.0f}%)   {ms * 1000:>7.2f} (off {mw * 100:>3.0f}%)")
    load = os.getloadavg()
    print(f"\nload average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f} on {os.cpu_count()} cores")
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
