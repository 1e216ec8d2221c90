#!/usr/bin/env bash
# e2e_workspace.sh KEYPLAN SOURCE_DIR - the workshop flow on the real binary, and the sqlite3
# queries the README documents, run against a real workspace.
set -u
KP=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export KEYPLAN_AUTHOR=ana
WS=$T/cloudshop.keyplan

"$KP" commit "$WS" "$SRC/samples/cloudshop/first-design.yaml" -m "first design, keyed by status" >/dev/null || fail "commit 1"
"$KP" commit "$WS" "$SRC/samples/cloudshop/design.yaml" -m "the nine patterns" >/dev/null || fail "commit 2"
"$KP" diff "$WS" 1 2 | grep -q "scan → get" || fail "diff does not show scan → get"
"$KP" signals "$WS" >/dev/null; [ $? -eq 0 ] || fail "signals should be quiet"
"$KP" observe "$WS" pattern.5.rate=60 | grep -q "D3 reopens" || fail "observe"
"$KP" signals "$WS" >"$T/sig"; [ $? -eq 1 ] || fail "signals should exit 1"
grep -q "FIRED" "$T/sig" || fail "no FIRED line"
KEYPLAN_AUTHOR=bea "$KP" commit "$WS" "$SRC/samples/cloudshop/design.yaml" -m late --parent 1 2>"$T/err"
[ $? -eq 2 ] || fail "stale parent accepted"
grep -q "committed meanwhile by ana" "$T/err" || fail "stale message: $(cat "$T/err")"
"$KP" export "$WS" --format md -o "$T/record.md" || fail "export md"
grep -q "REOPEN" "$T/record.md" || fail "record lacks REOPEN"

if command -v sqlite3 >/dev/null; then
    q() { sqlite3 -batch -noheader -separator '|' "$WS" "$1"; }
    [ "$(q 'SELECT count(*) FROM versions')" = 2 ] || fail "versions"
    q "SELECT s.decision, s.signal, s.design_value, o.value FROM signals s
       LEFT JOIN observations o ON o.metric = s.metric
        AND o.id = (SELECT max(id) FROM observations WHERE metric = s.metric)
       WHERE s.version = (SELECT max(number) FROM versions)" | grep -q '^D3|pattern.5.rate > 50|2.0|60.0$' \
        || fail "signals query: $(q 'SELECT * FROM signals')"
    q "SELECT d.id, json_extract(a.value, '\$.option') FROM decisions d, json_each(d.alternatives) a
       WHERE d.version = (SELECT max(number) FROM versions)" | grep -q '^D3|shard ESTADO# over 10 suffixes$' \
        || fail "alternatives query"
    [ "$(q "SELECT group_concat(version || ':' || status) FROM decisions WHERE id = 'D3'")" = "2:accepted" ] \
        || fail "decision history query"
    q "UPDATE versions SET message = 'rewritten'" 2>/dev/null && fail "versions are not immutable"
fi
echo "e2e_workspace: ok"
