#!/usr/bin/env bash
# fuzz.sh - builds keyplan's libFuzzer harnesses (tests/fuzz/fuzz_*.c) and runs them.
#
#   scripts/fuzz.sh [TARGET|all|build] [SECONDS]
#
# TARGET is design | roundtrip | exchange | template | syntax | accesslog | workspace | items |
# writers (default: all, one after another);
# SECONDS is the run time of each target (default 60). "build" only builds.
# Needs clang with the libFuzzer runtime (Debian: clang, libclang-rt-14-dev).
# Builds with CMake into build-fuzz/ (override with KP_FUZZ_BUILD): clang, -DKEYPLAN_FUZZ=ON, the
# same harnesses that the ordinary build links with tests/fuzz/replay.c to replay their corpora in
# the test suite. The growing corpus lives in build-fuzz/corpus/TARGET, crashes in
# build-fuzz/artifacts/TARGET/; the seeds (tests/fuzz/corpus/TARGET, the samples, the NoSQL
# Workbench fixtures) are read only.
# Extra libFuzzer flags can be given in KP_FUZZ_FLAGS (e.g. "-max_len=20000"); tests/fuzz/TARGET.dict
# is used when present. KP_FUZZ_KEEP_GOING=1 keeps fuzzing after a finding (libFuzzer -fork=1
# -ignore_crashes=1) so that one run collects them all.
# KP_FUZZ_KNOWN="text|text" skips round-trip failures whose first reload error contains one of the
# texts (findings already reported), e.g. KP_FUZZ_KNOWN="has no value after '='|order \"".
# Minimise a finding: build-fuzz/fuzz_TARGET -minimize_crash=1 -runs=20000 -exact_artifact_path=OUT FILE
# Replay one: build-fuzz/fuzz_TARGET FILE   (KP_FUZZ_VERBOSE=1 prints why a design does not load)
# Exit status: 0 no finding, 1 a target found a crash/hang/leak, 2 build or usage error.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KP_FUZZ_BUILD:-$root/build-fuzz}
target=${1:-all}
seconds=${2:-60}
targets=(design roundtrip exchange template syntax accesslog workspace items writers)
CC=${CC_FUZZ:-clang}

case "$target" in
  all|build) ;;
  design|roundtrip|exchange|template|syntax|accesslog|workspace|items|writers) targets=("$target") ;;
  *) echo "usage: scripts/fuzz.sh [TARGET|all|build] [SECONDS]; TARGET: ${targets[*]}" >&2; exit 2 ;;
esac
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then echo "fuzz.sh: SECONDS must be a number" >&2; exit 2; fi
if ! command -v "$CC" >/dev/null; then echo "fuzz.sh: $CC not found (scripts/deps.sh installs clang)" >&2; exit 2; fi

if ! cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$CC" -DKEYPLAN_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
     >"$build.cmake.log" 2>&1; then
  cat "$build.cmake.log" >&2; echo "fuzz.sh: cannot configure $build" >&2; exit 2
fi
rm -f "$build.cmake.log"
if ! cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]/#/fuzz_}" >/dev/null; then
  echo "fuzz.sh: cannot build ${targets[*]}" >&2; exit 2
fi
[ "$target" = build ] && { echo "fuzz.sh: built ${targets[*]} in $build"; exit 0; }

# Seed directories per target (read only; new inputs go to build-fuzz/corpus/TARGET).
seeds_for() {
  case "$1" in
    design|roundtrip)
      printf '%s\n' "$root/tests/fuzz/corpus/$1" "$root"/samples/*/ "$root/tests/data/verify" ;;
    exchange)
      printf '%s\n' "$root/tests/fuzz/corpus/exchange" "$root"/tests/data/nosql-workbench/*/ ;;
    writers)
      printf '%s\n' "$root/tests/fuzz/corpus/writers" "$root"/samples/*/ "$root/tests/data/verify" ;;
    *)
      printf '%s\n' "$root/tests/fuzz/corpus/$1" ;;
  esac
}

status=0
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t" "$build/logs/$t"
  mapfile -t seeds < <(seeds_for "$t")
  dict=()
  [ -f "$root/tests/fuzz/$t.dict" ] && dict=(-dict="$root/tests/fuzz/$t.dict")
  if [ -n "${KP_FUZZ_KEEP_GOING:-}" ]; then
    # one child at a time that is restarted after each crash/hang/leak: collects every finding
    mode=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1); log="$build/logs/$t/stdout.log"
  else
    # -jobs=1 runs one child whose output goes to fuzz-0.log in the working directory
    mode=(-jobs=1 -workers=1); log="$build/logs/$t/fuzz-0.log"
  fi
  echo "fuzz.sh: $t for ${seconds}s (log: $log)"
  mkdir -p "$build/tmp"
  (cd "$build/logs/$t" && rm -f "$log" && export TMPDIR="$build/tmp" &&
   ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
   "$build/fuzz_$t" "${mode[@]}" -timeout=2 -rss_limit_mb=2048 -max_total_time="$seconds" \
     -print_final_stats=1 -artifact_prefix="$build/artifacts/$t/" "${dict[@]}" ${KP_FUZZ_FLAGS:-} \
     "$build/corpus/$t" "${seeds[@]}" >"$build/logs/$t/stdout.log" 2>&1)
  [ -f "$log" ] || log="$build/logs/$t/stdout.log"
  rm -f "$build/tmp"/kp-fuzz-*
  grep -E "^(#[0-9]+ +DONE|#[0-9]+: cov|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" | tail -2
  if grep -qE "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|BUG:" "$log"; then
    status=1
    echo "fuzz.sh: $t FOUND A PROBLEM:"
    grep -E "ERROR:|SUMMARY:|BUG:|runtime error:|Test unit written|CRASH\[" "$log" | head -20
  fi
done
exit $status
