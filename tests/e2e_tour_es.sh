#!/usr/bin/env bash
# e2e_tour_es.sh KEYPLAN SOURCE_DIR - the CloudShop tour in Spanish, on the real binary:
# `LANG=es_ES.UTF-8 keyplan tour --print` (LC_ALL and LANGUAGE unset) and `keyplan --lang es tour
# --print` print the Spanish tour, the same text, with the engine's words in Spanish and no English
# line of the engine's left; an error of `keyplan tour` comes in Spanish; in English the tour stays
# English. Then a student opens `keyplan --lang es tour` in tmux at 80x24 and 140x45 in a fresh
# folder: the narration panel speaks Spanish and wraps inside the terminal, and ] goes to step 2.
# The catalog used is the one the build compiles from po/es.po (locale/ beside the binary).
set -u
KP=$(realpath "$1")
SRC=$(realpath "$2")
# shellcheck source=tests/tmux_harness.sh
. "$SRC/tests/tmux_harness.sh" tour-es

export KEYPLAN_LOCALEDIR=$(dirname "$KP")/locale

es_env() { env -u LC_ALL -u LANGUAGE LANG=es_ES.UTF-8 "$@"; }

# ---- 1. the handout in Spanish, by the locale and by --lang ----------------------------------
es_env "$KP" tour --print >"$WORK/lang.txt" 2>"$WORK/lang.err"
rc=$?
[ "$rc" = 0 ] && ok "LANG=es_ES.UTF-8 keyplan tour --print exits 0" || { fail "exit $rc"; cat "$WORK/lang.err"; }
"$KP" --lang es tour --print >"$WORK/opt.txt" 2>&1
cmp -s "$WORK/lang.txt" "$WORK/opt.txt" && ok "--lang es prints the same tour as LANG=es_ES.UTF-8" ||
    fail "--lang es and LANG=es_ES.UTF-8 differ"
for want in "CloudShop: diseñar DynamoDB desde los patrones de acceso (recorrido de keyplan)" \
    "Paso 1. Nueve patrones de acceso, antes de nada" "Paso 9. El registro de decisiones" \
    "Cifras (calculadas por keyplan desde el diseño de este paso):" "Pruébalo: " \
    "GSI1 guarda 90.000 elementos" "total 1.054 EUR" "claves de partición distintas" \
    "4,01 ms frente a 20 ms" "la más caliente se lleva el 0,8 % de la escritura y el 2,1 % de la lectura" \
    "1 pet. en tabla" "bajo demanda" "3 alternativas, 2 señales"; do
    grep -qF -- "$want" "$WORK/lang.txt" && ok "Spanish tour: '$want'" || fail "no '$want' in the Spanish tour"
done
# none of the engine's English: no line of the tour starts or carries its English words
for english in "Step 1." "Figures (computed" "Try it:" "holds 90" "distinct partition keys" " req on " \
    "hottest partition" "the whole table" "refused:" "alternatives," "course:" "findings:" "alert:" \
    "index writes" "on-demand)" "provisioned)"; do
    grep -qF -- "$english" "$WORK/lang.txt" && fail "English '$english' in the Spanish tour" ||
        ok "no '$english' in the Spanish tour"
done
# the underline of a step heading is as wide as the heading in display cells (accents count one)
head=$(grep -m1 -A1 "^Paso 4\. " "$WORK/lang.txt")
[ "$(sed -n 1p <<<"$head" | wc -m)" = "$(sed -n 2p <<<"$head" | wc -m)" ] &&
    ok "step 4's underline is as wide as its heading" || fail "step 4's underline: $head"

# ---- 2. one step, and an error, in Spanish ----------------------------------------------------
"$KP" --lang es tour --print --step 5 >"$WORK/step5.txt" 2>&1
grep -qF "Paso 5. GSI-1, disperso, para el panel del almacén" "$WORK/step5.txt" &&
    grep -qF "señal index.GSI1.items > 100000: ahora 90.000" "$WORK/step5.txt" && ok "--step 5 in Spanish" ||
    { fail "--step 5"; cat "$WORK/step5.txt"; }
"$KP" --lang es tour --print --step 12 >/dev/null 2>"$WORK/err.txt"
rc=$?
[ "$rc" = 2 ] && grep -qF "keyplan tour: el paso 12 no existe; el recorrido tiene los pasos 1 a 9" "$WORK/err.txt" &&
    ok "a step out of range is refused in Spanish" || { fail "step 12: exit $rc"; cat "$WORK/err.txt"; }

# ---- 3. English stays English -----------------------------------------------------------------
"$KP" tour --print >"$WORK/en.txt" 2>&1
grep -qF "Step 1. Nine access patterns, before anything else" "$WORK/en.txt" &&
    grep -qF "Figures (computed by keyplan from this step's design):" "$WORK/en.txt" &&
    ! grep -qF "Paso 1." "$WORK/en.txt" && ok "keyplan tour --print stays English" || fail "the English tour changed"

# ---- 4. the workbench's tour in Spanish, 80x24 and 140x45 ----------------------------------------
for size in 80x24 140x45; do
    s="s$size"
    mkdir -p "$WORK/$size"
    # the tmux server was started before KEYPLAN_LOCALEDIR was set: the session is given it itself
    T new-session -d -s "$s" -c "$WORK/$size" -x "${size%x*}" -y "${size#*x}" \
        "KEYPLAN_LOCALEDIR=$KEYPLAN_LOCALEDIR $KP --lang es tour 2>$WORK/$s.err; echo \$? > $WORK/$s.exit; sleep 600"
    expect "$s" "Paso 1/9: Nueve patrones de acceso" "$size: the narration panel's title in Spanish"
    # every row fits the terminal: the widest line of the pane, in display cells (wc -L)
    wide=$(screen "$s" | wc -L)
    [ "$wide" -le "${size%x*}" ] && ok "$size: every row fits ($wide columns)" ||
        fail "$size: a row of $wide columns"
    # } scrolls the panel down to the exercise (at 80x24 the figures come first)
    for ((i = 0; i < 12; i++)); do screen "$s" | grep -qF "[ ] pattern.8.plan == outside" && break; send "$s" "}"; done
    expect "$s" "[ ] pattern.8.plan == outside" "$size: the exercise's check, not done yet"
    expect "$s" "plan pasa de ! escaneo a > fuera." "$size: the exercise in Spanish"
    send "$s" "]"
    expect "$s" "Paso 2/9: Los patrones 8 y 9 salen de DynamoDB" "$size: ] goes to step 2"
    [ -e "$WORK/$size/tour.keyplan" ] && ok "$size: the tour has its own workspace" || fail "$size: no tour.keyplan"
    quit "$s"
done

[ "$FAILS" = 0 ] && echo "e2e_tour_es: all passed" || echo "e2e_tour_es: $FAILS failed"
[ "$FAILS" = 0 ]
