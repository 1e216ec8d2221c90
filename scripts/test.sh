#!/usr/bin/env bash
# The one command that runs every test: installs the dependencies, builds with -Werror and runs
# the whole suite, then builds again with AddressSanitizer + UndefinedBehaviorSanitizer and runs
# the suite a second time, runs the threaded tally's tests built with ThreadSanitizer, then runs
# each fuzz target for a few seconds (KP_FUZZ_SECONDS, default 5), after checking the sources'
# layout (scripts/format.sh --check). Exit status non-zero when anything fails, and when any test
# was skipped (a missing tool).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
scripts/deps.sh
echo "== source layout (clang-format)"
scripts/format.sh --check
jobs=$(nproc 2>/dev/null || echo 2)
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC

# ctest DIR: the whole suite; a skipped test (exit 77: a tool is missing) fails the run too
suite() {
  local log
  log=$(mktemp)
  (cd "$1" && ctest --output-on-failure -j "$jobs") 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  if grep -q 'Not Run\|Skipped' "$log"; then
    echo "test.sh: tests were skipped (a tool is missing: run scripts/deps.sh)"; rc=1
  fi
  rm -f "$log"
  return "$rc"
}

echo "== build (-Wall -Wextra -Werror) and test"
cmake -S . -B build -DKEYPLAN_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
suite build

echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer and test again"
cmake -S . -B build-asan -DKEYPLAN_WERROR=ON -DKEYPLAN_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
suite build-asan

echo "== the threaded tally (heat's threads and their pool) under ThreadSanitizer"
cmake -S . -B build-tsan -DKEYPLAN_WERROR=ON -DKEYPLAN_TSAN=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-tsan -j "$jobs" --target test_accesslog test_heatlog
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1 ./test_accesslog && TSAN_OPTIONS=halt_on_error=1 ./test_heatlog)

echo "== each fuzz target for ${KP_FUZZ_SECONDS:-5} s (libFuzzer, clang)"
scripts/fuzz.sh all "${KP_FUZZ_SECONDS:-5}"
echo "== all tests passed (plain and sanitized builds, the tally's threads, fuzz targets)"
