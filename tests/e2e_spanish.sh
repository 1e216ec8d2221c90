#!/usr/bin/env bash
# e2e_spanish.sh KEYPLAN SOURCE_DIR - keyplan speaks Spanish end to end:
#  - the catalog is complete: every message marked in the sources has a Spanish entry, none fuzzy
#    or stale (scripts/po.sh check: xgettext, msgmerge, msgfmt --check --statistics);
#  - `LANG=es_ES.UTF-8 keyplan tour --print`, `keyplan --lang es check` and `keyplan --lang es
#    export --format md` on the Spanish CloudShop sample say no English sentence
#    (tests/english_left.py holds them against the catalog);
#  - Spanish figures in human output (1.244,50), C figures in machine output (check --json equal
#    to the English run's).
set -u
bin=${1:?usage: e2e_spanish.sh KEYPLAN SOURCE_DIR}
src=${2:?usage: e2e_spanish.sh KEYPLAN SOURCE_DIR}
[ -x "$bin" ] || { echo "FAIL $bin is not built"; exit 1; }
for tool in xgettext msgmerge msgfmt msgattrib python3; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed (scripts/deps.sh installs gettext)"; exit 77; }
done
locale -a 2>/dev/null | grep -qi '^es_ES\.utf-\?8$' ||
    { echo "SKIP: no es_ES.UTF-8 locale (scripts/deps.sh generates it)"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/keyplan-e2e-spanish-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KEYPLAN_LOCALEDIR="$(dirname "$bin")/locale" TZ=UTC
unset LC_ALL LANGUAGE LC_MESSAGES
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
sample="$src/samples/cloudshop/es/design.yaml"

bash "$src/scripts/po.sh" check >"$tmp/po.txt" 2>&1 || { cat "$tmp/po.txt"; fail "the Spanish catalog is not complete"; }
cat "$tmp/po.txt"

(cd "$tmp" && LANG=es_ES.UTF-8 "$bin" tour --print >"$tmp/tour.txt" 2>&1) || fail "tour --print in Spanish"
LANG=C.UTF-8 "$bin" --lang es check "$sample" >"$tmp/check.txt" 2>&1
[ $? -le 1 ] || fail "check in Spanish"
LANG=C.UTF-8 "$bin" --lang es export "$sample" --format md -o "$tmp/record.md" >"$tmp/export.txt" 2>&1 ||
    fail "export --format md in Spanish: $(cat "$tmp/export.txt")"
for out in tour.txt check.txt record.md; do
    [ -s "$tmp/$out" ] || fail "$out is empty"
    python3 "$src/tests/english_left.py" "$src/po/es.po" "$tmp/$out" || fail "$out still has English"
done

# human figures in Spanish, machine figures as in C
grep -Eq '[0-9],[0-9]{2}' "$tmp/check.txt" || fail "check in Spanish shows no decimal comma"
grep -Eq '[0-9],[0-9]{2} EUR' "$tmp/record.md" || fail "the record in Spanish shows no money as 598,70 EUR"
grep -Eq '[0-9]\.[0-9]{3}' "$tmp/record.md" || fail "the record in Spanish shows no thousands as 1.000"
LANG=C.UTF-8 "$bin" check "$sample" --json >"$tmp/en.json" 2>/dev/null
LANG=es_ES.UTF-8 "$bin" check "$sample" --json >"$tmp/es.json" 2>/dev/null
python3 - "$tmp/en.json" "$tmp/es.json" <<'PY' || fail "check --json changes its figures with the language"
import json, sys
def figures(v, path=""):
    if isinstance(v, dict):
        for k, x in v.items():
            yield from figures(x, path + "/" + k)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from figures(x, path + "/" + str(i))
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        yield path, v
en = dict(figures(json.load(open(sys.argv[1]))))
es = dict(figures(json.load(open(sys.argv[2]))))
if en != es:
    for k in sorted(set(en) | set(es)):
        if en.get(k) != es.get(k):
            print("  ", k, en.get(k), es.get(k))
    sys.exit(1)
PY

[ "$fails" = 0 ] && echo "PASS e2e_spanish" || { echo "$fails failure(s)"; exit 1; }
