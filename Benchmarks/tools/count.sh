#!/usr/bin/env bash
# Instructions per report by callgrind (stable on a busy machine, unlike wall time), counted only
# inside the benchmark's timed passes (a warm-up pass and one timed pass over the first N files).
#
#   Benchmarks/tools/count.sh [BENCH_BINARY] [CORPUS_DIR] [FILES] [MODES]
#   defaults: Benchmarks/.build/release/ips-doctor-bench, the JSON-only corpus, 300, parse,diagnose
set -euo pipefail
bench="${1:-$(dirname "$0")/../.build/release/ips-doctor-bench}"
corpus="${2:-/tmp/ips-doctor-bench-corpus-json/n10000}"
files="${3:-300}"
modes="${4:-parse,diagnose}"
out="$(mktemp -d /tmp/ips-doctor-count.XXXXXX)"
trap 'rm -rf "$out"' EXIT
for mode in ${modes//,/ }; do
  valgrind --tool=callgrind --callgrind-out-file="$out/$mode.cg" --toggle-collect='*timeOnce*' \
    "$bench" --corpus "$corpus" --limit "$files" --runs 1 --jobs 1 --mode "$mode" > /dev/null 2> "$out/$mode.log"
  total=$(grep -E '^(summary|totals):' "$out/$mode.cg" | head -1 | awk '{print $2}')
  # Two passes (warm-up and timed) over every file.
  printf '%-16s %12s instructions  %9.0f per report\n' "$mode" "$total" "$(echo "$total / (2 * $files)" | bc -l)"
done
