#!/usr/bin/env bash
# e2e_merge.sh KEYPLAN SOURCE_DIR - keyplan merge-file as a git merge driver, configured as the
# README says: two branches that changed different patterns merge clean; two that changed the
# same field stop with readable markers around it.
set -u
KP=$1
SRC=$2
command -v git >/dev/null || { echo "e2e_merge: git not found" >&2; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export GIT_AUTHOR_NAME=ana GIT_AUTHOR_EMAIL=ana@example.com GIT_COMMITTER_NAME=ana GIT_COMMITTER_EMAIL=ana@example.com
export GIT_CONFIG_NOSYSTEM=1 HOME=$T
cd "$T" || fail "temp dir"
git init -q -b main repo && cd repo || fail "git init"
# the README's lines
git config merge.keyplan.name "keyplan design merge"
git config merge.keyplan.driver "'$KP' merge-file %O %A %B -o %A"
echo "*.yaml merge=keyplan" >.gitattributes
B=$SRC/tests/data/merge/base.yaml
"$KP" merge-file "$B" "$B" "$B" -o design.yaml || fail "canonical design"  # the canonical YAML, one field a line
git add . && git commit -qm base || fail "commit base"

# different patterns on two branches: the merge is clean and has both
git checkout -qb faster
sed -i '0,/^  rate: 10$/s//  rate: 20/' design.yaml && git commit -qam "pattern 1 faster" || fail "commit faster"
git checkout -q main
sed -i 's/^  rate: 5$/  rate: 7/' design.yaml && git commit -qam "pattern 3 busier" || fail "commit busier"
git merge -q --no-edit faster >"$T/out" 2>&1 || fail "clean merge failed: $(cat "$T/out")"
grep -q '^  rate: 20$' design.yaml || fail "pattern 1's change lost: $(cat design.yaml)"
grep -q '^  rate: 7$' design.yaml || fail "pattern 3's change lost"
"$KP" check design.yaml >/dev/null || fail "the merged design does not check"

# two fields of one pattern on adjacent lines (a conflict for git's line merge): clean
git checkout -qb latency
sed -i 's/^  rate: 7$/  rate: 7\n  latency: 50/' design.yaml && git commit -qam "pattern 3 latency" || fail "commit latency"
git checkout -q main
sed -i 's/^  rate: 7$/  rate: 8/' design.yaml && git commit -qam "pattern 3 busier still" || fail "commit busier still"
git merge -q --no-edit latency >"$T/out" 2>&1 || fail "adjacent fields did not merge: $(cat "$T/out")"
grep -A1 '^  rate: 8$' design.yaml | grep -q '^  latency: 50$' || fail "adjacent fields lost: $(cat design.yaml)"

# the same field on two branches: git stops, the driver's markers are around the field
git checkout -qb slower
sed -i 's/^  rate: 20$/  rate: 40/' design.yaml && git commit -qam "pattern 1 slower" || fail "commit slower"
git checkout -q main
sed -i 's/^  rate: 20$/  rate: 30/' design.yaml && git commit -qam "pattern 1 other" || fail "commit other"
git merge -q --no-edit slower >"$T/out" 2>&1 && fail "a conflicting merge succeeded"
grep -q "CONFLICT" "$T/out" || fail "git did not report the conflict: $(cat "$T/out")"
grep -q "pattern 1 rate: changed two ways: base 20; ours 30; theirs 40" "$T/out" || fail "no conflict line: $(cat "$T/out")"
awk '/^<<<<<<< ours$/{a=NR} /^  rate: 30$/{b=NR} /^=======$/{c=NR} /^  rate: 40$/{d=NR} /^>>>>>>> theirs$/{e=NR}
     END { exit !(a && a+1==b && b+1==c && c+1==d && d+1==e) }' design.yaml \
    || fail "markers not around the field: $(cat design.yaml)"
[ "$(grep -c '^<<<<<<<' design.yaml)" = 1 ] || fail "more than one conflict marked"
git diff --name-only --diff-filter=U | grep -qx design.yaml || fail "design.yaml not unmerged"
echo "e2e_merge: ok"
