#!/usr/bin/env bash
# e2e_i18n_input.sh KEYPLAN SOURCE_DIR - the messages about bad input in Spanish: a design that
# does not load or validate and a CSV pattern table that does not import keep their
# FILE:LINE:COL: error: (or warning:) prefix and say the rest in Spanish; Spanish CSV headers are
# still read; English (--lang en) stays as it was.
set -u
KP=$1
SRC=$2
D=$SRC/tests/data/i18n-input
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The Spanish catalog: the build's (locale/ beside the binary).
export KEYPLAN_LOCALEDIR=$(dirname "$KP")/locale

cd "$D" || fail "no test data"

# expect NAME STATUS WANTED_FILE -- ARGS...: keyplan ARGS exits with STATUS and prints exactly WANTED
expect() {
  local name=$1 status=$2 want=$3
  shift 4
  "$KP" "$@" >"$T/out" 2>&1
  local st=$?
  [ "$st" = "$status" ] || fail "$name: exit status $st, expected $status: $(cat "$T/out")"
  diff -u "$want" "$T/out" >"$T/diff" || fail "$name: output differs:
$(cat "$T/diff")"
}

# a design that loads but does not validate: the place, then Spanish
cat >"$T/invalid.es" <<'EOF'
invalid.yaml:5:12: error: tabla: valor de billing desconocido 'ondemand' (¿querías decir 'on-demand'?); se esperaba on-demand o provisioned
invalid.yaml:8:12: error: entidad 'Order': 'count' es -3; se esperaba un número >= 0
invalid.yaml:9:5: error: entidad 'Order': clave desconocida 'sze' (¿querías decir 'size'?); se esperaba name, description, count, size, writes, writes_avg, attributes, keys, sparse o together
invalid.yaml:11:18: error: entidad 'Order', clave PK: plantilla rota "ORDER#{orderId": marcador sin cerrar: se esperaba '}'
invalid.yaml:15:13: error: patrón 1: entidad desconocida 'Ordr' (¿querías decir 'Order'?)
EOF
expect "invalid design (es)" 2 "$T/invalid.es" -- --lang es check invalid.yaml
LANGUAGE=es expect "invalid design (LANGUAGE=es)" 2 "$T/invalid.es" -- check invalid.yaml

cat >"$T/invalid.en" <<'EOF'
invalid.yaml:5:12: error: table: unknown billing 'ondemand' (did you mean 'on-demand'?); expected on-demand or provisioned
invalid.yaml:8:12: error: entity 'Order': 'count' is -3; expected a number >= 0
invalid.yaml:9:5: error: entity 'Order': unknown key 'sze' (did you mean 'size'?); expected name, description, count, size, writes, writes_avg, attributes, keys, sparse or together
invalid.yaml:11:18: error: entity 'Order', key PK: broken template "ORDER#{orderId": unclosed placeholder: expected '}'
invalid.yaml:15:13: error: pattern 1: unknown entity 'Ordr' (did you mean 'Order'?)
EOF
expect "invalid design (en)" 2 "$T/invalid.en" -- --lang en check invalid.yaml
expect "invalid design (C locale)" 2 "$T/invalid.en" -- check invalid.yaml

# broken YAML: keyplan's words in Spanish around libyaml's own (which it has in English only)
cat >"$T/syntax.es" <<'EOF'
syntax.yaml:5:1: error: error de sintaxis YAML: did not find expected ',' or ']' while parsing a flow sequence (empezó en la línea 4, columna 7); se esperaba YAML bien formado
EOF
expect "YAML syntax (es)" 2 "$T/syntax.es" -- --lang es check syntax.yaml

# a missing file: the reason, then what was expected
"$KP" --lang es check no-such-design.yaml >"$T/out" 2>&1
grep -q "se esperaba un fichero de diseño legible" "$T/out" || fail "missing file (es): $(cat "$T/out")"

# a CSV pattern table with Spanish headers: read; what is not a figure is a Spanish warning
cat >"$T/csv.es" <<'EOF'
patrones.csv:2:30: warning: rate 'alta' no es una cifra; se deja sin valor (se esperaba un número por segundo, o /min /h /día)
patrones.csv:3:40: warning: rate 'cinco' no es una cifra; se deja sin valor (se esperaba un número por segundo, o /min /h /día)
patrones.csv: warning: una tabla CSV de patrones no contiene claves: el diseño alrededor de sus 2 patrones es un esqueleto (claves ENTIDAD#{atributo}, 100000 elementos de 1000 bytes cada uno); edítalo
EOF
expect "CSV import (es)" 0 "$T/csv.es" -- --lang es import patrones.csv -o "$T/imported.yaml"
grep -q '^  name: pedidos del cliente$' "$T/imported.yaml" || fail "the Spanish headers were not read: $(cat "$T/imported.yaml")"
grep -q '^  by: \[clienteId\]$' "$T/imported.yaml" || fail "'Se pide con' was not read: $(cat "$T/imported.yaml")"
"$KP" check "$T/imported.yaml" >/dev/null || fail "the imported design does not check"

# a CSV that cannot be imported: an error with its place, nothing written
cat >"$T/noname.es" <<'EOF'
sin-nombre.csv:1:1: error: la fila de cabecera no tiene columna 'name'; se esperaba una cabecera que nombre las columnas (id, name, kind, entity, by, rate, latency, ...)
EOF
expect "CSV without names (es)" 2 "$T/noname.es" -- --lang es import sin-nombre.csv -o "$T/none.yaml"
[ ! -e "$T/none.yaml" ] || fail "a failed import wrote a design"
cat >"$T/noname.en" <<'EOF'
sin-nombre.csv:1:1: error: the header row has no 'name' column; expected a header naming the columns (id, name, kind, entity, by, rate, latency, ...)
EOF
expect "CSV without names (en)" 2 "$T/noname.en" -- import sin-nombre.csv -o "$T/none.yaml"

# --into: a pattern's message (its label in Spanish) has its place in the CSV table, a
# decision's in the design
"$KP" --lang es import into.csv --into "$SRC/samples/cloudshop/design.yaml" -o "$T/never.yaml" >"$T/out" 2>&1
[ $? = 2 ] || fail "--into with a broken pattern was not refused: $(cat "$T/out")"
grep -qxF "into.csv:2:13: error: patrón 1: entidad desconocida 'Ordr' (¿querías decir 'Order'?)" "$T/out" ||
  fail "--into (es): the pattern's message is not placed in the CSV table: $(cat "$T/out")"
grep -q "design.yaml:239:16: error: decisión D1: patrón desconocido '2'; se esperaba uno de: 1$" "$T/out" ||
  fail "--into (es): the decision's message is not placed in the design: $(cat "$T/out")"
[ ! -e "$T/never.yaml" ] || fail "--into wrote a design that does not validate"

# no English left in the Spanish diagnostics
cat "$T/invalid.es" "$T/csv.es" "$T/noname.es" | grep -E "expected|unknown|is missing|did you mean" && fail "English left in the Spanish messages"
echo "e2e_i18n_input: ok"
