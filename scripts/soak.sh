#!/usr/bin/env bash
# soak.sh N [BUILD] - kill -9 keyplan N times at random moments and check that nothing reported
# saved is lost and no file is left damaged:
#   commit   `keyplan commit` killed mid-way: every version it reported committed is in the log
#            (in order, with its message), and `keyplan fsck` finds the workspace intact;
#   edits    the workbench's edits (build/soak_edits drives the same session code) killed
#            mid-way: the working copy holds the last edit reported saved, or the one after;
#   import   `keyplan import -o` killed mid-way: the output is the old file or a complete new
#            one that loads, never a partial one.
# BUILD is the build folder (default build/). Exit 0 when every round held, 1 otherwise.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:?usage: scripts/soak.sh N [BUILD]}
build=${2:-$here/build}
kp="$build/keyplan"
edits="$build/soak_edits"
[ -x "$kp" ] && [ -x "$edits" ] || { echo "soak.sh: build first (cmake --build $build)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/keyplan-soak-XXXXXX")
trap 'rm -rf "$work"' EXIT
export KEYPLAN_AUTHOR=soak LANG=C.UTF-8 LC_ALL=C.UTF-8

design="$here/samples/cloudshop/design.yaml"
other="$here/samples/social/design.yaml"
ws="$work/soak.keyplan"
"$kp" commit "$ws" "$design" -m "soak base" >/dev/null || { echo "soak.sh: cannot start" >&2; exit 2; }
"$kp" import "$here/tests/data/nosql-workbench/aws-dynamodb-examples/ChatSystemSchema.json" \
    -o "$work/imported.yaml" >/dev/null 2>&1 || { echo "soak.sh: cannot import" >&2; exit 2; }
cp "$work/imported.yaml" "$work/import-old.yaml"

failures=0 commits=0 edits_seen=0 imports=0 next_edit=1
fail() { echo "FAIL round $1: $2"; failures=$((failures + 1)); }

# kill_after CMD...: runs CMD in the background with stdout to $work/out, kills it with SIGKILL
# after a random 5-155 ms (often mid-write, sometimes after it finished), waits for it
kill_after() {
    "$@" >"$work/out" 2>"$work/err" &
    local pid=$!
    sleep "0.$(printf %03d $((RANDOM % 150 + 5)))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}

for ((i = 1; i <= n; i++)); do
    case $((RANDOM % 3)) in
    0) # a commit
        src=$design
        [ $((i % 2)) = 0 ] && src=$other
        kill_after "$kp" commit "$ws" "$src" -m "soak $i"
        if grep -q "committed to" "$work/out"; then
            commits=$((commits + 1))
            "$kp" log "$ws" 2>/dev/null | grep -q "  soak $i\$" || fail "$i" "commit reported but 'soak $i' is not in the log"
        fi
        ;;
    1) # workbench edits
        kill_after "$edits" "$ws" "$next_edit"
        last=$(tail -n 1 "$work/out" 2>/dev/null | tr -dc 0-9)
        if [ -n "$last" ]; then
            edits_seen=$((edits_seen + $(wc -l <"$work/out")))
            # the working copy holds the last printed name, or one more (saved, not yet printed)
            # (as keyplan reads it: copies.design with the edits saved as lines applied)
            copy=$("$edits" --show "$ws" 2>/dev/null | grep -o 'soak-[0-9]*' | head -1)
            case "$copy" in
            "soak-$last" | "soak-$((last + 1))") ;;
            *) fail "$i" "edits: printed soak-$last, the working copy holds '${copy:-nothing}'" ;;
            esac
            next_edit=$((last + 2))
        fi
        ;;
    2) # an import over an existing output
        kill_after "$kp" import "$here/tests/data/nosql-workbench/amazon-dynamodb-design-patterns/AnOnlineShop_13.json" \
            -o "$work/imported.yaml"
        imports=$((imports + 1))
        if ! "$kp" check "$work/imported.yaml" >/dev/null 2>&1; then
            fail "$i" "import: the output does not load after the kill"
        fi
        ;;
    esac
    # the workspace is intact after every kill (a leftover tmp file from an import is fine)
    if ! "$kp" fsck "$ws" >"$work/fsck" 2>&1; then
        fail "$i" "fsck: $(tail -n 3 "$work/fsck" | tr '\n' ' ')"
        break
    fi
done
leftovers=$(find "$work" -name '*.tmp-*' | wc -l)
echo "soak: $n kills: $commits commits reported and found, $edits_seen edits reported, $imports imports;" \
     "$failures failures; $leftovers temporary files left by killed writers"
[ "$failures" = 0 ]
