#!/usr/bin/env bash
# Every output keyplan prints, dumped to files, so that a change meant to keep behaviour (a
# refactoring) can prove it is byte-identical.
#
#   scripts/outputs.sh dump KEYPLAN OUTDIR   runs the binary KEYPLAN over every sample, test design,
#                                            NoSQL Workbench fixture and CSV table of the repo:
#                                            check (text and --json), every export format, imports,
#                                            tour --print, heat and the workspace commands
#   scripts/outputs.sh compare [REV]         builds REV (default HEAD) in a temporary worktree and
#                                            the working tree as it is, dumps both and diffs them;
#                                            also fails when tests/golden/ (the headless screens)
#                                            differs from REV. Exit 0 when identical.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC SOURCE_DATE_EPOCH=1700000000 KEYPLAN_AUTHOR=dump
unset NO_COLOR

# run NAME CMD...: stdout to NAME.out, stderr to NAME.err, the exit status to NAME.rc
run() {
  local name=$1; shift
  local rc=0
  "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
  echo "$rc" >"$out/$name.rc"
}

# Timestamps and temporary paths vary between runs: replaced by fixed words.
normalise() {
  find "$out" -type f -print0 | xargs -0 sed -i -E \
    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/TIME/g' \
    -e "s#$tmp#TMP#g" -e "s#$here#SRC#g"
}

dump() {
  local kp=$1
  out=$2
  mkdir -p "$out"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN

  local designs=()
  for f in "$here"/samples/*/*.yaml "$here"/tests/data/verify/*.yaml; do designs+=("$f"); done

  # imports: every fixture and CSV table becomes a design checked like the others
  local i=0
  for f in $(find "$here/tests/data/nosql-workbench" "$here/tests/fuzz/corpus/exchange" \
               -name '*.json' -o -name '*.csv' | sort); do
    i=$((i + 1))
    local base
    base=$(basename "$f"); base=${base%.*}
    local name="import-$(printf '%02d' "$i")-$base"
    run "$name" "$kp" import "$f" -o "$tmp/$name.yaml"
    [ -f "$tmp/$name.yaml" ] && cp "$tmp/$name.yaml" "$out/$name.yaml" && designs+=("$tmp/$name.yaml")
  done
  run import-into "$kp" import "$here/tests/fuzz/corpus/exchange/spanish.csv" \
      --into "$here/samples/cloudshop/design.yaml" -o "$tmp/into.yaml"
  [ -f "$tmp/into.yaml" ] && cp "$tmp/into.yaml" "$out/import-into.yaml"

  for f in "${designs[@]}"; do
    local d
    d=$(echo "${f#"$here"/}" | sed -e "s#^$tmp/##" -e 's#[/.]#_#g')
    run "$d.check" "$kp" check "$f"
    run "$d.check-json" "$kp" check "$f" --json
    run "$d.check-strict" "$kp" check "$f" --strict
    for fmt in md json cfn nosqlwb csv requests items; do
      run "$d.export-$fmt" "$kp" export "$f" --format "$fmt"
    done
  done

  run tour-print "$kp" tour --print
  for s in 1 2 3 4 5 6 7 8 9; do
    run "tour-step-$s" "$kp" tour --print --step "$s"
    run "tour-step-$s-yaml" "$kp" tour --print --step "$s" --yaml
  done

  # heat: a deterministic log in every line format
  awk 'BEGIN { for (i = 0; i < 5000; i++) { k = int((i * 7919) % 97); if (k > 60) k = k % 5;
               printf "CLIENTE#%d\tPEDIDO#%d\t%s\t%s\n", k, i, (i % 3) + 0.5, (i % 4 ? "read" : "write") } }' \
      >"$tmp/heat.tsv"
  awk -F'\t' '{ print $1 }' "$tmp/heat.tsv" >"$tmp/heat-pk.txt"
  run heat "$kp" heat "$tmp/heat.tsv"
  run heat-json "$kp" heat "$tmp/heat.tsv" --json
  run heat-top "$kp" heat "$tmp/heat.tsv" --top 3 --seconds 10
  run heat-pk "$kp" heat "$tmp/heat-pk.txt"
  run heat-stdin "$kp" heat - <"$tmp/heat-pk.txt"

  # the workspace commands (times normalised)
  local ws="$tmp/ws.keyplan"
  run ws-commit-1 "$kp" commit "$ws" "$here/samples/cloudshop/first-design.yaml" -m "first design"
  run ws-commit-2 "$kp" commit "$ws" "$here/samples/cloudshop/design.yaml" -m "the course's design"
  run ws-commit-stale "$kp" commit "$ws" "$here/samples/social/design.yaml" -m stale --parent 1
  run ws-observe "$kp" observe "$ws" pattern.5.rate=80 --source dump
  run ws-log "$kp" log "$ws"
  run ws-show "$kp" show "$ws"
  run ws-show-1 "$kp" show "$ws" 1
  run ws-diff "$kp" diff "$ws" 1 2
  run ws-diff-back "$kp" diff "$ws" 2 1
  run ws-signals "$kp" signals "$ws"
  run ws-export-md "$kp" export "$ws" --format md
  run ws-export-json "$kp" export "$ws" --format json

  # bad input: the messages are output too
  printf 'keyplan: 2\n' >"$tmp/bad-version.yaml"
  printf 'keyplan: 1\nname: x\ntable: { name: T, pk: PK }\nentities:\n  - name: E\n    keys: { PK: "E#{a" }\n' \
      >"$tmp/bad-template.yaml"
  run bad-version "$kp" check "$tmp/bad-version.yaml"
  run bad-template "$kp" check "$tmp/bad-template.yaml"
  run bad-missing "$kp" check "$tmp/missing.yaml"
  run bad-usage "$kp" frobnicate
  run help "$kp" --help
  normalise
}

compare() {
  local rev=${1:-HEAD}
  work=$(mktemp -d)
  trap 'git -C "$here" worktree remove --force "$work/src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
  git -C "$here" worktree add --detach "$work/src" "$rev" >/dev/null
  # the base revision may predate the fixtures' copy in the repo: give it the same inputs
  for p in tests/data samples tests/fuzz/corpus; do
    mkdir -p "$work/src/$p"; cp -r "$here/$p/." "$work/src/$p/"
  done
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  cmake -S "$work/src" -B "$work/build-base" >/dev/null
  cmake --build "$work/build-base" -j "$jobs" --target keyplan >/dev/null
  cmake -S "$here" -B "$work/build-now" >/dev/null
  cmake --build "$work/build-now" -j "$jobs" --target keyplan >/dev/null
  # both dumps read the inputs of the working tree
  dump "$work/build-base/keyplan" "$work/base"
  dump "$work/build-now/keyplan" "$work/now"
  local status=0
  if ! diff -r "$work/base" "$work/now" >"$work/diff.txt"; then
    echo "outputs differ from $rev:"; head -100 "$work/diff.txt"; status=1
  fi
  if ! git -C "$here" diff --quiet "$rev" -- tests/golden; then
    echo "golden screens differ from $rev:"; git -C "$here" diff --stat "$rev" -- tests/golden; status=1
  fi
  [ "$status" = 0 ] && echo "outputs identical to $rev ($(find "$work/now" -type f | wc -l) files)"
  return "$status"
}

case "${1:-}" in
  dump) [ $# = 3 ] || { echo "usage: $0 dump KEYPLAN OUTDIR" >&2; exit 2; }; dump "$(realpath "$2")" "$(realpath -m "$3")" ;;
  compare) shift; compare "$@" ;;
  *) sed -n '2,12p' "$0" >&2; exit 2 ;;
esac
