#!/usr/bin/env bash
# e2e_tui.sh KEYPLAN SOURCE_DIR - the workbench end to end in tmux, on the real binary:
#  1. a new workspace: type a pattern and the templates that serve it, watch the plan change
#     from scan to get, commit, quit, reopen and find it (and undo across the restart);
#  2. the workshop: two keyplan processes on one workspace see each other's commits; a stale
#     commit is refused with an offer to merge, and the merge's conflict is resolved (theirs);
#  3. a newcomer at 120x40 designs a three-entity model and exports its decision record;
#  4. the help lists every action of the action table and every : command of the command table;
#  5. a resize storm down to 12x4 and back;
#  6. the CloudShop tour, stepped through.
# All of it twice: in English, then in Spanish (keyplan --lang es), every text it expects looked
# up in the build's catalog (msg, t, tn: tests/tmux_harness.sh), so both passes check the same.
set -u
KP=$(realpath "$1")
SRC=$(realpath "$2")
# shellcheck source=tests/tmux_harness.sh
. "$SRC/tests/tmux_harness.sh" e2e

# start NAME COLS LINES ARGS... : a keyplan in its own tmux session, in the pass's language
start() {
    local name=$1 cols=$2 lines=$3
    shift 3
    rm -f "$WORK/$name.exit" "$WORK/$name.err"
    T new-session -d -s "$name" -x "$cols" -y "$lines" -c "$PWD" \
        "$KP --lang $LNG $* 2>$WORK/$name.err; echo \$? > $WORK/$name.exit; sleep 600"
}
# upto TEXT SEP: TEXT up to (not including) the first SEP
upto() { printf '%s' "${1%%"$2"*}"; }
# cell SESSION TEXT: Enter, clear, type, Enter
cell() { send "$1" Enter; send "$1" C-u; type_text "$1" "$2"; send "$1" Enter; }

pass() { # pass LNG: every part, in that language, in a folder of its own
LNG=$1
echo "---- in $LNG"
mkdir -p "$WORK/$LNG" && cd "$WORK/$LNG" || exit 2
# ---- 0. bad input: a clear message, exit status 2, nothing touched ----------------------------
bad() { # bad NAME PATH WHAT
    start "$1" 80 24 "$2"
    local i
    for ((i = 0; i < 200; i++)); do [ -f "$WORK/$1.exit" ] && break; sleep 0.1; done
    if [ "$(cat "$WORK/$1.exit" 2>/dev/null)" = 2 ] && grep -qF "$(basename "$2")" "$WORK/$1.err"; then
        ok "$3: exit 2 naming the file"
    else
        fail "$3: exit '$(cat "$WORK/$1.exit" 2>/dev/null)', stderr: $(cat "$WORK/$1.err")"
    fi
    T kill-session -t "$1" 2>/dev/null
}
bad x1 "$WORK/no/such/dir/x.keyplan" "a workspace in a missing folder"
printf 'not a workspace\n' > notes.keyplan
sum=$(cksum < notes.keyplan)
bad x2 "$PWD/notes.keyplan" "a file that is not a workspace"
[ "$(cksum < notes.keyplan)" = "$sum" ] && ok "the foreign file is untouched" || fail "the foreign file changed"
out=$("$KP" --lang "$LNG" shop2.keyplan </dev/null 2>&1); st=$?
want=$(t $'keyplan: the workbench needs a terminal (stdin and stdout); for scripts use keyplan check, export or commit\n')
[ $st = 2 ] && grep -qF "$want" <<<"$out" && ok "no terminal: exit 2 with a message" || fail "no terminal: $st $out"

printf 'keyplan: 1\nname: x\ntable: {name: T, pk: PK}\npatterns: [{id: 1, name: p, entity: Nope}]\n' > broken.yaml
bad x3 "$PWD/broken.yaml" "a design file with an unknown entity"
if [ "$LNG" = en ]; then
    grep -q "broken.yaml:4:.*unknown entity 'Nope'" "$WORK/x3.err" && ok "the error names the line" || fail "no line in: $(cat "$WORK/x3.err")"
else # the validation's own words are another part's: the place and the name
    grep -q "broken.yaml:4:.*'Nope'" "$WORK/x3.err" && ok "the error names the line" || fail "no line in: $(cat "$WORK/x3.err")"
fi
[ ! -e broken.keyplan ] && ok "nothing created for a broken design" || fail "broken.keyplan was created"

# a design file opens in the workspace beside it
cp "$SRC/samples/cloudshop/design.yaml" cloudshop.yaml
start y 100 30 cloudshop.yaml
expect y "$(upto "$(t "%s opened in workspace %s (u undoes the import; c commits)" cloudshop.yaml cloudshop.keyplan)" " (")" "a design file opens in NAME.keyplan"
expect y "Get order by id" "with its patterns"
quit y
[ -f cloudshop.keyplan ] && ok "cloudshop.keyplan created" || fail "cloudshop.keyplan missing"

# ---- 1. new workspace: scan -> get, commit, quit, reopen ------------------------------------
start a 100 30 shop.keyplan
expect a "$(upto "$(t "new workspace %s: press a to add a pattern, ? for help" shop.keyplan)" :)" "a new workspace opens empty"
send a 2; send a a                       # Keys: add an entity
send a 0; cell a "Pedido"
send a l; cell a "CLIENTE#{customerId}"  # PK: the customer's partition
send a l; cell a "PEDIDO#{orderId}"
send a 1; send a a                       # Patterns: add a pattern
send a 0; send a l; send a l; cell a "Pedido por id"
send a l; send a l; cell a "Pedido"      # entity
send a l; cell a "orderId"               # by
send a l; cell a "400"                   # rate
expect a "! $(msgc plan scan)" "the pattern first resolves to a scan"
send a 2; send a 0; send a l; cell a "PEDIDO#{orderId}"   # PK now holds orderId
send a l; cell a "CABECERA"                              # constant sort key
send a 1
expect a "= $(msgc plan get)" "typing the templates that serve it turns the plan into a get"
expect a "GetItem $(msgc index table)" "the pane shows the GetItem"
send a c; type_text a "pedido por id"; send a Enter
expect a "$(t "committed version %d: %s" 1 "pedido por id")" "commit with a message"
expect a "$(t " v%d saved" 1)" "status shows the version"
send a 2; send a 0; send a l; send a l; cell a "CABECERA#{línea}"   # an uncommitted edit
send a 1
quit a
start a 100 30 shop.keyplan
expect a "Pedido por id" "reopened: the pattern is there"
expect a "$(t " v%d modified" 1)" "reopened: the uncommitted edit is kept"
send a u
expect a "$(t " v%d saved" 1)" "undo works across the restart"
quit a

# ---- 2. the workshop: two processes, one workspace --------------------------------------------
start a 100 30 shop.keyplan
start b 100 30 shop.keyplan --author bea
expect a "$(t " v%d saved" 1)" "A opens version 1"
expect b "$(t " v%d saved" 1)" "B opens version 1"
send a 1; send a 0; send a l; send a l; cell a "Pedido por número"
send a ':'; type_text a "commit rename"; send a Enter
expect a "$(t "committed version %d: %s" 2 rename)" "A commits version 2"
expect b "Pedido por número" "B refreshes to A's commit"
send b 1; send b 0; send b l; send b l; cell b "Pedido de B"
send a 1; send a 0; send a l; send a l; cell a "Pedido de A"
send a c; type_text a "from A"; send a Enter
expect a "$(t "committed version %d: %s" 3 "from A")" "A commits version 3"
send b c; type_text b "from B"; send b Enter
refused=$(t "commit refused, R merges the latest version into yours: %s" "")
expect b "$(upto "$refused" ,)" "B's stale commit is refused"
offer=${refused#*, }
expect b "$(upto "$offer" :)" "with an offer to merge"
send b R
expect b "$(upto "$(tn "merging version %d: %zu conflict; t theirs, m mine, e edit, Enter applies, Esc drops the merge" \
    "merging version %d: %zu conflicts; t theirs, m mine, e edit, Enter applies, Esc drops the merge" 1 3 1)" ";")" \
    "B's merge finds both renamed pattern 1"
send b t
send b Enter
expect b "$(upto "$(t "merged version %d into your working copy; c commits it (u undoes the merge)" 3)" ";")" \
    "B takes theirs and the merge is applied"
quit a
quit b

# ---- 3. a newcomer at 120x40: three entities, a decision, the decision record ------------------
start n 120 40 tienda.keyplan
expect n "$(upto "$(msg "new workspace %s: press a to add a pattern, ? for help")" " %s")" "newcomer: empty workspace"
ents=("Cliente" "CLIENTE#{customerId}" "PERFIL"
      "Pedido" "CLIENTE#{customerId}" "PEDIDO#{orderDate}#{orderId}"
      "Línea" "PEDIDO#{orderId}" "LÍNEA#{lineNo}")
send n 2
for i in 0 3 6; do
    send n a; send n 0; cell n "${ents[$i]}"
    send n l; cell n "${ents[$((i + 1))]}"
    send n l; cell n "${ents[$((i + 2))]}"
done
pats=("Perfil del cliente" "Cliente" "customerId"
      "Pedidos de un cliente" "Pedido" "customerId"
      "Líneas de un pedido" "Línea" "orderId")
send n 1
for i in 0 3 6; do
    send n a; send n 0; send n l; send n l; cell n "${pats[$i]}"
    send n l; send n l; cell n "${pats[$((i + 1))]}"
    send n l; cell n "${pats[$((i + 2))]}"
    send n l; cell n "100"
done
expect n "Líneas de un pedido" "three patterns typed"
screen n | grep -qF "$(tn " | %zu pattern" " | %zu patterns" 3 3)" && ok "status counts three patterns" || fail "status counts three patterns"
send n D
expect n "$(msg Decisions)" "D records a decision"
type_text n " (one table)"; send n Enter
send n ':'; type_text n "export md record.md"; send n Enter
expect n "$(upto "$(t "decision record written to %s (%s, %zu bytes): the uncommitted working copy" record.md md 0)" " (")" \
    "export the decision record"
[ -s record.md ] && grep -q "Pedido" record.md && ok "record.md holds the design" || fail "record.md missing or empty"
quit n

# ---- 4. help lists every action and every : command --------------------------------------------
start h 120 60 shop.keyplan
send h '?'
expect h "$(upto "$(msg " Help: every action and its keys (from the action table). Any other key closes; j/k scroll.")" " (")" "help opens"
helptext=$(screen h)
for _ in 1 2 3 4; do # page by page to the end (Spanish wraps onto more lines)
    send h Space
    helptext="$helptext
$(screen h)"
done
missing=0
for name in $(sed -n 's/^ *X(\([A-Z_]*\), "\([a-z-]*\)".*/\2/p' "$SRC/ui/actions.h"); do
    [ "$name" = none ] && continue
    if ! grep -qE "^[^ ].* $name " <<<"$helptext"; then fail "help does not list '$name'"; missing=1; fi
done
[ $missing = 0 ] && ok "help lists every action of ui/actions.h"
missing=0
for name in $(sed -n 's/^ *{\.name = "\([a-z]*\)".*/\1/p' "$SRC/ui/wb_cmd.c"); do
    if ! grep -qE "^:$name( |,|$)" <<<"$helptext"; then fail "help does not list ':$name'"; missing=1; fi
done
[ $missing = 0 ] && ok "help lists every : command of the command table (ui/wb_cmd.c)"
send h Escape
quit h

# ---- 5. resize storm ----------------------------------------------------------------------------
start r 100 30 shop.keyplan
expect r "Pedido" "resize: start"
for size in "80 24" "12 4" "30 8" "200 60" "50 14" "49 13" "12 4" "120 40" "100 30"; do
    set -- $size
    T resize-window -t r -x "$1" -y "$2"; sleep 0.15
    if [ "$1" -lt 50 ] || [ "$2" -lt 14 ]; then
        small=$(msg "Too small")
        wait_for r "${small##* }" 10 || fail "no 'too small' screen at $1x$2"
    fi
done
expect r "Pedido" "after the storm the workbench is back"
expect r "$(upto "$(msg "Live model  %s/month")" "  %s")" "and the model pane too"
quit r

# ---- 6. the tour --------------------------------------------------------------------------------
start t 120 40 tour tour.keyplan
tour=$(msg " Tour %1\$zu/%2\$zu: %3\$s   ] next  [ previous  Esc leaves")
tour=$(upto "${tour# }" "%1")
expect t "${tour}1/" "the tour opens on step 1"
for i in 2 3 4 5 6 7 8 9; do
    send t ']'
    expect t "$tour$i/" "tour step $i"
done
send t ']'
expect t "$(msg "that was the last step")" "the last step says so"
send t '['
expect t "${tour}8/" "back one step"
quit t
cd "$WORK" || exit 2
}

pass en
pass es
echo "$FAILS failure(s)"
[ "$FAILS" = 0 ]
