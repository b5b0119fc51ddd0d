#!/usr/bin/env python3
"""Time the Python peers on the same corpus as ips-doctor-bench, one job each:

  python-json    json.loads on the header line and on the body (everything after the first newline)
  pysimdjson     simdjson.Parser().parse on the same two documents (the physical-limit reference)
  pycrashreport  pycrashreport.crash_report.get_crash_report_from_buf(text, name): what
                 pymobiledevice3 calls. Its constructor json.loads the header and the body (after a
                 small text fix-up); fields are cached properties read on demand.
  pycrashreport+fields  the same plus reading exception_type, faulting_thread, frames and registers
                 (the fields a diagnosis needs) where the report is a user-mode crash.

Files are read into memory first; bytes are decoded to str inside the pycrashreport timing (it wants
text, and ips-doctor's figure includes its own UTF-8 validation). Prints result lines in the same
format as the Swift benchmarks.

    bench_peers.py --corpus DIR [--runs 5] [--limit N] [--only json,simdjson,pycrashreport,pycrashreport+fields]
"""
import argparse
import json
import os
import statistics
import sys
import time


def list_files(top):
    result = []
    for root, _, names in os.walk(top):
        for name in names:
            if not name.startswith("."):
                result.append(os.path.join(root, name))
    return sorted(result)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default="/tmp/ips-doctor-bench-corpus/n10000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--only")
    args = parser.parse_args()

    start = time.perf_counter()
    paths = list_files(args.corpus)
    if args.limit:
        paths = paths[: args.limit]
    blobs = []
    for path in paths:
        with open(path, "rb") as handle:
            blobs.append(handle.read())
    load = time.perf_counter() - start
    total = sum(len(b) for b in blobs)
    print(f"load\tpython\t{len(blobs)}\t{total}\t{load}")
    split = []
    for blob in blobs:
        newline = blob.find(b"\n")
        if newline < 0:
            split.append((blob, b""))
        else:
            split.append((blob[:newline], blob[newline + 1 :]))
    names = [os.path.basename(p) for p in paths]

    def run_json():
        loads = json.loads
        done = 0
        for header, body in split:
            for doc in (header, body):
                try:
                    loads(doc)
                    done += 1
                except ValueError:
                    pass
        return done

    benches = {"json": ("python-json", run_json)}

    try:
        import simdjson

        simd_parser = simdjson.Parser()

        def run_simdjson():
            parse = simd_parser.parse
            done = 0
            for header, body in split:
                for doc in (header, body):
                    try:
                        parse(doc)
                        done += 1
                    except ValueError:
                        pass
            return done

        benches["simdjson"] = ("pysimdjson", run_simdjson)
    except ImportError:
        print("# pysimdjson not installed", file=sys.stderr)

    try:
        from pycrashreport import crash_report as pcr

        def run_pcr(touch):
            build = pcr.get_crash_report_from_buf
            user = pcr.UserModeCrashReport
            done = 0
            for blob, name in zip(blobs, names):
                try:
                    report = build(blob.decode("utf-8", "replace"), filename=name)
                except Exception:
                    continue
                done += 1
                if touch and isinstance(report, user) and report._is_json:
                    for attr in ("exception_type", "faulting_thread", "frames", "registers"):
                        try:
                            getattr(report, attr)
                        except Exception:
                            pass
            return done

        benches["pycrashreport"] = ("pycrashreport", lambda: run_pcr(False))
        benches["pycrashreport+fields"] = ("pycrashreport+fields", lambda: run_pcr(True))
    except ImportError:
        print("# pycrashreport not installed", file=sys.stderr)

    only = args.only.split(",") if args.only else list(benches)
    for key in only:
        if key not in benches:
            continue
        tool, fn = benches[key]
        checksum = fn()  # warm-up
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        median = statistics.median(times)
        runs = ",".join(str(round(t * 1e6)) for t in times)
        print(f"result\t{tool}\tparse\t1\t{len(blobs)}\t{total}\t{median}\t{runs}\t{checksum}", flush=True)
        print(
            f"# {tool} jobs=1: median {median:.3f} s, {len(blobs) / median:.0f} files/s, {total / median / 1e6:.0f} MB/s",
            file=sys.stderr,
            flush=True,
        )


if __name__ == "__main__":
    main()
