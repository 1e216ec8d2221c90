#!/usr/bin/env bash
# dynamodb-local.sh - start and stop DynamoDB Local (AWS's own engine, installed by scripts/deps.sh)
# for `keyplan verify` and its tests.
#
#   scripts/dynamodb-local.sh start STATE_DIR   starts it in memory on a free loopback port, waits
#                                               until it answers, prints the endpoint URL
#                                               (http://127.0.0.1:PORT) on stdout
#   scripts/dynamodb-local.sh stop STATE_DIR    stops the instance started with that STATE_DIR
#
# STATE_DIR (created when missing) keeps the pid, the port and the log (dynamodb-local.log).
# DynamoDB Local has no option to choose the listening address (no -host; see its README.txt and
# `-help`): it listens on every interface of the chosen port. keyplan only ever talks to it through
# 127.0.0.1. Telemetry is disabled (-disableTelemetry). Environment:
#   KEYPLAN_DYNAMODB_LOCAL  folder holding DynamoDBLocal.jar and DynamoDBLocal_lib (default: the one
#                           scripts/deps.sh installs under .deps/)
#   JAVA                    the java binary (default: java on PATH; Debian's OpenJDK 17 works)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
emu=${KEYPLAN_DYNAMODB_LOCAL:-$here/.deps/npm/node_modules/amplify-dynamodb-simulator/emulator}
java=${JAVA:-java}

die() { echo "dynamodb-local: $*" >&2; exit 2; }

free_port() {
    # Ask the kernel for a free port (bind to port 0), then release it for java to take.
    if command -v python3 >/dev/null; then
        python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
        return
    fi
    local p
    for p in $(seq 18000 18999); do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
    done
    die "no free port found"
}

answers() {
    # Any HTTP answer from the port means the server is up (it answers 400 to an unsigned call).
    curl -s -o /dev/null -m 2 -w '%{http_code}' -X POST "http://127.0.0.1:$1/" \
        -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
        -d '{}' 2>/dev/null | grep -q '^[1-5][0-9][0-9]$'
}

start() {
    local dir=$1
    [ -f "$emu/DynamoDBLocal.jar" ] || die "DynamoDB Local not found in $emu (run scripts/deps.sh)"
    command -v "$java" >/dev/null || die "java not found (install openjdk-17-jre-headless)"
    command -v curl >/dev/null || die "curl not found"
    mkdir -p "$dir"
    if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
        echo "http://127.0.0.1:$(cat "$dir/port")"
        return 0
    fi
    local attempt port pid
    for attempt in 1 2 3; do
        port=$(free_port)
        "$java" -Xmx512m -Djava.library.path="$emu/DynamoDBLocal_lib" -jar "$emu/DynamoDBLocal.jar" \
            -inMemory -port "$port" -disableTelemetry >"$dir/dynamodb-local.log" 2>&1 </dev/null &
        pid=$!
        echo "$pid" >"$dir/pid"
        echo "$port" >"$dir/port"
        local i
        for i in $(seq 1 300); do        # up to 60 s: a cold JVM on a slow machine
            if answers "$port"; then
                echo "http://127.0.0.1:$port"
                return 0
            fi
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.2
        done
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        rm -f "$dir/pid"
        if [ "$attempt" = 3 ]; then
            tail -n 20 "$dir/dynamodb-local.log" >&2 || true
            die "DynamoDB Local did not start (log: $dir/dynamodb-local.log)"
        fi
    done
}

stop() {
    local dir=$1 pid i
    [ -f "$dir/pid" ] || return 0
    pid=$(cat "$dir/pid")
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for i in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$dir/pid"
}

case "${1:-}" in
start) [ $# -eq 2 ] || die "usage: $0 start STATE_DIR"; start "$2" ;;
stop) [ $# -eq 2 ] || die "usage: $0 stop STATE_DIR"; stop "$2" ;;
*) echo "usage: $0 start|stop STATE_DIR" >&2; exit 2 ;;
esac
