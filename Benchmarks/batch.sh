#!/usr/bin/env bash
# The cost of the batch view: ips-doctor's default output for a folder (the crash-group table,
# the --top groups in full, the summary line) against --format jsonl (one record a report, no
# grouping) on the same files, in the same run, runs taking turns. See docs/performance.md.
#
#   Benchmarks/batch.sh                    # 10,000 files, 3 runs of each
#   FILES=5000 RUNS=5 Benchmarks/batch.sh
#
# Builds the release binary, then builds (not committed) a folder of FILES copies of the reports
# in Fixtures/ and, when present, ../shared/corpus and ../shared/corpus-peers: every file a run of
# ips-doctor over those folders reads, copied round-robin under new names into 10 subfolders
# (copies, not links: ips-doctor reads a file reached by two names once). Prints, for each
# output, the median wall time and peak RSS (GNU time -v, or getrusage through a Python wrapper),
# the output's lines, and the number of crash groups; then the grouped view's cost over jsonl.
# It also merges the jsonl output cut into 4 parts and checks the merge equals the grouped view.
#
# Environment: FILES (10000), RUNS (3), JOBS (--jobs; default: all cores),
# CORPUS_ROOT (/tmp/ips-doctor-batch-corpus), LIMIT (10: the most the grouped view may cost, in %).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
SHARED="$(dirname "$REPO")/shared"
FILES="${FILES:-10000}"
RUNS="${RUNS:-3}"
JOBS="${JOBS:-$(nproc)}"
LIMIT="${LIMIT:-10}"
CORPUS_ROOT="${CORPUS_ROOT:-/tmp/ips-doctor-batch-corpus}"
CORPUS="$CORPUS_ROOT/n$FILES"
WORK="$(mktemp -d /tmp/ips-doctor-batch.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
say() { printf '== %s\n' "$*" >&2; }

say "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
say "building the release binary"
(cd "$REPO" && swift build -c release --product ips-doctor 2>&1 | tail -1) >&2
CLI="$REPO/.build/release/ips-doctor"

# The corpus: every file ips-doctor reads in the source folders, copied round-robin.
if [ ! -f "$CORPUS/.complete" ]; then
  say "building $CORPUS"
  rm -rf "$CORPUS"
  mkdir -p "$CORPUS"
  sources=("$REPO/Fixtures/reports" "$REPO/Fixtures/cli")
  for extra in "$SHARED/corpus" "$SHARED/corpus-peers"; do [ -d "$extra" ] && sources+=("$extra"); done
  # The paths the run reads (jsonl's "path" keys), so only reports are copied.
  # (It exits 1: the fixtures hold crashes at --fail-on.)
  "$CLI" "${sources[@]}" --format jsonl --no-progress > "$WORK/records" 2>/dev/null || true
  python3 -c 'import json, sys; [print(json.loads(line)["path"]) for line in sys.stdin]' < "$WORK/records" > "$WORK/reports"
  python3 - "$WORK/reports" "$CORPUS" "$FILES" <<'EOF'
import os, shutil, sys
listing, corpus, files = sys.argv[1], sys.argv[2], int(sys.argv[3])
paths = [line.rstrip("\n") for line in open(listing, encoding="utf-8") if line.strip()]
for number in range(files):
    source = paths[number % len(paths)]
    stem, extension = os.path.splitext(os.path.basename(source))
    if extension not in (".ips", ".crash"):
        with open(source, "rb") as report:
            extension = ".ips" if report.read(1) == b"{" else ".crash"
    folder = os.path.join(corpus, "device-%02d" % (number % 10))
    os.makedirs(folder, exist_ok=True)
    shutil.copyfile(source, os.path.join(folder, "%05d-%s-2026-09-%02d-101500%s" % (number, stem, number % 28 + 1, extension)))
EOF
  touch "$CORPUS/.complete"
fi
say "corpus: $(find "$CORPUS" -type f ! -name .complete | wc -l) files, $(du -sh "$CORPUS" | cut -f1)"

# One timed run: prints "wall_seconds max_rss_kb", the output in $2.
timed() {
  local output="$1"
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v "$@" > "$output" 2> "$WORK/time" || true
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; wall = s }
      /Maximum resident set size/ { rss = $2 } END { print wall, rss }' "$WORK/time"
  else
    python3 - "$output" "$@" <<'EOF'
import resource, subprocess, sys, time
start = time.monotonic()
with open(sys.argv[1], "wb") as output:
    subprocess.run(sys.argv[2:], stdout=output, stderr=subprocess.DEVNULL)
wall = time.monotonic() - start
print("%.2f %d" % (wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
EOF
  fi
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Warm the page cache, then the runs, taking turns.
"$CLI" "$CORPUS" --format jsonl --no-progress -j "$JOBS" > /dev/null 2>&1 || true
: > "$WORK/text.runs"
: > "$WORK/jsonl.runs"
for run in $(seq "$RUNS"); do
  timed "$WORK/text.out" "$CLI" "$CORPUS" --no-progress -j "$JOBS" >> "$WORK/text.runs"
  timed "$WORK/jsonl.out" "$CLI" "$CORPUS" --format jsonl --no-progress -j "$JOBS" >> "$WORK/jsonl.runs"
  say "run $run: text $(tail -1 "$WORK/text.runs"), jsonl $(tail -1 "$WORK/jsonl.runs") (s, KB)"
done

# The jsonl output cut into 4 parts in a shuffled order, merged: the grouped view again.
split -n l/4 "$WORK/jsonl.out" "$WORK/part."
: > "$WORK/merge.runs"
for run in $(seq "$RUNS"); do
  timed "$WORK/merge.out" "$CLI" merge "$WORK/part.ad" "$WORK/part.ab" "$WORK/part.ac" "$WORK/part.aa" >> "$WORK/merge.runs"
done
if cmp -s "$WORK/merge.out" "$WORK/text.out"; then merged="the same bytes as the single run"; else merged="DIFFERENT from the single run"; fi

text_wall=$(cut -d' ' -f1 "$WORK/text.runs" | median)
text_rss=$(cut -d' ' -f2 "$WORK/text.runs" | median)
jsonl_wall=$(cut -d' ' -f1 "$WORK/jsonl.runs" | median)
jsonl_rss=$(cut -d' ' -f2 "$WORK/jsonl.runs" | median)
text_lines=$(wc -l < "$WORK/text.out")
jsonl_lines=$(wc -l < "$WORK/jsonl.out")
groups=$(tail -1 "$WORK/text.out" | grep -o '[0-9]* crash groups\?' | cut -d' ' -f1)
summary=$(tail -1 "$WORK/text.out")

printf '\n%s files (%s), --jobs %s, %s runs each, medians; load at the end %s\n\n' \
  "$FILES" "$(du -sh "$CORPUS" | cut -f1)" "$JOBS" "$RUNS" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '| output | wall (s) | peak RSS (MB) | output lines | crash groups |\n|---|---:|---:|---:|---:|\n'
printf '| default (grouped text) | %s | %.1f | %s | %s |\n' "$text_wall" "$(awk -v k="$text_rss" 'BEGIN { print k / 1024 }')" "$text_lines" "$groups"
printf '| --format jsonl | %s | %.1f | %s | — |\n' "$jsonl_wall" "$(awk -v k="$jsonl_rss" 'BEGIN { print k / 1024 }')" "$jsonl_lines"
merge_wall=$(cut -d' ' -f1 "$WORK/merge.runs" | median)
merge_rss=$(cut -d' ' -f2 "$WORK/merge.runs" | median)
printf '| merge of the jsonl in 4 parts (grouped text) | %s | %.1f | %s | %s |\n' "$merge_wall" \
  "$(awk -v k="$merge_rss" 'BEGIN { print k / 1024 }')" "$(wc -l < "$WORK/merge.out")" "$groups"
printf '\nsummary line: %s\nmerge output: %s\n' "$summary" "$merged"
python3 - "$text_wall" "$jsonl_wall" "$text_rss" "$jsonl_rss" "$LIMIT" <<'EOF'
import sys
text_wall, jsonl_wall, text_rss, jsonl_rss, limit = map(float, sys.argv[1:])
wall = (text_wall / jsonl_wall - 1) * 100
rss = (text_rss / jsonl_rss - 1) * 100
verdict = "within" if wall <= limit and rss <= limit else "OVER"
print("grouped view over jsonl: wall %+.1f %%, peak RSS %+.1f %% (%s the %d %% limit)" % (wall, rss, verdict, limit))
EOF
