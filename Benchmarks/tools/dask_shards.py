#!/usr/bin/env python3
"""Diagnose crash reports in shards with a Dask bag, one `ips-doctor --format jsonl` run per
partition, and write each partition's records to OUT/part.N.jsonl for `ips-doctor merge`.

    python3 -m venv /tmp/venv-dask && /tmp/venv-dask/bin/pip install 'dask[bag]'
    find crashes -name '*.ips' -o -name '*.crash' > list
    /tmp/venv-dask/bin/python Benchmarks/tools/dask_shards.py --list list --out parts
    ips-doctor merge parts/part.*.jsonl

The map step is the only thing Dask does: each partition is a shard, run through subprocess, and
the merge is ips-doctor's. Exit status: 0 when every shard ran (a shard's own 1 or 65 is a finding
or an unreadable report, which the merge reports again), 2 when a shard could not run.
"""

import argparse
import os
import subprocess
import sys

import dask
import dask.bag as db


def shard(paths, ips_doctor):
    """One partition: its reports diagnosed by one ips-doctor run, as JSON Lines."""
    if not paths:
        return [""]
    run = subprocess.run([ips_doctor, "--format", "jsonl", "--no-progress", "--", *paths],
                         capture_output=True, text=True)
    # 0: nothing failing, 1: findings, 65: an unreadable report; all wrote their records.
    if run.returncode not in (0, 1, 65):
        raise RuntimeError(f"ips-doctor exited {run.returncode}: {run.stderr.strip()}")
    return [run.stdout]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", required=True, help="a file with one report path a line")
    parser.add_argument("--out", required=True, help="the folder to write part.N.jsonl to")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--ips-doctor", default="ips-doctor", help="the ips-doctor executable")
    parser.add_argument("--scheduler", default="threads", choices=["threads", "processes", "synchronous"])
    options = parser.parse_args()

    with open(options.list, encoding="utf-8") as listing:
        paths = [line.rstrip("\n") for line in listing if line.strip()]
    os.makedirs(options.out, exist_ok=True)
    bag = db.from_sequence(paths, npartitions=max(1, options.partitions))
    with dask.config.set(scheduler=options.scheduler):
        try:
            parts = bag.map_partitions(shard, options.ips_doctor).compute()
        except RuntimeError as error:
            print(f"dask_shards: {error}", file=sys.stderr)
            return 2
    for number, text in enumerate(parts, start=1):
        with open(os.path.join(options.out, f"part.{number}.jsonl"), "w", encoding="utf-8") as part:
            part.write(text)
    print(f"dask_shards: {len(paths)} reports in {len(parts)} parts", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
