#!/usr/bin/env python3
"""Turn the result lines written by Benchmarks/run.sh into one Markdown table plus target checks.

    report.py results.tsv
"""
import statistics
import sys
from collections import defaultdict

LABELS = [
    ("ips-doctor", "parse", "ips-doctor parse (`ReportReader.read`, a `SharedTexts` table per worker, as the CLI)"),
    ("ips-doctor", "diagnose", "ips-doctor diagnose (read + `Doctor.diagnose`, as the CLI)"),
    ("ips-doctor", "parse-alone", "ips-doctor parse, every report alone (no table)"),
    ("ips-doctor", "diagnose-alone", "ips-doctor diagnose, every report alone (no table)"),
    ("foundation", "parse", "Foundation `JSONSerialization` (parse only)"),
    ("python-json", "parse", "Python `json.loads`"),
    ("pysimdjson", "parse", "pysimdjson 7 (`Parser.parse`)"),
    ("pycrashreport", "parse", "pycrashreport 2.0 (`get_crash_report_from_buf`)"),
    ("pycrashreport+fields", "parse", "pycrashreport 2.0 + reading exception, frames, registers"),
]


# The diagnose targets against Foundation and pycrashreport: at least this many times the peer.
DIAGNOSE_GOAL = 5.0


def main():
    results = defaultdict(dict)  # corpus -> (tool, mode, jobs) -> row
    loads, rejected = defaultdict(dict), defaultdict(dict)
    rss, startup, meta = defaultdict(list), {}, {}
    cli_walls = defaultdict(list)  # jobs -> wall seconds of the CLI over the whole corpus
    scaled = defaultdict(dict)  # "json"/"text" -> factor -> (bytes, median wall s, peak RSS KB)
    for line in open(sys.argv[1]):
        f = line.rstrip("\n").split("\t")
        if f[0] in ("all", "json"):
            corpus, kind, rest = f[0], f[1], f[2:]
            if kind == "result":
                tool, mode, jobs, files, size = rest[0], rest[1], int(rest[2]), int(rest[3]), int(rest[4])
                runs = [int(x) / 1e6 for x in rest[6].split(",") if x]
                # One line per round (run.sh runs every tool ROUNDS times, in turn): the median is
                # taken over the runs of all rounds together.
                row = results[corpus].setdefault((tool, mode, jobs), dict(files=files, bytes=size, times=[], rounds=[]))
                row["times"] += runs
                row["rounds"].append(statistics.median(runs))
                row["median"] = statistics.median(row["times"])
            elif kind == "load":
                loads[corpus][rest[0]] = (int(rest[1]), int(rest[2]), float(rest[3]))
            elif kind == "rejected":
                rejected[corpus][rest[0]] = int(rest[1])
        elif f[0] == "rss":
            rss[int(f[1])].append((int(f[2]), float(f[3])))
        elif f[0] == "startup":
            startup[f[1]] = float(f[2])
        elif f[0] == "cliwall":
            cli_walls[int(f[1])].append(float(f[2]))
        elif f[0] == "scale":
            # "json-x100.ips": the format, then how many times each list of the report was grown.
            kind, factor = f[1].split("-x")
            scaled[kind][int(factor.split(".")[0])] = (int(f[2]), float(f[3]), int(f[4]))
        else:
            meta[f[0]] = f[1:]

    machine = meta.get("machine", ["?", "?", "?"])
    print(f"Machine: {machine[0]} cores, {machine[1]}; {machine[2]}")
    print(f"Load average (1/5/15 min) at start: {' '.join(meta.get('load_start', ['?']))}; at end: {' '.join(meta.get('load_end', ['?']))}")
    checks = []
    budget_rows = []  # one line of the budget table per corpus and peer, printed after the corpora
    for corpus in results:
        rows = results[corpus]
        any_row = next(iter(rows.values()))
        files, size = any_row["files"], any_row["bytes"]
        title = "mixed corpus (JSON .ips and legacy text, as collected)" if corpus == "all" else "JSON-only corpus (reports every peer can parse)"
        print()
        print(f"### {title}: {files} files, {size / 1e6:.1f} MB")
        if "ips-doctor" in loads[corpus]:
            n, b, s = loads[corpus]["ips-doctor"]
            print(f"Reading the files into memory (not part of any figure below): {s:.2f} s, {b / s / 1e6:.0f} MB/s.")
        counts = sorted({len(row["times"]) for row in rows.values()})
        print(f"Each median is over {'–'.join(map(str, counts))} timed runs, taken in turns with the other tools.")
        print()
        p1 = rows.get(("ips-doctor", "parse", 1))
        d1 = rows.get(("ips-doctor", "diagnose", 1))
        print("| tool | jobs | median s | files/s | MB/s | ips-doctor parse ÷ tool | ips-doctor diagnose ÷ tool |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for tool, mode, label in LABELS:
            for (t, m, jobs), row in sorted(rows.items(), key=lambda kv: kv[0][2]):
                if (t, m) != (tool, mode):
                    continue
                tput = row["files"] / row["median"]
                mbs = row["bytes"] / row["median"] / 1e6
                same_jobs_p = rows.get(("ips-doctor", "parse", jobs))
                same_jobs_d = rows.get(("ips-doctor", "diagnose", jobs))
                rp = f"{row['median'] / same_jobs_p['median']:.2f}×" if same_jobs_p and t != "ips-doctor" else ""
                rd = f"{row['median'] / same_jobs_d['median']:.2f}×" if same_jobs_d and t != "ips-doctor" else ""
                print(f"| {label} | {jobs} | {row['median']:.3f} | {tput:,.0f} | {mbs:,.0f} | {rp} | {rd} |")
        rej = rejected[corpus]
        if rej:
            print()
            print("Files a tool could not read (they still count; the JSON parsers fail fast on text): "
                  + ", ".join(f"{k} {v}" for k, v in rej.items()) + ".")

        def ratio(a, b):
            """`b`'s median time over `a`'s, and the same ratio in each round (the rounds take turns,
            so round i of every tool ran within the same few minutes)."""
            if not (a and b):
                return float("nan"), []
            return b["median"] / a["median"], [y / x for x, y in zip(a["rounds"], b["rounds"])]

        fnd = rows.get(("foundation", "parse", 1))
        pcr = rows.get(("pycrashreport", "parse", 1))
        simd = rows.get(("pysimdjson", "parse", 1))
        jobs_n = max(j for (_, _, j) in rows)
        goal = DIAGNOSE_GOAL
        checks.append((corpus, f"diagnose ≥ {goal:g}× Foundation JSONSerialization (1 job each)", ratio(d1, fnd), goal))
        checks.append((corpus, f"diagnose ≥ {goal:g}× pycrashreport (1 job each)", ratio(d1, pcr), goal))
        checks.append((corpus, "parse ≥ ⅓ of pysimdjson (1 job each)", ratio(p1, simd), 1 / 3))
        pa1 = rows.get(("ips-doctor", "parse-alone", 1))
        da1 = rows.get(("ips-doctor", "diagnose-alone", 1))
        if pa1 and da1:
            checks.append((corpus, f"every report alone: diagnose ≥ {goal:g}× Foundation", ratio(da1, fnd), goal))
            checks.append((corpus, f"every report alone: diagnose ≥ {goal:g}× pycrashreport", ratio(da1, pcr), goal))
            checks.append((corpus, "every report alone: parse ≥ ⅓ of pysimdjson", ratio(pa1, simd), 1 / 3))
        budget_rows += budget_lines(corpus, p1, d1, simd, [(pcr, "pycrashreport"), (fnd, "Foundation JSONSerialization")])
        if jobs_n > 1:
            checks.append((corpus, f"diagnose {jobs_n} jobs ≥ 1.7× 1 job", ratio(rows.get(("ips-doctor", "diagnose", jobs_n)), d1), 1.7))
            checks.append((corpus, f"parse {jobs_n} jobs ≥ 1.7× 1 job", ratio(rows.get(("ips-doctor", "parse", jobs_n)), p1), 1.7))

    print_budgets(budget_rows)

    print()
    print(f"### The CLI ({' '.join(meta.get('cli_mode', ['?']))} mode) and start-up")
    print()
    print("| measurement | median | runs |")
    print("|---|---:|---|")
    med_rss = {}
    for n in sorted(rss):
        values = [kb for kb, _ in rss[n]]
        med_rss[n] = statistics.median(values) / 1024
        walls = statistics.median([w for _, w in rss[n]])
        print(f"| peak RSS, `ips-doctor` over {n} files | {med_rss[n]:.1f} MB ({walls:.2f} s wall) | {', '.join(f'{v / 1024:.1f}' for v in values)} MB |")
    files = max(rss) if rss else "all"
    for jobs in sorted(cli_walls):
        walls = cli_walls[jobs]
        print(f"| wall time, `ips-doctor --jobs {jobs}` over {files} files | {statistics.median(walls):.2f} s | {', '.join(f'{w:.2f}' for w in walls)} s |")
    if "ips-doctor-one" in startup and "hello" in startup:
        print(f"| wall time, `ips-doctor one.ips` | {startup['ips-doctor-one'] * 1000:.2f} ms | hyperfine |")
        print(f"| wall time, trivial Swift program (`print(\"hi\")`) | {startup['hello'] * 1000:.2f} ms | hyperfine |")
    if med_rss:
        biggest = max(med_rss)
        checks.append(("cli", f"peak RSS < 64 MB at {biggest} files", (64 / med_rss[biggest], []), 1.0))
        if len(med_rss) > 1:
            smallest = min(med_rss)
            checks.append(("cli", f"RSS not growing: {smallest}→{biggest} files ratio ≤ 1.1", (1.1 / (med_rss[biggest] / med_rss[smallest]), []), 1.0))
    if len(cli_walls) > 1:
        one, most = min(cli_walls), max(cli_walls)
        speedup = statistics.median(cli_walls[one]) / statistics.median(cli_walls[most])
        checks.append(("cli", f"the CLI over {files} files: {most} jobs ≥ 1.7× 1 job", (speedup, []), 1.7))
    if "ips-doctor-one" in startup and "hello" in startup:
        checks.append(("cli", "`ips-doctor one.ips` within 2× of a trivial program", (2 * startup["hello"] / startup["ips-doctor-one"], []), 1.0))

    if scaled:
        print()
        print("### One report at every size (the CLI on one file, `make_scaled.py`)")
        print()
        print("| report | size | wall time (median) | MB/s | peak RSS | MB/s beyond the ×1 report's time |")
        print("|---|---:|---:|---:|---:|---:|")
        for kind in sorted(scaled):
            sizes = scaled[kind]
            factors = sorted(sizes)
            base_bytes, base_wall, _ = sizes[factors[0]]

            def seconds_per_mb_beyond_smallest(factor):
                """The time a megabyte adds beyond the smallest report (start-up and fixed costs)."""
                size, wall, _ = sizes[factor]
                return (wall - base_wall) / max(1e-6, (size - base_bytes) / 1e6)

            for factor in factors:
                size, wall, rss_kb = sizes[factor]
                slope = seconds_per_mb_beyond_smallest(factor)
                beyond = f"{1 / slope:.0f}" if factor != factors[0] and slope > 0 else "–"
                print(f"| {kind} ×{factor} | {size / 1e6:.2f} MB | {wall * 1000:.1f} ms | {size / 1e6 / wall:.0f} "
                      f"| {rss_kb / 1024:.1f} MB | {beyond} |")
            # Linear: a megabyte costs the largest report no more than the next largest. (Between
            # two reports well above start-up: at ×100 the work is a few milliseconds, as noisy as
            # start-up.)
            if len(factors) >= 3:
                largest, middle = factors[-1], factors[-2]
                if seconds_per_mb_beyond_smallest(middle) > 0:
                    ratio = seconds_per_mb_beyond_smallest(largest) / seconds_per_mb_beyond_smallest(middle)
                    checks.append(("size", f"{kind}: time a MB adds, ×{largest} ÷ ×{middle} ≤ 1.5 (linear; ours)", (1.5 / ratio, []), 1.0))

    print()
    print("### Targets")
    print()
    print("*Measured* is the ratio of medians over every round's runs; *each round* is the same ratio")
    print("round by round (every tool runs once a round, in turn): how far the VM moved it within one run.")
    print()
    print("| corpus | target | measured | each round | met |")
    print("|---|---|---:|---|---|")
    # Each check: (corpus, text, (value, the value round by round or []), goal).
    for corpus, text, (value, rounds), goal in checks:
        shown = f"{value:.2f}×" if goal != 1.0 else f"{value:.2f} (≥ 1 means met)"
        each = ""
        if rounds:
            met = sum(1 for r in rounds if r >= goal)
            each = ", ".join(f"{r:.2f}×" for r in rounds) + f" (met in {met} of {len(rounds)})"
        print(f"| {corpus} | {text} | {shown} | {each} | {'yes' if value >= goal else '**no**'} |")


def budget_lines(corpus, p1, d1, simd, peers):
    """For each "diagnose ≥ DIAGNOSE_GOAL× a peer" target (`peers`: the peer's row and its name),
    what it leaves for one report, beside what a report takes now and what pysimdjson's bare parse
    of it takes, all from this run (1 job): how far a target is, in the units a design is judged
    by, rather than as a ratio alone."""
    if not (p1 and d1 and simd):
        return []
    us = lambda row: row["median"] / d1["files"] * 1e6
    read, whole, bare = us(p1), us(d1), us(simd)
    lines = []
    for peer, label in peers:
        if not peer:
            continue
        allowed = us(peer) / DIAGNOSE_GOAL
        # Left for everything after the read if the read ran as fast as pysimdjson's bare parse.
        left = allowed - bare
        lines.append(
            f"| {corpus} | diagnose ≥ {DIAGNOSE_GOAL:g}× {label} | {allowed:.1f} µs | {read:.1f} µs ({read / allowed:.0%}) "
            f"| {whole - read:.1f} µs | {whole:.1f} µs ({whole / allowed:.2f}×) | {bare:.1f} µs | {left:.1f} µs |")
    return lines


def print_budgets(lines):
    if not lines:
        return
    print()
    print("### What the diagnose targets leave for one report (1 job, this run's medians)")
    print()
    print(f"*Allowed* is the peer's time for a report divided by {DIAGNOSE_GOAL:g}. The read and the diagnosis are")
    print("ips-doctor's now (the read's share of what is allowed in brackets); pysimdjson's bare parse")
    print("is the physical-limit reference; *left* is what a diagnosis would have if the read matched it.")
    print()
    print("| corpus | target | allowed | ips-doctor read | diagnosis | read + diagnosis | pysimdjson parse | left |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
