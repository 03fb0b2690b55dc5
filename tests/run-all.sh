#!/bin/sh
# run-all.sh - run every C unit test and shell test, print each one's TAP,
# and end with the plain summary line "N passed, N failed, N skipped".
# Exit status 1 when any test failed.
cd "$(dirname "$0")/.." || exit 1
pass=0 fail=0 skip=0 scripts_failed=""

count() {
	# count the ok/not ok lines of one TAP stream in $1
	p=$(grep -c '^ok .*' "$1" | tr -d ' ')
	s=$(grep -c '^ok .*# skip' "$1" | tr -d ' ')
	f=$(grep -c '^not ok' "$1" | tr -d ' ')
	pass=$((pass + p - s)); skip=$((skip + s)); fail=$((fail + f))
}

out=$(mktemp)
for t in tests/unit/u-*; do
	case "$t" in *.c|*.o|*.d) continue ;; esac
	[ -x "$t" ] || continue
	echo "== $t"
	if [ -n "${VMSCOPE_VALGRIND:-}" ]; then
		valgrind -q --error-exitcode=99 --leak-check=full "$t" > "$out" 2>&1
	else
		"$t" > "$out" 2>&1
	fi
	rc=$?
	cat "$out"
	count "$out"
	if [ $rc != 0 ] && ! grep -q '^not ok' "$out"; then
		fail=$((fail + 1)); scripts_failed="$scripts_failed $t"
	elif [ $rc != 0 ]; then
		scripts_failed="$scripts_failed $t"
	fi
done
for t in tests/t[0-9][0-9][0-9][0-9]-*.sh; do
	[ -f "$t" ] || continue
	echo "== $t"
	sh "$t" > "$out" 2>&1
	rc=$?
	cat "$out"
	count "$out"
	if [ $rc != 0 ]; then
		grep -q '^not ok' "$out" || fail=$((fail + 1))
		scripts_failed="$scripts_failed $t"
	fi
done
rm -f "$out"
echo
[ -n "$scripts_failed" ] && echo "failed:$scripts_failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
