# tmux_harness.sh - sourced by the tmux end-to-end scripts (e2e_tui.sh, e2e_tour.sh, e2e_pair.sh,
# e2e_items.sh) after they set KP and SRC: a fresh folder to work in, a tmux server of the
# script's own (socket kp-NAME-PID, NAME the first argument), a session that keeps that server
# alive, the terminal settings, fail/ok counting into FAILS, and the checks the scripts share
# (wait_for, wait_gone, expect, expect_gone, absent, quit; a script may define its own). Not a test itself (its name does not start
# with e2e_).
command -v tmux >/dev/null || { echo "SKIP: tmux not installed (scripts/deps.sh installs it)"; exit 77; }

WORK=$(mktemp -d)
SOCK="kp-$1-$$"
T() { tmux -L "$SOCK" "$@"; }
cleanup() { T kill-server 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
cd "$WORK" || exit 2
# A session that lives for the whole script: killing the last session makes the tmux server exit,
# and a new-session racing that exit fails with "server exited unexpectedly".
T new-session -d -s keepalive "sleep 100000" || { echo "FAIL: cannot start tmux"; exit 1; }
export TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC KEYPLAN_AUTHOR=e2e

FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }
screen() { T capture-pane -t "$1" -p; }
send() { local s=$1; shift; T send-keys -t "$s" "$@"; sleep 0.15; }
type_text() { T send-keys -t "$1" -l "$2"; sleep 0.15; }
wait_for() { # wait_for SESSION TEXT [SECONDS]: until the screen shows TEXT (default 20 s)
    local s=$1 text=$2 secs=${3:-20} i
    for ((i = 0; i < secs * 10; i++)); do
        screen "$s" | grep -qF -- "$text" && return 0
        sleep 0.1
    done
    return 1
}
wait_gone() { # wait_gone SESSION TEXT [SECONDS]: until the screen no longer shows TEXT
    local s=$1 text=$2 secs=${3:-20} i
    for ((i = 0; i < secs * 10; i++)); do
        screen "$s" | grep -qF -- "$text" || return 0
        sleep 0.1
    done
    return 1
}
expect() { # expect SESSION TEXT WHAT: TEXT on screen within 20 s
    if wait_for "$1" "$2"; then ok "$3"; else
        fail "$3 (no '$2' on screen)"
        screen "$1" | sed 's/^/    | /'
    fi
}
expect_gone() { # expect_gone SESSION TEXT WHAT: TEXT gone from the screen within 10 s
    if wait_gone "$1" "$2" 10; then ok "$3"; else
        fail "$3 ('$2' still on screen)"
        screen "$1" | sed 's/^/    | /'
    fi
}
absent() { # absent SESSION TEXT WHAT: TEXT not on screen now
    if screen "$1" | grep -qF -- "$2"; then
        fail "$3 ('$2' on screen)"
        screen "$1" | sed 's/^/    | /'
    else ok "$3"; fi
}
# quit SESSION: q, then status 0 in $WORK/SESSION.exit and nothing in $WORK/SESSION.err (the
# session runs "$KP ... 2>$WORK/SESSION.err; echo \$? > $WORK/SESSION.exit")
quit() {
    send "$1" q
    local i
    for ((i = 0; i < 200; i++)); do [ -f "$WORK/$1.exit" ] && break; sleep 0.1; done
    if [ "$(cat "$WORK/$1.exit" 2>/dev/null)" = 0 ]; then ok "$1 quit with status 0"; else
        fail "$1 exit status '$(cat "$WORK/$1.exit" 2>/dev/null)'"; cat "$WORK/$1.err"; fi
    if [ -s "$WORK/$1.err" ]; then fail "$1 wrote to stderr"; cat "$WORK/$1.err"; fi
    T kill-session -t "$1" 2>/dev/null
    rm -f "$WORK/$1.exit"
}

# The workbench's messages in the language of the run, looked up in the build's catalog (the one
# the binary reads, beside it in locale/), so that a script checks English and Spanish with the
# same lines and no text is written twice. LNG (en, es; default en) is the language.
#   msg MSGID                 the translation of MSGID ("" context)
#   msgc CONTEXT MSGID        the translation of MSGID in CONTEXT (the code's P_)
#   t MSGID ARGS...           printf of the translated MSGID with ARGS
#   tn MSGID PLURAL N ARGS... printf of the translation for N (ngettext) with ARGS
LNG=${LNG:-en}
kp_gettext() { TEXTDOMAINDIR="$(dirname "$KP")/locale" TEXTDOMAIN=keyplan LANGUAGE="$LNG" LC_ALL=C.UTF-8 "$@"; }
msg() { if [ "$LNG" = en ]; then printf '%s' "$1"; else kp_gettext gettext -- "$1"; fi; }
msgc() { if [ "$LNG" = en ]; then printf '%s' "$2"; else kp_gettext gettext --context="$1" -- "$2"; fi; }
t() { local f; f=$(msg "$1"); shift; printf -- "$f" "$@"; }
tn() {
    local f n=$3
    if [ "$LNG" = en ]; then [ "$n" = 1 ] && f=$1 || f=$2; else f=$(kp_gettext ngettext -- "$1" "$2" "$n"); fi
    shift 3
    printf -- "$f" "$@"
}
