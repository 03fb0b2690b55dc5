#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0040-test-lint.sh - the test scripts themselves: every check (assert_*,
# test_must_fail, no_match, test_cmp) is placed where its failure fails the
# test (tests/lint-asserts.py), and the lint does catch the placements where
# set -e lets a failure go (a check in the middle of a ;-line, before more
# commands in an && chain, in a function or loop without || exit, piped).
. "$(dirname "$0")/test-lib.sh"

LINT="$TEST_DIRECTORY/lint-asserts.py"

test_expect_success 'no check in tests/ has its status thrown away' '
	python3 "$LINT" "$TEST_DIRECTORY"/t[0-9]*.sh "$TEST_DIRECTORY"/test-lib.sh > lint.out ||
		{ cat lint.out; exit 1; }
	test ! -s lint.out
'

test_expect_success 'the lint rejects each way of losing a failure' '
	cat > bad.sh <<-\EOF
	helper() {
		assert_eq "$1" 1 "first"
		echo done
	}
	loop_helper() {
		for x in 1 2; do
			assert_eq "$x" 1
		done
	}
	test_expect_success "semicolon" '\''
		rc=0; false || rc=$?; assert_eq "$rc" 2 && echo x
		echo next
	'\''
	test_expect_success "chain then more" '\''
		assert_eq "$(echo "a;b")" x &&
		echo y
		echo z
	'\''
	test_expect_success "piped" '\''
		no_match x y | cat
	'\''
	test_expect_success "or true" '\''
		test_cmp a b || true
		echo a
	'\''
	test_expect_success "condition" '\''
		if test_must_fail false; then echo; fi
	'\''
	EOF
	rc=0
	python3 "$LINT" bad.sh > lint.out || rc=$?
	assert_eq "$rc" 1 "exit status on bad.sh"
	cut -d: -f2 lint.out | sort -n | tr "\n" " " > lines
	assert_eq "$(cat lines)" "2 7 11 15 20 23 27 " "lines reported"
'

test_expect_success 'the lint accepts the placements that do fail a test' '
	cat > good.sh <<-\EOF
	helper() {
		x=1 &&
		assert_eq "$1" 1 "first"
	}
	helper2() {
		for x in 1 2; do
			assert_eq "$x" 1 || return 1
			test_cmp a b || bad=1
		done
		left=$(ls) ; assert_eq "$left" ""
	}
	test_expect_success "lines" '\''
		assert_eq 1 1
		test_must_fail false 2>&1
		assert_eq "$(sql x "SELECT '\''\'\'''\''a;b'\''\'\'''\''")" "a;b"
		for k in a b; do
			assert_eq "$k" a || exit 1
			no_match x y
		done
		cat > f <<-EOF2
		assert_eq 1 2; echo
		EOF2
		{ assert_eq 1 1; } && test_cmp a b
	'\''
	test_expect_success "one chain" '\''
		assert_eq 1 1 &&
		# a comment
		test_cmp a b &&
		for x in 1; do assert_eq 1 1 || exit 1; done &&
		grep -q x y || { echo no; exit 1; }
	'\''
	EOF
	python3 "$LINT" good.sh > lint.out || { cat lint.out; exit 1; }
	test ! -s lint.out
'

test_done
