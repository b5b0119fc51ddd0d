#!/usr/bin/env bash
# Checks that two ips-doctor binaries print the same thing: each folder in dir mode (text with -v,
# JSON, SARIF, 1 and 2 jobs) and each file on its own (JSON, -v text), exit codes included.
# For performance work, where a change must not change any output.
#
#   Benchmarks/tools/compare.sh OLD_BINARY NEW_BINARY DIR [DIR ...]
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY DIR [DIR ...]" >&2; exit 64; }
old="$1" new="$2"; shift 2
work="$(mktemp -d /tmp/ips-doctor-compare.XXXXXX)"
trap 'rm -rf "$work"' EXIT
differ=0
run_both() {  # $1 = label, then the arguments
  local label="$1"; shift
  "$old" "$@" > "$work/old.out" 2> "$work/old.err"; echo "exit $?" >> "$work/old.out"
  "$new" "$@" > "$work/new.out" 2> "$work/new.err"; echo "exit $?" >> "$work/new.out"
  if ! cmp -s "$work/old.out" "$work/new.out" || ! cmp -s "$work/old.err" "$work/new.err"; then
    echo "DIFFERENT: $label" >&2
    diff "$work/old.out" "$work/new.out" | head -20 >&2
    diff "$work/old.err" "$work/new.err" | head -5 >&2
    differ=1
  fi
}
files=0
for dir in "$@"; do
  for jobs in 1 2; do
    run_both "$dir -v (jobs $jobs)" "$dir" -v --color never --jobs "$jobs"
    run_both "$dir --format json (jobs $jobs)" "$dir" --format json --jobs "$jobs"
  done
  run_both "$dir --format sarif" "$dir" --format sarif
  run_both "$dir --format markdown" "$dir" --format markdown
  while IFS= read -r -d '' file; do
    files=$((files + 1))
    run_both "$file --format json" "$file" --format json
    run_both "$file -v" "$file" -v --color never
  done < <(find "$dir" -type f -print0 | sort -z)
done
if [ "$differ" = 0 ]; then echo "IDENTICAL ($files files, each alone and in dir mode)"; else echo "DIFFERENT"; exit 1; fi
