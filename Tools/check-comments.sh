#!/usr/bin/env bash
# Rejects cost narration in the comments of the shipping code: comments state
# invariants (what holds), never what a line of code costs or once cost.
#
#   Tools/check-comments.sh [DIR ...]
#   default: every target under Sources/
#
# A finding prints as file:line: text and the script exits 1. The hot readers (JSON tape, legacy
# text reader, demangler) explain their layout in one header comment each, in these words too.
# Performance history lives in docs/performance-history.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
  set -- Sources
fi
# One extended regular expression per kind of narration, matched case-insensitively against the
# comment part of a line (from its first `//`).
patterns=(
  '[0-9][0-9.,]* ?k? instructions'                                 # "about 22 k instructions"
  'instructions? (a|an|per|each) (report|byte|frame|call|line|lookup|summary|finding)'
  'retain(s|ed|ing)?( and|,) (a )?releas'                          # "retained and released"
  'allocat(e|es|ed|ion|ions)\b.*\bevery\b'                         # "allocates … on every call"
  'cop(y|ies|ied|ying)\b.*\b(every|whole|each)\b.*\b(backtrace|frame|thread|image|report|context|string|process|element|byte|text)s?\b'
  '\b(about|some|saves|saved|costs?|cost) [0-9.]+ ?(k|%|ns|µs|ms)( |$|\.|,)'   # "cost about 7 k", "saves 3 %"
  'cache line|uniqueness check'
  '\b(faster|slower|cheaper) than\b'
)
findings="$(mktemp)"
trap 'rm -f "$findings"' EXIT
for pattern in "${patterns[@]}"; do
  # grep over Swift files; keep the comment part of each hit and test it again.
  while IFS= read -r hit; do
    file_line="${hit%%:*}"
    rest="${hit#*:}"
    line_no="${rest%%:*}"
    text="${rest#*:}"
    comment="${text#*//}"
    [ "$comment" = "$text" ] && continue
    if printf '%s\n' "$comment" | grep -qiE -- "$pattern"; then
      printf '%s:%s: cost narration in a comment: %s\n' "$file_line" "$line_no" "$(printf '%s' "$text" | sed 's/^ *//')"
    fi
  done < <(grep -rniE --include='*.swift' -- "//.*($pattern)" "$@" || true)
done >"$findings"
status=0
if [ -s "$findings" ]; then
  sort -u -t: -k1,1 -k2,2n "$findings"
  status=1
  echo "error: comments in these layers state invariants, not costs (docs/performance-history.md keeps the history)" >&2
fi
exit "$status"
