#!/usr/bin/env bash
# Builds the coverage-guided fuzz target (libFuzzer + AddressSanitizer) for the reader and the rule
# engine, and runs it.
#
#   Fuzz/fuzz.sh --seconds 60          # time-boxed run (CI uses this)
#   Fuzz/fuzz.sh --runs 10000000       # a fixed number of executions
#   Fuzz/fuzz.sh --reader-only ...     # the JSON parser and report reader alone (much faster)
#   Fuzz/fuzz.sh --macho ...           # the symbolication readers (Mach-O, DWARF), seeded with the
#                                      # shared dSYMs
#   Fuzz/fuzz.sh --swift ...           # check's Swift lexer and scanner, and merge of the input as a
#                                      # part, seeded with Fixtures/swift and report records
#   Fuzz/fuzz.sh --if-available ...    # exit 0 with a note where the toolchain has no libFuzzer
#                                      # (Xcode's), as .ci/run does
#
# Seeds: Fixtures/reports, Fixtures/json, the pasted crash text in Fixtures/pasted, the crash
# reporters' JSON in Fixtures/thirdparty, and ../shared/corpus and ../shared/third-party when
# present, copied to a scratch
# corpus directory (the inputs are never modified). Crashes are written to Fuzz/artifacts/; each one
# found becomes a fixture and a test.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
runs=-1
target=full
if_available=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; seconds=0; shift 2 ;;
    --reader-only) target=reader; shift ;;
    --macho) target=macho; shift ;;
    --swift) target=swift; shift ;;
    --if-available) if_available=1; shift ;;
    *) echo "usage: Fuzz/fuzz.sh [--seconds N | --runs N] [--reader-only | --macho | --swift] [--if-available]" >&2; exit 64 ;;
  esac
done
# One word or none; a plain variable, since bash 3.2 (macOS's) calls an empty array unbound.
define=""
if [ "$target" = reader ]; then define="-DFUZZ_READER_ONLY"; fi
if [ "$target" = macho ]; then define="-DFUZZ_MACHO"; fi
if [ "$target" = swift ]; then define="-DFUZZ_SWIFT"; fi

build=.build/fuzz
mkdir -p "$build" Fuzz/artifacts

# libFuzzer comes with swift.org's toolchains, not with Xcode's.
probe="$build/probe"
mkdir -p "$probe"
echo '@_cdecl("LLVMFuzzerTestOneInput") func fuzz(_ d: UnsafePointer<UInt8>, _ n: Int) -> CInt { 0 }' >"$probe/probe.swift"
if ! swiftc -sanitize=fuzzer -parse-as-library "$probe/probe.swift" -o "$probe/probe" >"$probe/log" 2>&1; then
  if [ "$if_available" = 1 ]; then
    echo "skipping the fuzz run: this Swift toolchain has no libFuzzer (-sanitize=fuzzer)"
    exit 0
  fi
  echo "error: this Swift toolchain has no libFuzzer (-sanitize=fuzzer); use a swift.org toolchain" >&2
  cat "$probe/log" >&2
  exit 69
fi
work="${IPS_DOCTOR_FUZZ_CORPUS:-$build/corpus}"
if [ "$target" = macho ]; then work="${IPS_DOCTOR_FUZZ_CORPUS:-$build/corpus-macho}"; fi
if [ "$target" = swift ]; then work="${IPS_DOCTOR_FUZZ_CORPUS:-$build/corpus-swift}"; fi
mkdir -p "$work"

echo "building the fuzz target (this takes a minute)"
# Compile a snapshot of the sources, so that editing them meanwhile cannot break the build.
snapshot="$build/src-$target"
rm -rf "$snapshot"
mkdir -p "$snapshot"
# Every library layer into one module (the layers' imports of each other removed), so the fuzzer
# instruments and inlines across them.
for layer in Sources/IPSDoctor*; do cp -R "$layer" "$snapshot/"; done
cp Fuzz/FuzzEntry.swift Tests/IPSDoctorCoreTests/Support/OutputInvariants.swift "$snapshot/"
find "$snapshot" -name '*.swift' -exec sed -i.orig -E '/^(@testable )?import IPSDoctor[A-Za-z]+$/d' {} +
find "$snapshot" -name '*.orig' -delete
swiftc -sanitize=fuzzer,address -parse-as-library -module-name IPSDoctorCore -package-name ips_doctor -O ${define:+"$define"} -D IPS_DOCTOR_FUZZ \
  -swift-version 6 -enforce-exclusivity=checked \
  $(find "$snapshot" -name '*.swift' | sort) \
  -lm -o "$build/ips-doctor-fuzz-$target"

# clang-emitted objects of several shapes, when clang is here: DWARF 4 and 5, -O2 inlining, enums
# with values near 64 bits, many files and functions.
if [ "$target" = macho ] && command -v clang >/dev/null 2>&1; then
  seeds="$build/clang-seeds"
  mkdir -p "$seeds"
  printf '%s\n' 'enum Big : long long { Neg = -(1LL << 60), Min = (-9223372036854775807LL - 1), Pos = 1LL << 62 };' \
    'static inline int twice(int x) { return x * 2; }' 'int f(enum Big b, int x) { return twice(x) + (b == Neg); }' \
    '#include "more.h"' 'int main(void) { return f(Neg, 3) + g(1); }' >"$seeds/a.c"
  printf '%s\n' 'static inline int g(int x) { return x > 0 ? g(x - 1) + 1 : 0; }' >"$seeds/more.h"
  for flags in "-gdwarf-4" "-gdwarf-5" "-gdwarf-5 -O2" "-gdwarf-4 -O2"; do
    name="clang$(echo "$flags" | tr -d ' -')"
    # shellcheck disable=SC2086
    clang -target arm64-apple-ios17.0 $flags -c "$seeds/a.c" -o "$work/$name.o" 2>/dev/null || true
  done
fi
if [ "$target" = macho ] && [ -d ../shared/symbolication ]; then
  find ../shared/symbolication -path '*/DWARF/*' -type f | while read -r file; do
    cp -n "$file" "$work/$(basename "$file")" 2>/dev/null || true
  done
fi
if [ "$target" = swift ]; then
  find Fixtures/swift -name '*.swift' -type f -exec cp -n {} "$work"/ \; 2>/dev/null || true
  # A few report records, as merge reads them.
  for report in Fixtures/reports/*.ips; do
    name="$(basename "$report" .ips).jsonl"
    [ -e "$work/$name" ] || .build/debug/ips-doctor "$report" --format jsonl > "$work/$name" 2>/dev/null || true
  done
fi
for seed in Fixtures/reports Fixtures/json Fixtures/pasted Fixtures/thirdparty ../shared/corpus ../shared/third-party; do
  [ -d "$seed" ] || continue
  [ "$target" = macho ] && continue
  [ "$target" = swift ] && continue
  find "$seed" -type f \( -name '*.ips' -o -name '*.crash' -o -name '*.json' -o -name '*.txt' -o -name '*.md' \) \
    ! -name README.md -size -64k \
    -exec cp -n {} "$work"/ \; 2>/dev/null || true
done

max_len=16384
rss=2048
# The symbolication readers: inputs up to 256 KiB, whose DWARF budget is 64 MiB + 32 x 256 KiB.
if [ "$target" = macho ]; then max_len=262144; rss=1024; fi
args=(-max_len="${IPS_DOCTOR_FUZZ_MAX_LEN:-$max_len}" -timeout=10 -rss_limit_mb="$rss" -artifact_prefix=Fuzz/artifacts/ -print_final_stats=1)
if [ "$seconds" -gt 0 ]; then args+=(-max_total_time="$seconds"); fi
if [ "$runs" -gt 0 ]; then args+=(-runs="$runs"); fi
# IPS_DOCTOR_FUZZ_FORK=N runs N fuzzing processes in parallel (libFuzzer's fork mode).
if [ -n "${IPS_DOCTOR_FUZZ_FORK:-}" ]; then args+=(-fork="$IPS_DOCTOR_FUZZ_FORK" -ignore_crashes=0); fi
"$build/ips-doctor-fuzz-$target" "${args[@]}" "$work"
