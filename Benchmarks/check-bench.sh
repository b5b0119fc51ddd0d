#!/usr/bin/env bash
# Throughput of `ips-doctor check`: generates a tree of Swift sources (LINES lines, default
# 100,000: the fixtures of Fixtures/swift plus generated delegate and non-delegate types), then
# times a release build of `ips-doctor check` over it and prints lines per second.
#
#   Benchmarks/check-bench.sh              # 100,000 lines
#   LINES=1000000 Benchmarks/check-bench.sh
#   HOSTILE=1 Benchmarks/check-bench.sh    # the lexer's worst shapes, one file each
#
# HOSTILE=1 times `check` on the files SwiftLexerBoundsTests reads (long runs of `#`, deeply
# nested interpolations, raw multi-line openings on one line). Each should take about as long as
# a plain file of its size; a quadratic lexer needed 41 s for 200 KB of `#`.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
LINES="${LINES:-100000}"
TREE="$(mktemp -d /tmp/ips-doctor-check-bench.XXXXXX)"
trap 'rm -rf "$TREE"' EXIT

# One generated file: about 60 lines, a delegate class with async methods, a @MainActor one,
# comments, strings and a helper type.
generate() {
  local index="$1"
  cat <<SWIFT
import UserNotifications
import WebKit

/* File $index: /* nested */ comment with func userNotificationCenter(_:didReceive:) async */
final class Delegate$index: NSObject, UNUserNotificationCenterDelegate {
    let text = "value \(index) with \"quotes\" and \(String(describing: [1, 2, 3]))"
    let raw = #"raw "string" \#(index) func webView(_:decidePolicyFor:) async"#

    func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: UNNotificationResponse
    ) async {
        await MainActor.run { print(response) }
    }

    func helper(_ values: [Int], transform: (Int) -> Int = { \$0 + 1 }) -> [Int] {
        values.map(transform).filter { \$0 > 2 }
    }
}

@MainActor
final class Isolated$index: NSObject, UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
        [.banner, .sound]
    }
}

struct Model$index: Codable, Hashable {
    var id: Int
    var name: String
    var tags: [String: [Int]]

    func describe() -> String {
        """
        Model \(id): \(name)
        tags: \(tags.keys.sorted().joined(separator: ", "))
        """
    }
}

extension Model$index {
    static func make(count: Int) async throws -> [Model$index] {
        var models: [Model$index] = []
        for index in 0..<count {
            models.append(Model$index(id: index, name: "model-\(index)", tags: [:]))
        }
        return models
    }
}

enum Route$index {
    case home, settings(id: Int), detail(name: String)
}
SWIFT
}

# One hostile file: its name, then a Python expression for its text.
hostile() {
  python3 -c "import sys; sys.stdout.write($2)" > "$TREE/$1.swift"
  local start end
  start=$(date +%s%N)
  "$BIN" check "$TREE/$1.swift" --format json --output /dev/null --fail-on never
  end=$(date +%s%N)
  awk -v name="$1" -v bytes="$(wc -c < "$TREE/$1.swift")" -v ns="$((end - start))" 'BEGIN {
    printf "check hostile %-22s %8.1f KB in %.3f s\n", name, bytes / 1e3, ns / 1e9
  }'
}

if [ "${HOSTILE:-0}" = "1" ]; then
  swift build -c release --product ips-doctor --package-path "$ROOT" >/dev/null
  BIN="$ROOT/.build/release/ips-doctor"
  hostile hash-run "'#' * (4 << 20) + 'if'"
  hostile nested-closed "'\"\\\\(' * 200000 + 'x' + ')\"' * 200000 + '\\nfunc after() {}\\n'"
  hostile nested-open "'\"\\\\(' * 80000"
  hostile raw-openings "'#\"\"\"\\\\#(' * 60000 + '\\nz'"
  hostile raw-nested "'#\"\\\\#((' * 50000 + '))\"#' * 50000 + ' class C {}'"
  exit 0
fi

mkdir -p "$TREE/Sources/App"
cp "$ROOT"/Fixtures/swift/*.swift "$TREE/Sources/App/"
index=0
total=$(cat "$TREE"/Sources/App/*.swift | wc -l)
while [ "$total" -lt "$LINES" ]; do
  folder="$TREE/Sources/Module$((index / 100))"
  mkdir -p "$folder"
  generate "$index" > "$folder/File$index.swift"
  total=$((total + $(wc -l < "$folder/File$index.swift")))
  index=$((index + 1))
done
files=$(find "$TREE" -name '*.swift' | wc -l)
bytes=$(cat $(find "$TREE" -name '*.swift') | wc -c)

swift build -c release --product ips-doctor --package-path "$ROOT" >/dev/null
BIN="$ROOT/.build/release/ips-doctor"

best=""
for _ in 1 2 3; do
  start=$(date +%s%N)
  "$BIN" check "$TREE" --format json --output /dev/null --fail-on never
  end=$(date +%s%N)
  elapsed=$(( (end - start) / 1000 ))
  if [ -z "$best" ] || [ "$elapsed" -lt "$best" ]; then best=$elapsed; fi
done
findings=$("$BIN" check "$TREE" --fail-on never | tail -1)
awk -v lines="$total" -v files="$files" -v bytes="$bytes" -v us="$best" 'BEGIN {
  printf "check: %d lines, %d files, %.1f MB in %.3f s (best of 3): %.0f lines/s, %.1f MB/s\n",
    lines, files, bytes / 1e6, us / 1e6, lines / (us / 1e6), bytes / 1e6 / (us / 1e6)
}'
echo "$findings"
