#!/usr/bin/env bash
# ips-doctor's benchmark, end to end: builds release binaries, assembles a 10,000-file corpus,
# measures ips-doctor and its peers in one run, and prints one table. See docs/performance.md.
#
#   Benchmarks/run.sh                 # full run (about 15 minutes on 2 cores)
#   FILES=2000 ROUNDS=1 RUNS=3 Benchmarks/run.sh   # quicker
#
# Every tool is measured ROUNDS times, in turn (ips-doctor, Foundation, the Python peers, then again),
# RUNS timed runs each time; medians are over all rounds' runs. Taking turns spreads this noisy
# machine's slow spells over every tool instead of letting one fall on whichever ran then.
#
# Environment: FILES (10000), ROUNDS (3), RUNS (2 per round), JOBS (1,<nproc>), CORPUS_ROOT (/tmp/ips-doctor-bench-corpus),
# BENCH_VENV (/work/bench-venv), RESULTS (a new temp dir), JSON_TABLE=0 to skip the JSON-only table,
# CLI_MODE=dir|files to force how the CLI is given the corpus, CLI_RUNS (5) for the CLI's wall times,
# SCALE_FACTORS (1,10,100,1000,3000) and SCALE_RUNS (10) for one report at every size.
# (The CLI exits 1 when it finds an error-level diagnosis, so hyperfine runs with -i.)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
FILES="${FILES:-10000}"
ROUNDS="${ROUNDS:-3}"
RUNS="${RUNS:-2}"
NPROC="$(nproc)"
JOBS="${JOBS:-1,$NPROC}"
CORPUS_ROOT="${CORPUS_ROOT:-/tmp/ips-doctor-bench-corpus}"
BENCH_VENV="${BENCH_VENV:-/work/bench-venv}"
RESULTS="${RESULTS:-$(mktemp -d /tmp/ips-doctor-bench-results.XXXXXX)}"
JSON_TABLE="${JSON_TABLE:-1}"
SUBSET=1000
[ "$FILES" -le "$SUBSET" ] && SUBSET=$((FILES / 10))
mkdir -p "$RESULTS"
OUT="$RESULTS/results.tsv"
: > "$OUT"
say() { printf '== %s\n' "$*" >&2; }

say "machine: $NPROC cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'machine\t%s\t%s\t%s\n' "$NPROC" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')" "$(swift --version 2>&1 | head -1)" >> "$OUT"
printf 'load_start\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT"

# Tools: hyperfine and GNU time (apt), Python peers (PyPI, in a venv outside the repo).
missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  (apt-get install -y "${missing[@]}" >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y "${missing[@]}" >/dev/null; })
fi
if [ ! -x "$BENCH_VENV/bin/python" ]; then
  say "creating $BENCH_VENV"
  python3 -m venv "$BENCH_VENV"
fi
"$BENCH_VENV/bin/python" -c 'import pycrashreport, simdjson' 2>/dev/null \
  || "$BENCH_VENV/bin/pip" install -q 'pycrashreport==2.0.0' 'pysimdjson==7.0.2'

say "building release binaries"
(cd "$REPO" && swift build -c release 2>&1 | tail -1) >&2
(cd "$HERE" && swift build -c release 2>&1 | tail -1) >&2
CLI="$REPO/.build/release/ips-doctor"
BIN="$HERE/.build/release"

say "assembling the corpus"
python3 "$HERE/tools/make_corpus.py" "$CORPUS_ROOT" --count "$FILES" --subset "$SUBSET" >&2
CORPUS="$CORPUS_ROOT/n$FILES"
CORPUS_JSON="$CORPUS_ROOT-json/n$FILES"
[ "$JSON_TABLE" = 1 ] && python3 "$HERE/tools/make_corpus.py" "$CORPUS_ROOT-json" --count "$FILES" --subset 0 --json-only >&2

bench_corpus() {  # $1 = corpus label, $2 = directory
  local label="$1" dir="$2"
  say "[$label] ips-doctor (parse, diagnose, each also with every report alone; jobs $JOBS; $RUNS runs; round $3 of $ROUNDS)"
  "$BIN/ips-doctor-bench" --corpus "$dir" --runs "$RUNS" --jobs "$JOBS" \
    --mode parse,diagnose,parse-alone,diagnose-alone | sed "s/^/$label\t/" >> "$OUT"
  say "[$label] Foundation JSONSerialization"
  "$BIN/foundation-baseline" --corpus "$dir" --runs "$RUNS" --jobs "$JOBS" | sed "s/^/$label\t/" >> "$OUT"
  say "[$label] Python peers (json, pysimdjson, pycrashreport)"
  "$BENCH_VENV/bin/python" "$HERE/peers/bench_peers.py" --corpus "$dir" --runs "$RUNS" | sed "s/^/$label\t/" >> "$OUT"
}
for round in $(seq "$ROUNDS"); do
  bench_corpus all "$CORPUS" "$round"
  if [ "$JSON_TABLE" = 1 ]; then bench_corpus json "$CORPUS_JSON" "$round"; fi
done

# The CLI over the whole folder: peak RSS at SUBSET and FILES files. Until the CLI takes a folder,
# it is given every path as arguments (one process either way).
cli_mode="${CLI_MODE:-}"
if [ -z "$cli_mode" ]; then
  probe="$RESULTS/probe"; mkdir -p "$probe"
  sample=("$CORPUS"/*)
  cp "${sample[0]}" "${sample[1]}" "$probe/"
  if "$CLI" "$probe" 2>&1 | grep -qiE 'file is empty|is a directory|cannot read'; then cli_mode=files; else cli_mode=dir; fi
fi
printf 'cli_mode\t%s\n' "$cli_mode" >> "$OUT"
run_cli() {  # $1 = folder, then options for the CLI; prints "max_rss_kb wall_s"
  local dir="$1"; shift
  if [ "$cli_mode" = dir ]; then
    /usr/bin/time -f '%M %e' -o "$RESULTS/time.txt" "$CLI" "$@" "$dir" > /dev/null 2>&1 || true
  else
    (cd "$dir" && /usr/bin/time -f '%M %e' -o "$RESULTS/time.txt" "$CLI" "$@" $(ls) > /dev/null 2>&1) || true
  fi
  tail -1 "$RESULTS/time.txt"
}
for n in "$SUBSET" "$FILES"; do
  say "CLI peak RSS over $n files ($cli_mode mode, 3 runs)"
  for _ in 1 2 3; do printf 'rss\t%s\t%s\n' "$n" "$(run_cli "$CORPUS_ROOT/n$n" | tr ' ' '\t')" >> "$OUT"; done
done

# What a user waits for: the CLI over the whole folder (reading, diagnosing, rendering the text
# output), with one job and with all cores, taking turns.
if [ "$NPROC" -gt 1 ]; then
  # Five a side: with three, one slow run out of three moved the median by up to 30 % on this VM.
  say "CLI wall time over $FILES files, --jobs 1 and --jobs $NPROC in turn ($cli_mode mode, ${CLI_RUNS:-5} runs each)"
  for _ in $(seq "${CLI_RUNS:-5}"); do
    for j in 1 "$NPROC"; do
      printf 'cliwall\t%s\t%s\n' "$j" "$(run_cli "$CORPUS_ROOT/n$FILES" --jobs "$j" | cut -d' ' -f2)" >> "$OUT"
    done
  done
fi

say "single-file wall time (hyperfine)"
ONE="$REPO/Fixtures/reports/async-bridge-didreceive-simplified-symbols.ips"
hyperfine -N -i --warmup 20 --runs "${HYPERFINE_RUNS:-200}" --export-json "$RESULTS/hyperfine.json" \
  "$CLI $ONE" "$BIN/hello" > "$RESULTS/hyperfine.txt" 2>&1 || cat "$RESULTS/hyperfine.txt" >&2
python3 - "$RESULTS/hyperfine.json" >> "$OUT" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    name = "hello" if r["command"].endswith("/hello") else "ips-doctor-one"
    print(f"startup\t{name}\t{r['median']}\t{r['mean']}\t{r['stddev']}")
PY
# One report at every size: the same two reports with every list grown 1 to 3,000 times
# (make_scaled.py; the largest JSON one is 35 MB, under the default --max-size of 64 MiB), each read
# and diagnosed by the CLI alone: time and peak RSS should grow with the report's size and no faster.
say "one report at every size (factors ${SCALE_FACTORS:-1,10,100,1000,3000}; hyperfine ${SCALE_RUNS:-10} runs, peak RSS of 3)"
python3 "$HERE/tools/make_scaled.py" "$RESULTS/scaled" --factors "${SCALE_FACTORS:-1,10,100,1000,3000}" > "$RESULTS/scaled.txt"
while IFS=$'\t' read -r path size; do
  rm -f "$RESULTS/scale.json"  # a failed run must not leave the last file's figures to be read again
  if ! hyperfine -N -i --warmup 2 --runs "${SCALE_RUNS:-10}" --export-json "$RESULTS/scale.json" "$CLI $path" > /dev/null 2>&1; then
    echo "hyperfine failed on $path; left out" >&2
    continue
  fi
  median=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$RESULTS/scale.json")
  rss=$(for _ in 1 2 3; do
    /usr/bin/time -f '%M' -o "$RESULTS/time.txt" "$CLI" "$path" > /dev/null 2>&1 || true
    tail -1 "$RESULTS/time.txt"
  done | sort -n | sed -n 2p)
  printf 'scale\t%s\t%s\t%s\t%s\n' "$(basename "$path")" "$size" "$median" "$rss" >> "$OUT"
done < "$RESULTS/scaled.txt"

printf 'load_end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT"

python3 "$HERE/tools/report.py" "$OUT"
say "raw results: $OUT"
