#!/usr/bin/env bash
# e2e_pair.sh KEYPLAN SOURCE_DIR - two people pairing on one workspace, in tmux, on the real
# binary: ana and bea each in their own workbench (--author) on the CloudShop workspace.
#  1. presence: each sees the other's author, screen and row;
#  2. ana commits version 2; bea's commit on version 1 is refused; bea presses R (the merge),
#     u (her working copy and its old base come back: the commit is refused again, nothing of
#     ana's is reverted), R again and commits version 3: both changes are in it;
#  3. a conflict: both change one rate; bea's R opens the merge view, she types a third value,
#     applies the merge and commits: the latest version holds it;
#  4. both quit with uncommitted edits; carla commits version 6 from the command line; each
#     reopens, sees their own working copy and is told of version 6 at once; History says who
#     has uncommitted work;
#  5. presence goes away when the other quits, and when the other is killed.
KP=$(realpath "$1")
SRC=$(realpath "$2")
# shellcheck source=tests/tmux_harness.sh
. "$SRC/tests/tmux_harness.sh" pair
export KEYPLAN_AUTHOR=script

# start NAME AUTHOR: a keyplan of AUTHOR on shop.keyplan in its own tmux session, 120x40
start() {
    T new-session -d -s "$1" -x 120 -y 40 \
        "$KP shop.keyplan --author $2 2>$WORK/$1.err; echo \$? > $WORK/$1.exit; sleep 600"
}
# rate SESSION ROW VALUE: the rate cell of pattern row ROW (1-based) on Patterns
rate() {
    local s=$1 row=$2 i
    send "$s" 1; send "$s" g; send "$s" 0
    for ((i = 1; i < row; i++)); do send "$s" j; done
    for ((i = 0; i < 6; i++)); do send "$s" l; done
    send "$s" Enter; send "$s" C-u; type_text "$s" "$3"; send "$s" Enter
}
# name SESSION ROW TEXT: the name cell of pattern row ROW
name() {
    local s=$1 row=$2 i
    send "$s" 1; send "$s" g; send "$s" 0
    for ((i = 1; i < row; i++)); do send "$s" j; done
    send "$s" l; send "$s" l
    send "$s" Enter; send "$s" C-u; type_text "$s" "$3"; send "$s" Enter
}
commit() { send "$1" c; type_text "$1" "$2"; send "$1" Enter; }
# has_rates REV VALUE...: version REV of the workspace holds each rate
has_rates() {
    local rev=$1 v
    shift
    "$KP" show shop.keyplan "$rev" >"$WORK/show.txt" 2>&1 || { fail "show $rev: $(cat "$WORK/show.txt")"; return; }
    for v in "$@"; do
        grep -q "^  rate: $v\$" "$WORK/show.txt" && ok "version $rev holds rate $v" ||
            fail "version $rev lacks rate $v"
    done
}

"$KP" commit shop.keyplan "$SRC/samples/cloudshop/design.yaml" -m "CloudShop" --author ana >/dev/null ||
    { echo "FAIL: first commit"; exit 1; }

# ---- 1. presence ---------------------------------------------------------------------------
start a ana
start b bea
expect a "v1 saved" "ana opens version 1"
expect b "v1 saved" "bea opens version 1"
expect a "bea: Patterns row 1" "ana sees bea on Patterns row 1"
send b j; send b j
expect a "bea: Patterns row 3" "ana sees bea move to row 3"
expect b "ana: Patterns row 1" "bea sees ana"

# ---- 2. A commits, B reloads (merges), undoes, merges again and commits ----------------------
rate b 2 222
expect b "v1 modified" "bea edits pattern 2 on version 1"
rate a 1 111
commit a "ana: pattern 1"
expect a "committed version 2" "ana commits version 2"
commit b "bea: pattern 2"
expect b "commit refused, R merges" "bea's commit on version 1 is refused with an offer to merge"
send b R
expect b "merged version 2 into your working copy" "R merges version 2 into bea's working copy"
send b u
expect b "undone" "u undoes the merge"
expect b "v1 modified" "bea's working copy is on version 1 again"
commit b "bea: pattern 2"
expect b "commit refused, R merges" "after R then u the commit is refused, not a silent revert"
send b R
expect b "merged version 2" "R merges again"
commit b "bea: pattern 2"
expect b "committed version 3" "bea commits version 3"
has_rates 3 111 222
"$KP" diff shop.keyplan 2 3 >"$WORK/diff.txt" 2>&1
grep -q "pattern 1 " "$WORK/diff.txt" && fail "diff 2 3 reverts ana's change: $(cat "$WORK/diff.txt")" ||
    ok "diff 2 3 does not touch ana's change"
grep -q "pattern 2 " "$WORK/diff.txt" && ok "diff 2 3 is bea's change" || fail "diff 2 3: $(cat "$WORK/diff.txt")"

# ---- 3. a conflict, resolved in the workbench --------------------------------------------------
expect a "v3 saved" "ana's clean working copy follows version 3"
rate b 3 444
expect b "v3 modified" "bea changes pattern 3 on version 3"
rate a 3 333
commit a "ana: pattern 3"
expect a "committed version 4" "ana commits version 4"
commit b "bea: pattern 3"
expect b "commit refused" "bea's commit on version 3 is refused"
send b R
expect b "1 conflict" "the merge stops on one conflict"
expect b "Merge version 4 into your working copy" "the merge view opens"
expect b "theirs  333" "it shows theirs"
expect b "mine    444" "and mine"
send b q
expect b "finish the merge" "nothing else happens until the merge is done"
send b e; send b C-u; type_text b "555"; send b Enter
expect b "every conflict resolved" "a typed value resolves the conflict"
send b Enter
expect b "merged version 4" "the merge is applied"
commit b "bea: pattern 3 settled"
expect b "committed version 5" "bea commits version 5"
has_rates 5 111 222 555

# ---- 4. each reopens their own working copy ---------------------------------------------------
expect a "v5 saved" "ana follows version 5"
name a 1 "solo de ana"
name b 1 "solo de bea"
expect a "v5 modified" "ana has uncommitted work"
expect b "v5 modified" "bea has uncommitted work"
quit a
quit b
# carla commits from the command line while both are away: each reopens on version 5 + their
# work, and is told of version 6 at once
"$KP" show shop.keyplan 5 >"$WORK/v5.yaml" 2>&1 && sed -i 's/^  rate: 555$/  rate: 666/' "$WORK/v5.yaml" &&
    "$KP" commit shop.keyplan "$WORK/v5.yaml" -m "carla: pattern 3" --author carla >/dev/null ||
    fail "carla's commit: $(cat "$WORK/v5.yaml" | head -3)"
start a ana
expect a "version 6 was committed since your working copy's version 5" "ana reopens and is told of version 6"
expect a "NEW VERSION" "the status line says so until R"
expect a "solo de ana" "ana reopens her working copy"
if screen a | grep -qF "solo de bea"; then fail "ana sees bea's edit"; else ok "ana does not see bea's edit"; fi
send a 6
expect a "ana (you) on v5 + uncommitted work" "History: ana's uncommitted work"
expect a "bea on v5 + uncommitted work" "History: bea's uncommitted work"
start b bea
expect b "solo de bea" "bea reopens her working copy"
if screen b | grep -qF "solo de ana"; then fail "bea sees ana's edit"; else ok "bea does not see ana's edit"; fi

# ---- 5. presence goes when the other quits or is killed ----------------------------------------
expect a "bea: Patterns row 1" "ana sees bea again"
quit b
expect_gone a "bea: Patterns" "bea quits: ana stops showing her"
start b bea
expect a "bea: Patterns" "bea is back"
pane=$(T list-panes -t b -F '#{pane_pid}')
kill -9 $(pgrep -P "$pane" -f "$KP") 2>/dev/null
expect_gone a "bea: Patterns" "bea is killed: ana stops showing her within seconds"
T kill-session -t b 2>/dev/null
quit a

[ "$FAILS" = 0 ] && echo "all pair checks passed" || echo "$FAILS failure(s)"
[ "$FAILS" = 0 ]
