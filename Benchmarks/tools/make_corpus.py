#!/usr/bin/env python3
"""Assemble the benchmark corpus: every report in Fixtures/reports plus ../shared/corpus (when it
exists), shuffled with a fixed seed and copied under varied names until there are COUNT files.

    make_corpus.py OUT_DIR [--count 10000] [--subset 1000] [--source DIR ...]

OUT_DIR/n<COUNT>/ holds the files; OUT_DIR/n<SUBSET>/ hard-links the first SUBSET of them (for the
memory-growth check). Re-running with the same sources and count is a no-op.
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import sys

SKIP = {"MANIFEST.tsv", "README.md"}


def sources(dirs):
    files = []
    for top in dirs:
        for root, _, names in os.walk(top):
            for name in names:
                if name in SKIP or name.startswith("."):
                    continue
                files.append(os.path.join(root, name))
    return sorted(files)


def both_json(path):
    with open(path, "rb") as handle:
        blob = handle.read()
    newline = blob.find(b"\n")
    if newline < 0:
        return False
    try:
        json.loads(blob[:newline])
        json.loads(blob[newline + 1 :])
        return True
    except ValueError:
        return False


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--subset", type=int, default=1000)
    parser.add_argument("--source", action="append")
    parser.add_argument(
        "--json-only",
        action="store_true",
        help="keep only reports whose first line and remainder both parse as JSON (every peer can read them)",
    )
    args = parser.parse_args()

    dirs = args.source or [os.path.join(repo, "Fixtures", "reports")]
    shared = os.path.join(os.path.dirname(repo), "shared", "corpus")
    if args.source is None and os.path.isdir(shared):
        dirs.append(shared)
    files = sources(dirs)
    if args.json_only:
        files = [f for f in files if both_json(f)]
    if not files:
        sys.exit("no source reports found in " + ", ".join(dirs))

    digest = hashlib.sha256()
    for path in files:
        digest.update(path.encode())
        with open(path, "rb") as handle:
            digest.update(handle.read())
    stamp = f"{digest.hexdigest()} {args.count} {args.subset} {args.json_only}\n"

    full = os.path.join(args.out, f"n{args.count}")
    stamp_path = os.path.join(args.out, "STAMP")
    if os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        print(f"corpus up to date: {full} ({len(files)} distinct reports)")
        return

    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(full)
    rng = random.Random(20240603)
    order = []
    while len(order) < args.count:
        batch = list(files)
        rng.shuffle(batch)
        order.extend(batch)
    names = []
    for index, path in enumerate(order[: args.count]):
        stem, ext = os.path.splitext(os.path.basename(path))
        day = 1 + index % 28
        seconds = (index * 7919) % 86400
        stamp_text = f"2025-{1 + index % 12:02d}-{day:02d}-{seconds // 3600:02d}{seconds // 60 % 60:02d}{seconds % 60:02d}"
        name = f"{index:05d}-{stem}-{stamp_text}{ext}"
        shutil.copyfile(path, os.path.join(full, name))
        names.append(name)
    if 0 < args.subset < args.count:
        sub = os.path.join(args.out, f"n{args.subset}")
        os.makedirs(sub)
        for name in names[: args.subset]:
            os.link(os.path.join(full, name), os.path.join(sub, name))
    with open(stamp_path, "w") as handle:
        handle.write(stamp)
    total = sum(os.path.getsize(os.path.join(full, n)) for n in names)
    print(f"corpus: {full}: {args.count} files, {total / 1e6:.1f} MB, from {len(files)} distinct reports")


if __name__ == "__main__":
    main()
