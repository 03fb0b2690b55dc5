#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0020-options.sh - the option parser as every command sees it (the parser
# itself: tests/unit/u-parse-options.c). For each command `vmscope --help`
# lists: --help and -h print the usage on stdout with exit 0; an unknown
# option is a usage error (exit 2) naming the option and the command, with
# the usage on stderr and nothing on stdout. Then, on a real database:
# `--opt=value` means `--opt value`, and a window of inf, nan, 1e300 or a
# negative time is refused by report, compare and plot alike.

. "$(dirname "$0")/test-lib.sh"

commands=$(vmscope --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }')

test_expect_success 'vmscope --help lists the commands' '
	test -n "$commands" &&
	echo "$commands" | grep -qx report
'

for cmd in $commands; do
	test_expect_success "$cmd: --help and -h print the usage on stdout, exit 0" '
		vmscope "$cmd" --help > help.out 2> help.err &&
		! grep -q "error" help.err &&
		case "$(head -n 1 help.out)" in "usage: vmscope $cmd"*) ;; *) exit 1 ;; esac &&
		grep -q "^  -h, --help  *this help$" help.out &&
		vmscope "$cmd" -h > h.out &&
		test_cmp help.out h.out
	'

	test_expect_success "$cmd: an unknown option is a usage error naming it and the command" '
		rc=0
		vmscope "$cmd" --no-such-option > out 2> err || rc=$?
		assert_eq "$rc" 2 "exit status" &&
		test ! -s out &&
		grep -qx "vmscope $cmd: error: unknown option .--no-such-option." err &&
		grep -q "^usage: vmscope $cmd" err
	'
done

test_expect_success SQLITE3 'a tiny database' '
	printf "  cat-1 [000] .... 1.000000: mm_vmscan_kswapd_sleep: nid=0\n  cat-1 [000] .... 3.000000: mm_vmscan_kswapd_sleep: nid=0\n" > tiny.txt &&
	vmscope import -q -o tiny.db tiny.txt
'

test_expect_success SQLITE3 '--opt=value is --opt value' '
	vmscope report tiny.db summary --format csv --from 0.5 --to 1.5 > spaced.csv &&
	vmscope report --format=csv tiny.db --from=0.5 summary --to=1.5 > joined.csv &&
	test_cmp spaced.csv joined.csv &&
	grep -qx "window_from_s,0.500000" joined.csv &&
	grep -qx "window_to_s,1.500000" joined.csv
'

for bad in inf nan 1e300 -1; do
	test_expect_success SQLITE3 "a window at $bad is refused by report, compare and plot" '
		for args in "report tiny.db summary --from $bad" "report tiny.db summary --to=$bad" \
			    "compare tiny.db tiny.db --from $bad" "plot tiny.db scan --to $bad"; do
			rc=0
			vmscope $args > out 2> err || rc=$?
			assert_eq "$rc" 2 "exit status of vmscope $args" || exit 1
			grep -q "error: option .--\(from\|to\). takes seconds" err ||
				{ echo "no message naming the option: $args"; cat err; exit 1; }
		done
	'
done

test_done
