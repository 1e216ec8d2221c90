#!/usr/bin/env bash
# e2e_verify.sh KEYPLAN SOURCE_DIR - `keyplan verify` against DynamoDB Local (AWS's own engine,
# installed by scripts/deps.sh), started on a free loopback port and always stopped (trap).
#
# Checks: every sample design passes and its table is deleted; the design built to be wrong
# (tests/data/verify/wrong-prefix.yaml) fails with exit 1 and a report naming the pattern and the
# reason; UTF-8 names work; credentials come from the environment or a profile file and are
# never printed; a missing credential, a bad URL, an unreachable endpoint, a server that is not
# DynamoDB and a broken design give exit 2 with a clear message; no table is left behind.
set -u
bin=${1:?usage: e2e_verify.sh KEYPLAN SOURCE_DIR}
src=${2:?usage: e2e_verify.sh KEYPLAN SOURCE_DIR}
[ -x "$bin" ] || { echo "FAIL $bin is not built"; exit 1; }
# a missing tool is a skip (exit 77), which scripts/test.sh counts as a failure
emu=${KEYPLAN_DYNAMODB_LOCAL:-$src/.deps/npm/node_modules/amplify-dynamodb-simulator/emulator}
for tool in "${JAVA:-java}" curl python3; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed (scripts/deps.sh installs it)"; exit 77; }
done
[ -f "$emu/DynamoDBLocal.jar" ] || { echo "SKIP: DynamoDB Local not installed (scripts/deps.sh)"; exit 77; }
state=$(mktemp -d "${TMPDIR:-/tmp}/keyplan-e2e-verify-XXXXXX")
httpd_pid=
fake_pid=
cleanup() {
    [ -n "$httpd_pid" ] && kill "$httpd_pid" 2>/dev/null
    [ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null
    bash "$src/scripts/dynamodb-local.sh" stop "$state/ddb"
    rm -rf "$state"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

failures=0
pass() { echo "ok   $*"; }
bad() { echo "FAIL $*"; failures=$((failures + 1)); }

export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_DEFAULT_REGION AWS_SHARED_CREDENTIALS_FILE AWS_CONFIG_FILE
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1
export HOME="$state/home"   # no ~/.aws of the machine's user is read
mkdir -p "$HOME"

endpoint=$(bash "$src/scripts/dynamodb-local.sh" start "$state/ddb") || {
    echo "FAIL cannot start DynamoDB Local (run scripts/deps.sh)"
    exit 1
}
echo "DynamoDB Local at $endpoint"

# run NAME EXPECTED_STATUS ARGS... : runs keyplan, keeps stdout/stderr in $state/NAME.{out,err}
run() {
    local name=$1 want=$2
    shift 2
    "$bin" "$@" >"$state/$name.out" 2>"$state/$name.err"
    local got=$?
    if [ "$got" != "$want" ]; then
        bad "$name: exit $got, expected $want"
        sed 's/^/    | /' "$state/$name.out" "$state/$name.err" | head -40
        return 1
    fi
    return 0
}

has() { grep -q -- "$2" "$state/$1" || { bad "$1 lacks '$2'"; sed 's/^/    | /' "$state/$1" | head -30; return 1; }; }

list_tables() {
    curl -s --aws-sigv4 "aws:amz:us-east-1:dynamodb" --user test:test \
        -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
        -d '{}' "$endpoint/"
}

# 1. every sample passes
shopt -s nullglob
samples=("$src"/samples/*.yaml "$src"/samples/*/*.yaml)
[ "${#samples[@]}" -gt 0 ] || bad "no sample designs under samples/"
for f in "${samples[@]}"; do
    n=sample-$(basename "$(dirname "$f")")-$(basename "$f" .yaml)
    if run "$n" 0 verify "$f" --endpoint "$endpoint"; then
        has "$n.out" ' 0 failed' && has "$n.out" 'deleted' && pass "$n passes"
    fi
done

# 2. the design built to be wrong fails, naming the pattern and why; its right pattern passes
if run wrong 1 verify "$src/tests/data/verify/wrong-prefix.yaml" --endpoint "$endpoint"; then
    has wrong.out '^FAIL  1 ' && has wrong.out 'asked lineNo=' && has wrong.out 'predicted no filter' &&
        has wrong.out '^PASS  2 ' && has wrong.out 'deleted' &&
        pass "wrong-prefix fails on pattern 1 with the reason"
fi

# pattern 3: a begins_with prefix that also matches another entity's items. Whatever the model
# predicts, verify must agree with what DynamoDB returns: no filter predicted -> FAIL naming the
# other entity; a filter predicted -> PASS.
filter3=$("$bin" check "$src/tests/data/verify/wrong-prefix.yaml" --json 2>/dev/null |
    python3 -c 'import json,sys; print([p["filter"] for p in json.load(sys.stdin)["patterns"] if p["id"]=="3"][0])' 2>/dev/null)
case "$filter3" in
False)
    has wrong.out '^FAIL  3 ' && has wrong.out 'are InvoiceDispute items' &&
        pass "wrong-prefix pattern 3 (no filter predicted) fails naming InvoiceDispute" ;;
True) has wrong.out '^PASS  3 ' && pass "wrong-prefix pattern 3 (filter predicted) passes" ;;
*) bad "cannot read pattern 3's filter from keyplan check --json" ;;
esac

# 3. UTF-8 names (línea, DIRECCIÓN#) work
if run utf8 0 verify "$src/tests/data/verify/utf8.yaml" --endpoint "$endpoint"; then
    has utf8.out 'Líneas de un pedido' && has utf8.out ' 0 failed' && pass "UTF-8 design passes"
fi

# 4. credentials from a profile file, never printed
cat >"$state/credentials" <<'EOF'
[keyplan-e2e]
aws_access_key_id = AKIDPROFILEE2E
aws_secret_access_key = s3cr3t-never-printed
EOF
cloudshop="$src/samples/cloudshop/design.yaml"
if (unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
    AWS_SHARED_CREDENTIALS_FILE="$state/credentials" AWS_PROFILE=keyplan-e2e \
        run profile 0 verify "$src/tests/data/verify/utf8.yaml" --endpoint "$endpoint" --region eu-west-1); then
    if grep -q -e 's3cr3t-never-printed' -e AKIDPROFILEE2E "$state/profile.out" "$state/profile.err"; then
        bad "profile: a credential was printed"
    else
        pass "credentials from a profile file, not printed"
    fi
fi

# 5. unusable input and endpoints: exit 2 with a clear message
if (unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY; run nocreds 2 verify "$cloudshop" --endpoint "$endpoint"); then
    has nocreds.err 'no AWS credentials' && pass "no credentials: exit 2"
fi
run badurl 2 verify "$cloudshop" --endpoint ftp://example.invalid && has badurl.err 'not an http' && pass "bad URL: exit 2"
run noendpoint 2 verify "$cloudshop" && has noendpoint.err 'missing --endpoint' && pass "no --endpoint: exit 2"
dead_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
run unreachable 2 verify "$cloudshop" --endpoint "http://127.0.0.1:$dead_port" &&
    has unreachable.err 'cannot reach' && pass "unreachable endpoint: exit 2"
printf 'keyplan: 1\nname: broken\ntable: { name: T }\n' >"$state/broken.yaml"
run broken 2 verify "$state/broken.yaml" --endpoint "$endpoint" && pass "broken design: exit 2"
# a server that is not DynamoDB (plain HTTP that refuses POST)
http_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
mkdir -p "$state/www"
(cd "$state/www" && exec python3 -m http.server "$http_port" --bind 127.0.0.1 >/dev/null 2>&1) &
httpd_pid=$!
for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$http_port/" && break; sleep 0.1; done
run nothttp 2 verify "$cloudshop" --endpoint "http://127.0.0.1:$http_port" &&
    has nothttp.err 'HTTP 501' && pass "an HTTP server that is not DynamoDB: exit 2"

# 6. interrupted (SIGINT) while the table is being created: the table is still deleted, exit 2.
# A fake endpoint answers slowly, says CREATING forever and records the operations it receives.
fake_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
cat >"$state/fake.py" <<'EOF'
import http.server, json, sys, time
log = open(sys.argv[2], "a")
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        op = self.headers.get("X-Amz-Target", "").split(".")[-1]
        log.write(op + "\n"); log.flush()
        body = {"Table": {"TableStatus": "CREATING"}} if op == "DescribeTable" else {}
        if op == "DescribeTable":
            time.sleep(0.3)
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
EOF
python3 "$state/fake.py" "$fake_port" "$state/fake.log" &
fake_pid=$!
for _ in $(seq 1 50); do curl -s -o /dev/null -X POST "http://127.0.0.1:$fake_port/" && break; sleep 0.1; done
"$bin" verify "$cloudshop" --endpoint "http://127.0.0.1:$fake_port" >"$state/intr.out" 2>"$state/intr.err" &
vpid=$!
sleep 1.5
kill -INT "$vpid"
wait "$vpid"
intr=$?
kill "$fake_pid" 2>/dev/null
wait "$fake_pid" 2>/dev/null
if [ "$intr" = 2 ] && grep -q interrupted "$state/intr.err" && tail -n 1 "$state/fake.log" | grep -q DeleteTable; then
    pass "interrupted: exit 2 and the table deleted"
else
    bad "interrupted: exit $intr, expected 2 with DeleteTable last"
    sed 's/^/    | /' "$state/intr.err" "$state/fake.log" | tail -10
fi

# 7. nothing left behind
tables=$(list_tables)
case "$tables" in
*'"TableNames":[]'*) pass "every verify table was deleted" ;;
*) bad "tables left behind: $tables" ;;
esac

if [ "$failures" -gt 0 ]; then
    echo "e2e_verify: $failures check(s) failed"
    exit 1
fi
echo "e2e_verify: all checks passed"
