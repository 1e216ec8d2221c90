#!/usr/bin/env bash
# e2e_rules.sh KEYPLAN SOURCE_DIR [CASE...] - DynamoDB's rules proven on DynamoDB Local: every
# tests/data/rules/CASE.yaml with its CASE.expect (tests/rules.py says the assertions) is checked
# by keyplan (plan, figures, findings, exports) and, where the case says so, run by `keyplan verify`
# against DynamoDB Local started here on a free loopback port and always stopped; then every
# DynamoDB reserved word (tests/reserved_words.py; the case name "reserved-words") is held
# against keyplan's table.
set -u
bin=${1:?usage: e2e_rules.sh KEYPLAN SOURCE_DIR [CASE...]}
src=${2:?usage: e2e_rules.sh KEYPLAN SOURCE_DIR [CASE...]}
shift 2
[ -x "$bin" ] || { echo "FAIL $bin is not built"; exit 1; }
emu=${KEYPLAN_DYNAMODB_LOCAL:-$src/.deps/npm/node_modules/amplify-dynamodb-simulator/emulator}
for tool in "${JAVA:-java}" curl python3; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed (scripts/deps.sh installs it)"; exit 77; }
done
[ -f "$emu/DynamoDBLocal.jar" ] || { echo "SKIP: DynamoDB Local not installed (scripts/deps.sh)"; exit 77; }

state=$(mktemp -d "${TMPDIR:-/tmp}/keyplan-e2e-rules-XXXXXX")
trap 'bash "$src/scripts/dynamodb-local.sh" stop "$state/ddb"; rm -rf "$state"' EXIT
trap 'exit 130' INT TERM

export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_DEFAULT_REGION AWS_SHARED_CREDENTIALS_FILE AWS_CONFIG_FILE
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1
export HOME="$state/home"
mkdir -p "$HOME"

endpoint=$(bash "$src/scripts/dynamodb-local.sh" start "$state/ddb") || {
    echo "FAIL cannot start DynamoDB Local"
    exit 1
}
echo "DynamoDB Local at $endpoint"
status=0
cases=()
words=0
for c in "$@"; do
    if [ "$c" = reserved-words ]; then words=1; else cases+=("$c"); fi
done
if [ $# -eq 0 ] || [ ${#cases[@]} -gt 0 ]; then
    python3 "$src/tests/rules.py" "$bin" "$endpoint" "$src/tests/data/rules" ${cases[@]+"${cases[@]}"} || status=1
fi
# DynamoDB's reserved words, each against keyplan's table (the case "reserved-words")
if [ $# -eq 0 ] || [ $words = 1 ]; then
    python3 "$src/tests/reserved_words.py" "$bin" "$endpoint" "$src/tests/data/rules/reserved-words.txt" || status=1
fi
exit $status
