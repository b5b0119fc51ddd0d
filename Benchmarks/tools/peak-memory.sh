#!/usr/bin/env bash
# Peak memory of the CLI on one report, against the report's size: each report make_large.py
# writes (about a million frames, threads, images or lines, 17 to 250 MB), read and diagnosed with
# --max-size 1G from the file and from standard input, and written again by `symbolicate`. Fails
# when a peak is more than twice its report.
#
#   Benchmarks/tools/peak-memory.sh [CLI_BINARY] [DIR]
#   defaults: .build/release/ips-doctor, a temporary folder (kept with DIR)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli="${1:-$here/../../.build/release/ips-doctor}"
dir="${2:-}"
if [ -z "$dir" ]; then
  dir="$(mktemp -d /tmp/ips-doctor-large.XXXXXX)"
  trap 'rm -rf "$dir"' EXIT
fi
[ -e "$dir/json-deep-compact.ips" ] || python3 "$here/make_large.py" "$dir"
status=0
printf '%-24s %-11s %10s %10s %6s %6s\n' report input "size MB" "peak MB" ratio "s"
for report in "$dir"/*.ips "$dir"/*.crash; do
  size=$(stat -c %s "$report")
  for input in file stdin symbolicate; do
    # GNU time: peak resident set in KiB, elapsed seconds. Exit 1 (findings) is expected. From
    # standard input the size is unknown until its end.
    if [ "$input" = file ]; then
      /usr/bin/time -o "$dir/.time" -f '%M %e' "$cli" "$report" --max-size 1G > /dev/null 2> /dev/null || true
    elif [ "$input" = symbolicate ]; then
      # The whole report written again (no debug files: every byte as it was).
      /usr/bin/time -o "$dir/.time" -f '%M %e' "$cli" symbolicate "$report" --max-size 1G > /dev/null 2> /dev/null || true
    else
      /usr/bin/time -o "$dir/.time" -f '%M %e' "$cli" - --max-size 1G < <(cat "$report") > /dev/null 2> /dev/null || true
    fi
    measured=$(tail -1 "$dir/.time")
    peak_kib=${measured% *}
    ratio=$(echo "$peak_kib * 1024 / $size" | bc -l)
    printf '%-24s %-11s %10.1f %10.1f %6.2f %6s\n' "$(basename "$report")" "$input" \
      "$(echo "$size / 1000000" | bc -l)" "$(echo "$peak_kib * 1024 / 1000000" | bc -l)" "$ratio" "${measured#* }"
    if [ "$(echo "$ratio > 2" | bc)" = 1 ]; then status=1; fi
  done
done
exit $status
