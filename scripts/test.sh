#!/usr/bin/env bash
# The one command that runs every test: installs the dependencies, builds with -Werror and runs
# the whole suite, then builds again with AddressSanitizer + UndefinedBehaviorSanitizer and runs
# the suite a second time. Exit status non-zero when anything fails.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC

echo "== build (-Wall -Wextra -Werror) and test"
cmake -S . -B build -DKEYPLAN_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure -j "$jobs")

echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer and test again"
cmake -S . -B build-asan -DKEYPLAN_WERROR=ON -DKEYPLAN_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j "$jobs")
echo "== all tests passed (plain and sanitized builds)"
