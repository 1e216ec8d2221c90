#!/usr/bin/env bash
# e2e_tour.sh KEYPLAN SOURCE_DIR - a student takes the CloudShop tour in tmux, on the real binary:
# `keyplan` in an empty folder opens the tour in its own workspace (never ./design.keyplan); the
# student does the "try it" exercises of steps 1 and 2 and sees them turn green, quits, reopens
# and is back at step 2 with the edits kept per step; :tour reset takes a step back to its own
# design; Esc leaves the tour; the tour refuses a workspace holding a design of its own.
set -u
KP=$(realpath "$1")
SRC=$(realpath "$2")
# shellcheck source=tests/tmux_harness.sh
. "$SRC/tests/tmux_harness.sh" tour
start() { # start NAME ARGS...: keyplan at 120x40 in its own tmux session
    local name=$1
    shift
    T new-session -d -s "$name" -x 120 -y 40 "$KP $* 2>$WORK/$name.err; echo \$? > $WORK/$name.exit; sleep 600"
}
ended() { # ended SESSION: waits for the exit status and prints it
    local i
    for ((i = 0; i < 200; i++)); do [ -f "$WORK/$1.exit" ] && break; sleep 0.1; done
    cat "$WORK/$1.exit" 2>/dev/null
}
quit() {
    send "$1" q
    [ "$(ended "$1")" = 0 ] && ok "$1 quit with status 0" || { fail "$1 exit status"; cat "$WORK/$1.err"; }
    T kill-session -t "$1" 2>/dev/null
    rm -f "$WORK/$1.exit"
}
right() { local i; for ((i = 0; i < $2; i++)); do send "$1" l; done; }
# cell SESSION TEXT: Enter, clear, type, Enter
cell() { send "$1" Enter; send "$1" C-u; type_text "$1" "$2"; send "$1" Enter; }

# ---- 1. the first run: the tour, in its own workspace -----------------------------------------
start s
expect s "Tour 1/9" "keyplan in an empty folder opens the tour at step 1"
expect s "[ ] pattern.8.plan == outside" "step 1's exercise is shown, not done"
[ -e tour.keyplan ] && ok "the tour has its own workspace" || fail "no tour.keyplan"
[ -e design.keyplan ] && fail "the tour created ./design.keyplan" || ok "./design.keyplan untouched"

# ---- 2. the exercise of step 1: pattern 8 served by the search index --------------------------
send s 1
send s g
for i in 1 2 3 4 5 6 7; do send s j; done
send s 0
right s 17
send s Enter
expect s "served_by:" "the cursor is on pattern 8's served_by"
send s C-u; type_text s "search-index"; send s Enter
expect s "Try it (done!)" "step 1's exercise turns green"
expect s "[x] pattern.8.plan == outside" "its check is ticked"

# ---- 3. step 2 and its exercise: pattern 1 asked by its status too ----------------------------
send s ']'
expect s "Tour 2/9" "step 2"
send s g
send s 0
right s 5
cell s "orderId, status=paid"
expect s "[x] pattern.1.plan == query" "step 2's exercise turns green"
quit s

# ---- 4. reopen: back at step 2, the edits of each step kept ------------------------------------
start r
expect r "Tour 2/9" "reopening resumes at step 2"
expect r "where you left it" "and says so"
expect r "Try it (done!)" "with the student's edit of step 2"
send r '['
expect r "Tour 1/9" "back to step 1"
expect r "[x] pattern.8.plan == outside" "step 1 keeps the student's edit"
send r ':'; type_text r "tour reset"; send r Enter
expect r "back to its own design" ":tour reset"
expect r "[ ] pattern.8.plan == outside" "step 1 is its own design again"
send r Escape
expect r "left the tour at step 1" "Esc leaves the tour"
send r ':'; type_text r "tour"; send r Enter
expect r "Tour 1/9" ":tour shows it again where it was left"
quit r
[ -e design.keyplan ] && fail "the tour created ./design.keyplan" || ok "./design.keyplan still untouched"

# ---- 5. a workspace with a design of its own is never taken -----------------------------------
"$KP" commit shop.keyplan "$SRC/samples/cloudshop/design.yaml" -m "my design" >/dev/null ||
    fail "commit shop.keyplan"
start x tour shop.keyplan
if [ "$(ended x)" = 2 ] && grep -qF "holds a design of its own" "$WORK/x.err"; then
    ok "keyplan tour refuses a workspace with a design of its own"
else
    fail "keyplan tour took shop.keyplan"; cat "$WORK/x.err"
fi
T kill-session -t x 2>/dev/null
"$KP" log shop.keyplan | grep -qF "my design" && ok "shop.keyplan untouched" || fail "shop.keyplan changed"

echo "$FAILS failure(s)"
[ "$FAILS" = 0 ]
