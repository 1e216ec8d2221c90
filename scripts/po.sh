#!/usr/bin/env bash
# The message catalogs (GNU gettext).
#   scripts/po.sh pot OUT             every marked message of the sources, as a template
#   scripts/po.sh update              po/LANG.po brought up to date with the sources (msgmerge)
#   scripts/po.sh check               fails when a catalog lacks a message, has a fuzzy or a stale one
#   scripts/po.sh part NAME FILE...   po/part-NAME.po: the messages of FILE... (translations kept),
#                                     for translating in parallel; join the parts into po/LANG.po
#                                     (msgcat --use-first po/es.po po/part-*.po) and remove them
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
langs=(es)
keywords=(--keyword=_ --keyword=N_ --keyword=P_:1c,2 --keyword=ngettext:1,2 --keyword=NP_:1c,2,3)

sources() { find app ui model storage -name '*.[ch]' | LC_ALL=C sort; }

pot() {
  local out=$1; shift
  xgettext --language=C --from-code=UTF-8 --add-comments=TRANSLATORS: "${keywords[@]}" \
    --package-name=keyplan --msgid-bugs-address=keyplan --force-po --sort-by-file --add-location=file --no-wrap -o "$out" "$@"
  # a template has no dates: the same sources give the same file
  sed -i '/^"POT-Creation-Date:/d' "$out"
}

case "${1:-}" in
pot)
  pot "${2:?scripts/po.sh pot OUT}" $(sources)
  ;;
update)
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  pot "$tmp/keyplan.pot" $(sources)
  for l in "${langs[@]}"; do
    msgmerge --quiet --no-wrap --no-fuzzy-matching --update --backup=none "po/$l.po" "$tmp/keyplan.pot"
    msgattrib --no-obsolete --no-wrap -o "po/$l.po" "po/$l.po"
  done
  ;;
check)
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  pot "$tmp/keyplan.pot" $(sources)
  status=0
  for l in "${langs[@]}"; do
    msgmerge --quiet --no-wrap --no-fuzzy-matching -o "$tmp/$l.po" "po/$l.po" "$tmp/keyplan.pot"
    stats=$(msgfmt --check --statistics -o /dev/null "$tmp/$l.po" 2>&1)
    echo "$l: $stats"
    case "$stats" in *untranslated*|*fuzzy*) status=1 ;; esac
    stale=$(msgattrib --only-obsolete --no-wrap "$tmp/$l.po" | grep -c '^#~ msgid' || true)
    if [ "$stale" != 0 ]; then echo "$l: $stale stale entries (scripts/po.sh update drops them)"; status=1; fi
    msgattrib --untranslated --no-wrap "$tmp/$l.po" | grep '^msgid ' | sed -n '2,21p' | sed "s/^/$l: missing: /" || true
    msgattrib --only-fuzzy --no-wrap "$tmp/$l.po" | grep '^msgid ' | sed -n '2,21p' | sed "s/^/$l: fuzzy: /" || true
  done
  exit $status
  ;;
part)
  name=$2; shift 2
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  pot "$tmp/part.pot" "$@"
  out="po/part-$name.po"
  if [ -f "$out" ]; then
    msgmerge --quiet --no-wrap --no-fuzzy-matching -o "$out.new" "$out" "$tmp/part.pot"
    msgattrib --no-obsolete --no-wrap -o "$out" "$out.new"; rm -f "$out.new"
  else
    msginit --no-translator --no-wrap --locale=es_ES.UTF-8 -i "$tmp/part.pot" -o "$out" >/dev/null 2>&1
  fi
  msgfmt --check --statistics -o /dev/null "$out"
  ;;
*)
  sed -n '2,7p' "$0"; exit 2
  ;;
esac
