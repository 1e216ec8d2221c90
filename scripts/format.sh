#!/usr/bin/env bash
# The C sources' layout, by clang-format and the repo's .clang-format (Debian 12's clang-format 14).
#   scripts/format.sh           reformats every tracked .c and .h file in place
#   scripts/format.sh --check   changes nothing; lists the files that differ and exits 1 when any does
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
command -v clang-format >/dev/null || { echo "format.sh: clang-format not found (scripts/deps.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.c' '*.h')
if [ "${1:-}" = "--check" ]; then
  bad=0
  for f in "${files[@]}"; do
    if ! clang-format --style=file "$f" | cmp -s - "$f"; then
      echo "format.sh: $f is not formatted (run scripts/format.sh)"; bad=1
    fi
  done
  [ "$bad" = 0 ] && echo "format.sh: ${#files[@]} files formatted"
  exit "$bad"
fi
clang-format --style=file -i "${files[@]}"
