#!/usr/bin/env bash
# e2e_cli_lang.sh KEYPLAN SOURCE_DIR - the command line in Spanish (--lang es): its errors, help and
# dates in Spanish, English unchanged, and every machine output (check --json, the exports) the
# same bytes in both languages.
# The Spanish catalog is the build's (locale/ beside the binary).
set -u
KP=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# the clock fixed: a NoSQL Workbench export is dated to the minute, and two runs may straddle one
export KEYPLAN_LOCALEDIR=$(dirname "$KP")/locale TZ=UTC SOURCE_DATE_EPOCH=1764547200
D=$SRC/samples/cloudshop/design.yaml

# machine outputs: the same bytes whatever the language (messages and figures)
"$KP" check "$D" --json >"$T/en.json" || fail "check --json"
"$KP" --lang es check "$D" --json >"$T/es.json" || fail "--lang es check --json"
cmp -s "$T/en.json" "$T/es.json" || fail "check --json differs in Spanish: $(diff "$T/en.json" "$T/es.json" | head -5)"
for f in json cfn csv nosqlwb requests items; do
  "$KP" export "$D" --format $f >"$T/en.$f" || fail "export --format $f"
  "$KP" --lang es export "$D" --format $f >"$T/es.$f" || fail "--lang es export --format $f"
  cmp -s "$T/en.$f" "$T/es.$f" || fail "export --format $f differs in Spanish: $(diff "$T/en.$f" "$T/es.$f" | head -5)"
  LANG=es_ES.UTF-8 LC_ALL= LANGUAGE=es "$KP" export "$D" --format $f >"$T/env.$f" || fail "LANGUAGE=es export $f"
  cmp -s "$T/en.$f" "$T/env.$f" || fail "export --format $f differs with LANGUAGE=es"
done
# ... and the same run with -o writes the same file
"$KP" --lang es export "$D" --format cfn -o "$T/es-o.cfn" || fail "--lang es export -o"
cmp -s "$T/en.cfn" "$T/es-o.cfn" || fail "export -o differs in Spanish"

# the human side is in Spanish (so the comparisons above ran with the Spanish catalog)
"$KP" --lang es --help >"$T/help.es" || fail "--lang es --help"
grep -q '^uso: keyplan \[--lang en|es\] \[WORKSPACE\] \[--author NAME\]  abre el banco de trabajo$' "$T/help.es" ||
  fail "Spanish help: $(head -2 "$T/help.es")"
# the command lines stay as they are, indented under "keyplan" by the width of "uso:"
grep -q '^     keyplan log WORKSPACE                        lista las versiones$' "$T/help.es" ||
  fail "Spanish help's columns: $(grep 'keyplan log' "$T/help.es")"
"$KP" --help >"$T/help.en" || fail "--help"
grep -q '^usage: keyplan \[--lang en|es\] \[WORKSPACE\] \[--author NAME\]  open the workbench$' "$T/help.en" ||
  fail "English help: $(head -1 "$T/help.en")"
grep -q '^       keyplan log WORKSPACE                        list the versions$' "$T/help.en" || fail "English help's columns"
grep -q '^--lang en|es: ' "$T/help.en" || fail "the help does not explain --lang"

# command-line errors: Spanish with --lang es, English unchanged without it
"$KP" commit "$T/w.keyplan" "$D" -m "first" --author ana >/dev/null || fail "commit"
"$KP" --lang es show "$T/w.keyplan" abc 2>"$T/err.es" && fail "a bad revision was accepted"
grep -qx "keyplan: 'abc' no es una versión; se esperaba un número como los que imprime 'keyplan log' (1, 2, ...)" \
  "$T/err.es" || fail "Spanish bad revision: $(cat "$T/err.es")"
"$KP" show "$T/w.keyplan" abc 2>"$T/err.en" && fail "a bad revision was accepted (English)"
grep -qx "keyplan: 'abc' is not a version; expected a number as 'keyplan log' prints it (1, 2, ...)" "$T/err.en" ||
  fail "English bad revision: $(cat "$T/err.en")"
"$KP" --lang es check 2>"$T/err.es"
[ $? = 2 ] || fail "check without a file: exit status"
grep -qx "keyplan check: falta el fichero de diseño" "$T/err.es" || fail "Spanish check error: $(cat "$T/err.es")"
LANGUAGE=es LANG=es_ES.UTF-8 LC_ALL= "$KP" export "$D" 2>"$T/err.env"
grep -qx "keyplan: uso: keyplan export SRC --format md|json|cfn|nosqlwb|csv|requests|items \[-o OUT\]" "$T/err.env" ||
  fail "LANGUAGE=es does not choose Spanish: $(cat "$T/err.env")"
"$KP" --lang fr log "$T/w.keyplan" 2>"$T/err.fr" && fail "--lang fr was accepted"
grep -qx "keyplan: --lang fr: languages: en, es" "$T/err.fr" || fail "--lang fr: $(cat "$T/err.fr")"

# dates people read: the stored ISO text in English, the language's format in Spanish
"$KP" log "$T/w.keyplan" >"$T/log.en" || fail "log"
grep -Eq '^1  [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z  ana  first$' "$T/log.en" ||
  fail "English log: $(cat "$T/log.en")"
"$KP" --lang es log "$T/w.keyplan" >"$T/log.es" || fail "--lang es log"
iso=$(awk '{print $2}' "$T/log.en")
want=$(date -u -d "$iso" '+%d/%m/%Y %H:%M')
grep -qx "1  $want  ana  first" "$T/log.es" || fail "Spanish log: $(cat "$T/log.es") (expected $want)"
"$KP" --lang es show "$T/w.keyplan" 1 | head -1 >"$T/show.es"
grep -qx "# versión 1 de $T/w.keyplan, confirmada por ana el $want" "$T/show.es" || fail "Spanish show: $(cat "$T/show.es")"
"$KP" show "$T/w.keyplan" 1 | head -1 | grep -qx "# version 1 of $T/w.keyplan, committed by ana at $iso" ||
  fail "English show header"
echo ok
