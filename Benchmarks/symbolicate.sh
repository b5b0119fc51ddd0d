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
