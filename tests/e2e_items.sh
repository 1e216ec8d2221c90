#!/usr/bin/env bash
# e2e_items.sh KEYPLAN SOURCE_DIR - the Items screen end to end in tmux, on the real binary, on
# CloudShop: the rows grouped by partition, pattern 2 picked with p (its key condition with the
# values bound, the items it returns marked >), i switches the index (and s, > keep it), s makes
# the items again with another seed, > more items a partition, Enter opens an item and Esc closes
# it; at 80x24 and, resized, at 140x45; in colour (the returned rows and the selected pattern's
# line carry colour escapes) and with NO_COLOR=1 (no colour escape at all).
set -u
KP=$(realpath "$1")
SRC=$(realpath "$2")
# shellcheck source=tests/tmux_harness.sh
. "$SRC/tests/tmux_harness.sh" items

start() { # start NAME COLS LINES ENV... : keyplan on cloudshop.keyplan in its own tmux session
    local name=$1 cols=$2 lines=$3
    shift 3
    T new-session -d -s "$name" -x "$cols" -y "$lines" \
        "env $* $KP cloudshop.keyplan 2>$WORK/$name.err; echo \$? > $WORK/$name.exit; sleep 600"
}
ESC=$(printf '\033')
# colours SESSION: the screen's lines holding a foreground or background colour (SGR 30-37,
# 40-47, 90-97, 100-107, 38;5 / 48;5), not the attributes (bold, reverse) nor the defaults 39/49
colours() { T capture-pane -t "$1" -p -e | grep -E "$ESC\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|[34]8;5)(;[0-9;]*)?m"; }

"$KP" commit cloudshop.keyplan "$SRC/samples/cloudshop/design.yaml" -m CloudShop >/dev/null \
    2>"$WORK/commit.err" || { fail "commit CloudShop"; cat "$WORK/commit.err"; }

# walk SESSION COLOUR: the Items screen's keys, the checks that hold at any size; COLOUR yes: the
# returned rows and the pane's selected pattern are coloured, no: nothing on screen is
walk() {
    local s=$1 colour=$2 n
    send "$s" 8
    expect "$s" "table: 60 items in 24 partitions" "$s: 8 opens Items on the table"
    expect "$s" "pattern 1 Get order by id: GetItem table" "$s: the Patterns cursor's pattern"
    send "$s" p
    expect "$s" "pattern 2 Orders of a customer, newest first, paginated: Query table" "$s: p picks pattern 2"
    expect "$s" "PK = CLIENTE#customer-001 AND begins_with(SK, PEDIDO#)" "$s: its key condition, values bound"
    expect "$s" "ScanIndexForward false" "$s: its direction"
    expect "$s" "> returns 4 items" "$s: what it returns"
    expect "$s" "  CLIENTE#customer-001 DIRECCION#casa" "$s: a partition's first row names it"
    expect "$s" "                       DIRECCION#trabajo" "$s: its other rows leave the partition blank"
    expect "$s" ">                      PEDIDO#2025-01-02#order-001" "$s: the orders it returns marked >"
    absent "$s" ">  CLIENTE#customer-001 DIRECCION#casa" "$s: the address is not marked"
    if [ "$colour" = yes ]; then
        n=$(colours "$s" | grep -cF "PEDIDO#2025-")
        [ "$n" -ge 1 ] && ok "$s: the returned rows are coloured ($n)" || fail "$s: no colour on the returned rows"
        colours "$s" | grep -qF "2  ~ query" && ok "$s: the pane's selected pattern is coloured" ||
            fail "$s: no colour on the pane's pattern 2"
    else
        n=$(colours "$s" | wc -l)
        [ "$n" = 0 ] && ok "$s: no colour escape" || { fail "$s: $n coloured lines"; colours "$s" | cat -v; }
    fi
    send "$s" i
    expect "$s" "GSI1: 2 items in 2 partitions, 58 not on it (sparse)" "$s: i switches to GSI1"
    expect "$s" "it reads table, not GSI1: i switches" "$s: which index pattern 2 reads"
    expect "$s" "  ESTADO#paid" "$s: GSI1's partitions"
    send "$s" s
    expect "$s" "Items generated again with seed" "$s: s makes the items again"
    expect "$s" "GSI1: " "$s: on the index chosen with i"
    absent "$s" "seed 208," "$s: with another seed"
    send "$s" '>'
    expect "$s" "Items: 5 a partition" "$s: > says the items a partition"
    expect "$s" "GSI1: " "$s: still on GSI1"
    send "$s" i
    send "$s" i
    expect "$s" ", 5 a partition" "$s: i comes back to the table, 5 items a partition"
    expect "$s" "> returns " "$s: pattern 2's items marked again"
    send "$s" Enter
    expect "$s" "Item PK=CLIENTE#customer-001, SK=" "$s: Enter opens the item under the cursor"
    expect "$s" "partition 1 of " "$s: with its entity and partition"
    send "$s" Escape
    expect "$s" "pattern 2 Orders of a customer" "$s: Esc closes the item"
    absent "$s" "Item PK=CLIENTE#customer-001" "$s: the item view is gone"
}

# ---- 1. colour at 80x24 and NO_COLOR=1 at 80x24 -----------------------------------------------
start c 80 24
expect c "1 Patterns" "keyplan opens CloudShop at 80x24"
walk c yes
quit c
start m 80 24 NO_COLOR=1
expect m "1 Patterns" "keyplan opens CloudShop at 80x24 with NO_COLOR=1"
walk m no
quit m

# ---- 2. the same, resized to 140x45: all four orders and the pane beside the items -------------
for mode in yes no; do
    if [ $mode = yes ]; then start w 80 24; else start w 80 24 NO_COLOR=1; fi
    expect w "1 Patterns" "keyplan opens CloudShop at 80x24 (colour: $mode)"
    T resize-window -t w -x 140 -y 45
    expect w "6  ^ covered" "resized to 140x45: the pane lists pattern 6"
    send w 8
    send w p
    expect w ">                      PEDIDO#2025-01-10#order-004" "at 140x45 all four orders show, marked"
    send w 1
    send w k
    walk w $mode
    send w '<'
    expect w "Items: 4 a partition" "< takes one item a partition off"
    send w P
    expect w "pattern 1 Get order by id" "P: the previous pattern"
    quit w
done

echo "$FAILS failure(s)"
[ "$FAILS" = 0 ]
