#!/usr/bin/env bash
# Symbolication speed: `ips-doctor symbolicate` on each report of ../shared/symbolication against
# `llvm-symbolizer --obj` asked about the same addresses (the report's unsymbolicated frames of the
# images the dSYMs cover). Both start a process and read the dSYM each run, as a user would.
#
#   Benchmarks/symbolicate.sh            # uses .build/release/ips-doctor, else .build/debug
#   RUNS=50 Benchmarks/symbolicate.sh
#
# Uses hyperfine when installed, else a loop timed with date. Prints one line per report.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
SHARED="${SHARED:-$REPO/../shared/symbolication}"
RUNS="${RUNS:-20}"
BIN="$REPO/.build/release/ips-doctor"
[ -x "$BIN" ] || BIN="$REPO/.build/debug/ips-doctor"
[ -x "$BIN" ] || { echo "build ips-doctor first (swift build -c release)" >&2; exit 1; }
command -v llvm-symbolizer >/dev/null || { echo "llvm-symbolizer not found" >&2; exit 1; }
[ -d "$SHARED" ] || { echo "no $SHARED" >&2; exit 1; }

# report | dSYM | arch | image load address (hex) | image name
CASES=(
  "ios-crash.crash|iOSCrashingTest.app.dSYM|arm64|0x1007d4000|iOSCrashingTest"
  "single-target-crash.crash|CrashingTest.dSYM|x86_64|0x10e30e000|CrashingTest"
  "multi-target-crash.crash|CrashingInAnotherTargetTest.dSYM|x86_64|0x10618b000|CrashingInAnotherTargetTest"
)

time_runs() {  # median-free mean in ms of RUNS runs of "$@"
  local start end
  start=$(date +%s%N)
  for _ in $(seq "$RUNS"); do "$@" >/dev/null 2>&1 || true; done
  end=$(date +%s%N)
  echo $(( (end - start) / RUNS / 1000 ))
}

printf '%-28s %8s %14s %16s\n' report frames "ips-doctor µs" "llvm-symbolizer µs"
for entry in "${CASES[@]}"; do
  IFS='|' read -r report dsym arch load image <<<"$entry"
  dwarf=$(ls "$SHARED/$dsym/Contents/Resources/DWARF/"* | head -1)
  text=$(llvm-objdump --macho --private-headers --arch="$arch" "$dwarf" | awk '/segname __TEXT/ && !done {getline; print $2; done=1}')
  # The dSYM address of each unsymbolicated frame of the image: address - load + __TEXT vmaddr.
  addresses=$(grep -E "^[0-9]+ +$image " "$SHARED/$report" | awk '{print $3}' |
    while read -r a; do printf '0x%x\n' $(( a - load + text )); done)
  count=$(printf '%s\n' "$addresses" | grep -c . || true)
  ours=$(time_runs "$BIN" symbolicate "$SHARED/$report" --dsym "$SHARED/$dsym")
  theirs=$(time_runs sh -c "printf '%s\n' \"$addresses\" | llvm-symbolizer --obj='$dwarf' --default-arch=$arch --inlining")
  printf '%-28s %8s %14s %16s\n' "$report" "$count" "$ours" "$theirs"
done

# (b) COPIES reports that share one dSYM: `ips-doctor` diagnosing the folder with `--dsym` (it reads
# the dSYM once) against one `llvm-symbolizer` call given every report's addresses; then peak RSS
# with and without the dSYM (the budget: without, plus the dSYM's size).
COPIES="${COPIES:-1000}"
IFS='|' read -r report dsym arch load image <<<"${CASES[0]}"
folder="$(mktemp -d /tmp/ips-doctor-symbolicate.XXXXXX)"
trap 'rm -rf "$folder"' EXIT
for i in $(seq "$COPIES"); do cp "$SHARED/$report" "$folder/$i-$report"; done
dwarf=$(ls "$SHARED/$dsym/Contents/Resources/DWARF/"* | head -1)
text=$(llvm-objdump --macho --private-headers --arch="$arch" "$dwarf" | awk '/segname __TEXT/ && !done {getline; print $2; done=1}')
one=$(grep -E "^[0-9]+ +$image " "$SHARED/$report" | awk '{print $3}' |
  while read -r a; do printf '0x%x\n' $(( a - load + text )); done)
all="$folder.addresses"
for _ in $(seq "$COPIES"); do printf '%s\n' "$one"; done > "$all"
RUNS_B="${RUNS_B:-3}"
RUNS="$RUNS_B"
ours=$(time_runs "$BIN" --format jsonl --jobs 1 --dsym "$SHARED/$dsym" "$folder")
theirs=$(time_runs sh -c "llvm-symbolizer --obj='$dwarf' --default-arch=$arch --inlining < '$all'")
printf '\n%s copies of %s (%s addresses), one process each, %s runs:\n' "$COPIES" "$report" "$(wc -l < "$all")" "$RUNS_B"
printf '  ips-doctor --dsym (1 job)   %10s µs\n  llvm-symbolizer, one call   %10s µs\n' "$ours" "$theirs"
if [ -x /usr/bin/time ]; then
  # The tool exits 1 on findings: the status is not the point here.
  rss() { { /usr/bin/time -v "$@" 2>&1 >/dev/null || true; } | awk -F': ' '/Maximum resident set size/ {print $2}'; }
  without=$(rss "$BIN" --format jsonl --jobs 1 "$folder")
  with=$(rss "$BIN" --format jsonl --jobs 1 --dsym "$SHARED/$dsym" "$folder")
  size=$(( $(du -sk "$SHARED/$dsym" | awk '{print $1}') ))
  printf '  peak RSS: without dSYM %s KiB, with %s KiB (budget %s KiB: without + dSYM %s KiB)\n' \
    "$without" "$with" "$(( without + size ))" "$size"
fi
rm -f "$all"
