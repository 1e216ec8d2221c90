# tmux_harness.sh - sourced by the tmux end-to-end scripts (e2e_tui.sh, e2e_tour.sh) after they
# set KP and SRC: a fresh folder to work in, a tmux server of the script's own (socket kp-NAME-PID,
# NAME the first argument), a session that keeps that server alive, the terminal settings, and
# fail/ok counting into FAILS. Not a test itself (its name does not start with e2e_).
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
