#!/usr/bin/env bash
# The one command that installs what keyplan needs, builds it, and opens it.
#   scripts/run.sh              the workbench on ./design.keyplan (the CloudShop walkthrough when
#                               no workspace exists yet)
#   scripts/run.sh ARGS...      keyplan ARGS... (e.g. check samples/cloudshop/design.yaml)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/deps.sh" >&2
cmake -S "$here" -B "$here/build" >/dev/null
cmake --build "$here/build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
export LANG="${LANG:-C.UTF-8}"
case "${LANG}" in *UTF-8*|*utf8*) ;; *) export LANG=C.UTF-8 ;; esac
exec "$here/build/keyplan" "$@"
