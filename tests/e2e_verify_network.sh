#!/usr/bin/env bash
# e2e_verify_network.sh KEYPLAN SOURCE_DIR - `keyplan verify` against an endpoint that misbehaves
# (tests/fake_ddb.py): a request that hangs is abandoned within a second of Ctrl-C, SIGTERM or
# SIGHUP; an answer that never ends is cut at 32 MiB; a CreateTable whose answer is lost (a 500
# then "in use", or no answer) still has its table deleted. Every run ends with a DeleteTable.
set -u
bin=${1:?usage: e2e_verify_network.sh KEYPLAN SOURCE_DIR}
src=${2:?usage: e2e_verify_network.sh KEYPLAN SOURCE_DIR}
command -v python3 >/dev/null || { echo "SKIP: python3 not installed (scripts/deps.sh installs it)"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/keyplan-e2e-net-XXXXXX")
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1 HOME="$work"
design="$src/samples/social/design.yaml"
failures=0
pass() { echo "ok   $*"; }
bad() { echo "FAIL $*"; failures=$((failures + 1)); }

# fake MODE: starts the fake server, sets $endpoint and $log
fake() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    log="$work/$1.log"
    rm -f "$work/port" "$log"
    python3 "$src/tests/fake_ddb.py" "$1" "$work/port" "$log" &
    server=$!
    for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
    endpoint="http://127.0.0.1:$(cat "$work/port")"
}

now_ms() { date +%s%3N; }

# interrupted MODE SIGNAL: verify hangs on a read; SIGNAL arrives; it must exit 2 within 2 s and
# delete its table
interrupted() {
    fake "$1"
    "$bin" verify "$design" --endpoint "$endpoint" >"$work/out" 2>"$work/err" &
    local pid=$! t0 t1 rc
    for _ in $(seq 200); do grep -q "BatchWriteItem" "$log" 2>/dev/null && break; sleep 0.05; done
    sleep 1
    t0=$(now_ms)
    kill "-$2" "$pid"
    wait "$pid"
    rc=$?
    t1=$(now_ms)
    if [ "$rc" = 2 ] && [ $((t1 - t0)) -lt 2500 ] && grep -q DeleteTable "$log"; then
        pass "$1 + SIG$2: exit 2 after $((t1 - t0)) ms, table deleted"
    else
        bad "$1 + SIG$2: exit $rc after $((t1 - t0)) ms; DeleteTable sent: $(grep -c DeleteTable "$log")"
        sed 's/^/    | /' "$work/out" "$work/err" | tail -8
    fi
}

interrupted hang INT
interrupted hang TERM
interrupted hang HUP
interrupted create INT

fake endless
timeout 120 "$bin" verify "$design" --endpoint "$endpoint" >"$work/out" 2>"$work/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "more than 32 MiB" "$work/err" && grep -q DeleteTable "$log"; then
    pass "an endless answer is cut at 32 MiB; exit 2, table deleted"
else
    bad "endless answer: exit $rc, $(tail -c 300 "$work/err")"
fi

fake inuse
timeout 120 "$bin" verify "$design" --endpoint "$endpoint" >"$work/out" 2>"$work/err"
rc=$?
if [ "$(grep -c CreateTable "$log")" = 2 ] && grep -q DeleteTable "$log" && grep -q "deleted" "$work/out"; then
    pass "a 500 then ResourceInUse on CreateTable: the table is ours, and deleted (exit $rc)"
else
    bad "500 then in use: exit $rc; $(tr '\n' ' ' <"$log")"
    sed 's/^/    | /' "$work/out" "$work/err" | tail -8
fi
exit $((failures > 0))
