#!/usr/bin/env bash
# e2e_soak.sh KEYPLAN SOURCE_DIR - a short kill -9 soak (scripts/soak.sh 30): commits, workbench
# edits and imports killed at random moments lose nothing reported saved and damage no file.
set -u
bin=${1:?usage: e2e_soak.sh KEYPLAN SOURCE_DIR}
src=${2:?usage: e2e_soak.sh KEYPLAN SOURCE_DIR}
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 not installed (scripts/deps.sh installs it)"; exit 77; }
exec bash "$src/scripts/soak.sh" "${KP_SOAK_KILLS:-30}" "$(dirname "$bin")"
