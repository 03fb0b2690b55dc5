#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0200-upgrade.sh - `vmscope upgrade` (docs/upgrade.md, lib/upgrade.c): a
# schema version 1 database (tests/fixtures/v1-memcg-fileread.db.xz,
# samples/traces/memcg-fileread.dat imported by the last version 1 build) is
# refused by the other commands with a message naming the upgrade, upgraded
# in place reports exactly what a fresh import reports, a failed upgrade
# leaves the file as it was, and a newer database is refused.

. "$(dirname "$0")/test-lib.sh"

FIXTURE=$SRC_DIR/tests/fixtures/v1-memcg-fileread.db.xz

test_expect_success SQLITE3 'the fixture is a version 1 database; this vmscope reads version 2' '
	xz -dc "$FIXTURE" > v1.db &&
	assert_eq "$(sql v1.db "PRAGMA user_version")" 1 &&
	vmscope --version > version &&
	grep -q "(schema 2)" version
'

test_expect_success 'every reader refuses version 1 with exit 1 and names vmscope upgrade' '
	for c in "info v1.db" "report v1.db summary" "compare v1.db v1.db" "replay v1.db" \
		 "plot v1.db kswapd -o x.png"; do
		rc=0; vmscope $c > out 2> err || rc=$?
		assert_eq "$rc" 1 "exit status of vmscope $c" &&
		grep -q "'\''v1.db'\'' has schema version 1, older than this vmscope'\''s (2): run '\''vmscope upgrade v1.db'\''" err &&
		test ! -s out || return 1
	done
'

test_expect_success SQLITE3 'upgrade: in place, version 2, reports equal a fresh import' '
	cp v1.db up.db &&
	vmscope upgrade up.db 2> up.err &&
	grep -q "'\''up.db'\'': upgraded from schema version 1 to 2" up.err &&
	assert_eq "$(sql up.db "PRAGMA user_version")" 2 &&
	assert_eq "$(sql up.db "PRAGMA integrity_check")" ok &&
	assert_eq "$(sql up.db "SELECT COUNT(*) FROM shrinker_name")" 2 "shrinker_name rows" &&
	test -z "$(ls up.db-* 2>/dev/null)" &&
	# the fixture was imported from the source tree with this relative path
	(cd "$SRC_DIR" && vmscope import -q -o "$TRASH/fresh.db" samples/traces/memcg-fileread.dat) &&
	for args in "" "--from 1.5 --to 2.5" "episodes --format csv" "--format json"; do
		vmscope report up.db $args | sed "s/up\.db/DB/" > up.out &&
		vmscope report fresh.db $args | sed "s/fresh\.db/DB/" > fresh.out &&
		test_cmp fresh.out up.out || return 1
	done
'

test_expect_success SQLITE3 'upgrade of a current database does nothing; --rederive derives again' '
	cp up.db cur.db &&
	vmscope upgrade cur.db 2> cur.err &&
	grep -q "at schema version 2 already: nothing to do" cur.err &&
	cmp up.db cur.db &&
	sql cur.db "DELETE FROM episode" &&
	vmscope upgrade --rederive cur.db 2> re.err &&
	grep -q "derived tables made again" re.err &&
	assert_eq "$(sql cur.db "SELECT COUNT(*) FROM episode")" "$(sql up.db "SELECT COUNT(*) FROM episode")" &&
	vmscope report cur.db > cur.out &&
	vmscope report up.db > up.out &&
	sed -i "s/cur\.db/DB/" cur.out && sed -i "s/up\.db/DB/" up.out &&
	test_cmp up.out cur.out
'

test_expect_success SQLITE3 'a failed upgrade leaves the file as it was' '
	cp v1.db bad.db &&
	# an event far past the end of the run: deriving its buckets fails
	sql bad.db "INSERT INTO mm_vmscan_lru_shrink_inactive (seq, ts, cpu, pid, nr_scanned, nr_reclaimed)
		SELECT 999999999, end_ts + 5000000000000, 0, 1, 1, 1 FROM run" &&
	cp bad.db bad.before &&
	test_must_fail vmscope upgrade bad.db 2> bad.err &&
	grep -q "lies outside the run" bad.err &&
	cmp bad.before bad.db &&
	test -z "$(ls bad.db-* 2>/dev/null)"
'

test_expect_success SQLITE3 'a newer database is refused by upgrade and by the readers' '
	cp up.db v3.db &&
	sql v3.db "PRAGMA user_version = 3" &&
	test_must_fail vmscope upgrade v3.db 2> v3.err &&
	grep -q "'\''v3.db'\'' has schema version 3, newer than this vmscope" v3.err &&
	test_must_fail vmscope report v3.db 2> v3r.err &&
	grep -q "newer than this vmscope .* use a newer vmscope" v3r.err &&
	assert_eq "$(sql v3.db "PRAGMA user_version")" 3
'

test_expect_success 'usage: --help on stdout, errors exit 2' '
	vmscope upgrade --help > help &&
	grep -q "^usage: vmscope upgrade" help &&
	for args in "" "--bogus up.db" "up.db cur.db"; do
		rc=0; vmscope upgrade $args 2> err || rc=$?
		assert_eq "$rc" 2 "exit status of vmscope upgrade $args" || return 1
	done &&
	test_must_fail vmscope upgrade --bogus up.db 2> err &&
	grep -q "unknown option '\''--bogus'\''" err
'

test_done
