#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t0100-import-bad-input.sh - damaged, foreign and missing inputs: every one
# gives exit 1 (2 for usage errors) with a message naming the file, never a
# crash, and never a database that looks complete. Inputs are generated here;
# the truncated .dat cases cut the committed sample recording (no root needed).

. "$(dirname "$0")/test-lib.sh"

SAMPLE="$SRC_DIR/samples/traces/memcg-fileread.dat"

# Scratch files are small; keep them for a post-mortem with VMSCOPE_KEEP_TRASH=1.
test_cleanup '[ -n "${VMSCOPE_KEEP_TRASH:-}" ] || rm -rf "$TRASH"/*'

# run_rc WANT CMD...: run CMD with stdout in ./out and stderr in ./err; its
# exit status must be WANT.
run_rc() {
	_want=$1
	shift
	_rc=0
	"$@" >out 2>err || _rc=$?
	if [ "$_rc" != "$_want" ]; then
		echo "exit status $_rc, want $_want: $*"
		sed 's/^/stderr: /' err
		return 1
	fi
}

# err_has ERE: the stderr of the last run_rc matches ERE.
err_has() {
	if ! grep -Eq -- "$1" err; then
		echo "stderr does not match /$1/:"
		sed 's/^/stderr: /' err
		return 1
	fi
}

# no_file F: F must not exist.
no_file() {
	if [ -e "$1" ]; then echo "'$1' exists but should not"; return 1; fi
}

# db_events DB: "event count" lines of what DB stores, sorted, built from
# event_table (tables with an `event` column hold several events) plus event_generic.
db_events() {
	_q=$(sqlite3 -batch "$1" "SELECT group_concat(q, ' UNION ALL ') FROM (
		SELECT CASE WHEN (SELECT COUNT(*) FROM pragma_table_info(tbl) WHERE name = 'event')
			THEN 'SELECT event AS e FROM \"' || tbl || '\"'
			ELSE 'SELECT ''' || tbl || ''' AS e FROM \"' || tbl || '\"' END AS q
		FROM (SELECT DISTINCT tbl FROM event_table)
		UNION ALL SELECT 'SELECT event AS e FROM event_generic')")
	sqlite3 -batch "$1" "SELECT e || ' ' || COUNT(*) FROM ($_q) GROUP BY e ORDER BY e"
}

# txt_events FILE: "event count" lines of the complete event lines of a text trace.
txt_events() {
	awk '{ for (i = 1; i < NF - 1; i++)
		if ($i ~ /^\[[0-9]+\]$/ && $(i + 1) ~ /^[0-9]+\.[0-9]+:$/) {
			e = $(i + 2); sub(/:$/, "", e); n[e]++; break } }
	     END { for (e in n) print e, n[e] }' "$1" | LC_ALL=C sort
}

# A short `trace-cmd report` text trace of a 6.18 kernel: 12 events on lines 2-13.
make_trace() {
	cat <<'EOF'
cpus=2
       trace-cmd-6626  [000]   796.136148: writeback_dirty_folio: bdi 254:0: ino=266338304 index=43810820
       trace-cmd-6626  [000]   796.136152: track_foreign_dirty:  bdi 254:0[9]: ino=266338304 memcg_id=1 cgroup_ino=1 page_cgroup_ino=3500
             cat-6627  [001]   796.209872: global_dirty_state:   dirty=8 writeback=0 bg_thresh=609292 thresh=1220074 limit=160218 dirtied=347970 written=321256
             cat-6656  [001]   798.128942: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_NOFS|__GFP_HIGHMEM|__GFP_MOVABLE|__GFP_NOWARN|__GFP_NORETRY|__GFP_HARDWALL
             cat-6656  [001]   798.128951: mm_vmscan_lru_isolate: classzone=4 order=0 nr_requested=3 nr_scanned=3 nr_skipped=0 nr_taken=3 lru=inactive_file
             cat-6656  [001]   798.128963: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=3 nr_reclaimed=3 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
             cat-6656  [001]   798.128971: mm_shrink_slab_start: super_cache_scan+0x0 0xffff888100bdd800: nid: 0 objects to shrink 0 gfp_flags GFP_NOFS|__GFP_HIGHMEM|__GFP_MOVABLE|__GFP_NOWARN|__GFP_NORETRY|__GFP_HARDWALL cache items 8 delta 0 total_scan 0 priority 12
             cat-6656  [001]   798.128972: mm_shrink_slab_end:   super_cache_scan+0x0 0xffff888100bdd800: nid: 0 unused scan count 0 new scan count 0 total_scan 0 last shrinker return val 0
             cat-6656  [001]   798.129353: mm_vmscan_memcg_reclaim_end: nr_reclaimed=975
             cat-6656  [001]   798.129360: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_NOFS|__GFP_HIGHMEM|__GFP_MOVABLE|__GFP_NOWARN|__GFP_NORETRY|__GFP_HARDWALL
             cat-6656  [001]   798.129370: mm_shrink_slab_end:   super_cache_scan+0x0 0xffff888100bdd800: nid: 0 unused scan count 0 new scan count 0 total_scan 0 last shrinker return val 0
             cat-6656  [001]   798.129483: mm_vmscan_memcg_reclaim_end: nr_reclaimed=528
EOF
}

# check_dat_cut SRC N: SRC cut to N bytes must give exit 1, a message naming
# the cut file, and either no database or one whose run is 'incomplete'.
check_dat_cut() {
	_cut=cut-$N_PREFIX$2.dat
	_db=cut-$N_PREFIX$2.db
	head -c "$2" "$1" >"$_cut"
	assert_eq "$(wc -c <"$_cut" | tr -d ' ')" "$2" "size of $_cut" || return 1
	run_rc 1 vmscope import -q "$_cut" -o "$_db" || return 1
	err_has "$_cut" || return 1
	if [ -e "$_db" ]; then
		assert_eq "$(sql "$_db" "SELECT status FROM run")" incomplete "run.status of $_db" || return 1
		assert_eq "$(sql "$_db" "SELECT status_detail IS NOT NULL FROM run")" 1 \
			"status_detail of $_db" || return 1
		# still a database `info` can read, saying what happened
		run_rc 0 vmscope info "$_db" || return 1
		grep -q '^status: *incomplete' out || { echo "info does not say incomplete"; cat out; return 1; }
	fi
	rm -f "$_cut" "$_db"
}

test_expect_success SQLITE3 'the generated text trace imports completely (baseline)' '
	make_trace >good.txt &&
	run_rc 0 vmscope import good.txt -o good.db &&
	assert_eq "$(sql good.db "SELECT status FROM run")" complete &&
	assert_eq "$(sql good.db "SELECT events FROM run")" 12 &&
	txt_events good.txt >want &&
	assert_eq "$(wc -l <want | tr -d " ")" 9 "event types in good.txt" &&
	db_events good.db >got &&
	test_cmp want got &&
	run_rc 0 vmscope info good.db
'

test_expect_success SQLITE3 'text trace cut in the middle of a line: exit 1, line named, complete lines kept' '
	make_trace >good.txt &&
	size=$(wc -c <good.txt) &&
	head -c $((size - 20)) good.txt >cut.txt &&
	# the file now ends inside the event name of line 13
	assert_eq "$(tail -c 26 cut.txt)" "mm_vmscan_memcg_reclaim_en" &&
	run_rc 1 vmscope import cut.txt -o cut.db &&
	err_has "cut\.txt:13[: ]|cut\.txt.*line 13([^0-9]|$)" &&
	test -f cut.db &&
	assert_eq "$(sql cut.db "SELECT status FROM run")" incomplete &&
	sql cut.db "SELECT status_detail FROM run" | grep -q "cut.txt" &&
	assert_eq "$(sql cut.db "SELECT events FROM run")" 11 "events stored" &&
	head -n 12 good.txt | txt_events /dev/stdin >want &&
	db_events cut.db >got &&
	test_cmp want got &&
	assert_eq "$(sql cut.db "SELECT line FROM import_error")" 13 "import_error line"
'

test_expect_success SQLITE3 'text trace cut inside the last number: exit 1, line named, complete lines kept' '
	make_trace >good.txt &&
	size=$(wc -c <good.txt) &&
	head -c $((size - 3)) good.txt >cut2.txt &&
	assert_eq "$(tail -c 14 cut2.txt)" "nr_reclaimed=5" &&
	run_rc 1 vmscope import cut2.txt -o cut2.db &&
	err_has "cut2\.txt:13[: ]|cut2\.txt.*line 13([^0-9]|$)" &&
	assert_eq "$(sql cut2.db "SELECT status FROM run")" incomplete &&
	sql cut2.db "SELECT status_detail FROM run" | grep -q "line 13" &&
	# every complete line is stored, with its values
	head -n 12 good.txt | txt_events /dev/stdin >want &&
	db_events cut2.db >got &&
	LC_ALL=C join -a 1 want got | awk "NF != 3 || \$3 < \$2 { print \"short:\", \$0; bad = 1 } END { exit bad }" &&
	assert_eq "$(sql cut2.db "SELECT nr_reclaimed FROM mm_vmscan_memcg_reclaim_end ORDER BY seq LIMIT 1")" 975
'

test_expect_success SQLITE3 'a garbage line in the middle: exit 1, line 7 reported and stored, the rest imported' '
	make_trace | awk "NR == 7 { print \"%%% this is not a trace line %%%\"; next } { print }" >garbage.txt &&
	run_rc 1 vmscope import garbage.txt -o garbage.db &&
	err_has "garbage\.txt:7:" &&
	assert_eq "$(sql garbage.db "SELECT status FROM run")" incomplete &&
	assert_eq "$(sql garbage.db "SELECT COUNT(*) FROM import_error")" 1 &&
	assert_eq "$(sql garbage.db "SELECT line, text FROM import_error")" \
		"7|%%% this is not a trace line %%%" &&
	assert_eq "$(sql garbage.db "SELECT events FROM run")" 11 &&
	txt_events garbage.txt >want &&
	db_events garbage.db >got &&
	test_cmp want got &&
	assert_eq "$(sql garbage.db "SELECT COUNT(*) FROM mm_vmscan_lru_shrink_inactive")" 0 &&
	# info shows the bad line
	run_rc 0 vmscope info garbage.db &&
	grep -q "line 7:" out
'

test_expect_success SQLITE3 'a typed event with a value that is not a number: exit 1, line stored in import_error' '
	make_trace | awk "NR == 7 { sub(/nid=0/, \"nid=zero\") } { print }" >badval.txt &&
	grep -q "nid=zero" badval.txt &&
	run_rc 1 vmscope import badval.txt -o badval.db &&
	err_has "badval\.txt:7:.*nid" &&
	assert_eq "$(sql badval.db "SELECT line FROM import_error")" 7 &&
	assert_eq "$(sql badval.db "SELECT status FROM run")" incomplete &&
	assert_eq "$(sql badval.db "SELECT COUNT(*) FROM mm_vmscan_lru_shrink_inactive")" 0 &&
	assert_eq "$(sql badval.db "SELECT events FROM run")" 11
'

test_expect_success 'binary garbage: exit 1, message names the file, no database' '
	head -c 8192 /dev/urandom >noise.bin &&
	run_rc 1 vmscope import noise.bin -o noise.db &&
	err_has "noise\.bin" &&
	no_file noise.db &&
	# the same bytes, deterministic and starting like text
	{ printf "cpus=2\n"; awk "BEGIN { for (i = 0; i < 4096; i++) printf \"%c\", i % 256 }"; } >bytes.bin &&
	run_rc 1 vmscope import bytes.bin -o bytes.db &&
	err_has "bytes\.bin" &&
	no_file bytes.db &&
	# and compressed
	gzip -c noise.bin >noise.bin.gz &&
	run_rc 1 vmscope import noise.bin.gz -o noisegz.db &&
	err_has "noise\.bin\.gz" &&
	no_file noisegz.db
'

test_expect_success 'corrupt compressed data: exit 1, message names the file, no database' '
	printf "\037\213\010\000garbage that is not deflate data at all" >bad.txt.gz &&
	run_rc 1 vmscope import bad.txt.gz -o badgz.db &&
	err_has "bad\.txt\.gz" &&
	no_file badgz.db
'

test_expect_success SQLITE3 'text trace in a truncated gzip file: exit 1, run incomplete' '
	make_trace >good.txt &&
	gzip -c good.txt | head -c 300 >cutgz.txt.gz &&
	run_rc 1 vmscope import cutgz.txt.gz -o cutgz.db &&
	err_has "cutgz\.txt\.gz" &&
	assert_eq "$(sql cutgz.db "SELECT status FROM run")" incomplete &&
	assert_eq "$(sql cutgz.db "SELECT source_compression FROM run")" gzip
'

test_expect_success 'empty file: exit 1, says empty, no database' '
	: >empty.txt &&
	run_rc 1 vmscope import empty.txt -o empty.db &&
	err_has "empty\.txt" &&
	err_has "empty" &&
	grep -q "is empty" err &&
	no_file empty.db &&
	gzip -c empty.txt >empty.txt.gz &&
	run_rc 1 vmscope import empty.txt.gz -o emptygz.db &&
	grep -q "empty.txt.gz.* is empty" err &&
	no_file emptygz.db
'

test_expect_success 'a text file with no events: exit 1, no database' '
	printf "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:2\n" >noevents.txt &&
	run_rc 1 vmscope import noevents.txt -o noevents.db &&
	err_has "noevents\.txt" &&
	no_file noevents.db
'

test_expect_success 'nonexistent file: exit 1, message names it, no database' '
	run_rc 1 vmscope import does-not-exist.txt -o nofile.db &&
	err_has "does-not-exist\.txt" &&
	no_file nofile.db &&
	no_file does-not-exist.db
'

# The committed sample is a trace-cmd 3.1 file, format version 7 (sections
# compressed with zstd). Cuts anywhere in its headers, sections or CPU data.
test_expect_success SQLITE3 'truncated .dat (version 7 sample) cut at several sizes: exit 1, never a complete run' '
	test -f "$SAMPLE" &&
	S=$(wc -c <"$SAMPLE") &&
	N_PREFIX=v7- &&
	for n in 16 64 512 4096 65536 $((S / 4)) $((S / 2)) $((S * 3 / 4)) \
		$((S - 65536)) $((S - 4096)) $((S - 1000)) $((S - 300)); do
		check_dat_cut "$SAMPLE" $n || exit 1
	done
'

# Cut within its last section (the options after the event data): libtracecmd
# does not notice (documented in docs/import.md BUGS). What must hold: either
# exit 1, or every event of the whole file imported, none silently lost.
test_expect_success SQLITE3 'truncated .dat (version 7 sample) cut in its last 100 bytes: no event silently lost' '
	test -f "$SAMPLE" &&
	S=$(wc -c <"$SAMPLE") &&
	run_rc 0 vmscope import -q "$SAMPLE" -o whole.db &&
	db_events whole.db >whole.counts &&
	for n in $((S - 100)) $((S - 16)) $((S - 1)); do
		head -c $n "$SAMPLE" >tail-$n.dat
		rc=0
		vmscope import -q tail-$n.dat -o tail-$n.db 2>/dev/null || rc=$?
		if [ $rc = 0 ]; then
			db_events tail-$n.db >tail.counts &&
			test_cmp whole.counts tail.counts || { echo "cut at $n lost events"; exit 1; }
		else
			assert_eq $rc 1 "exit status of the cut at $n" || exit 1
		fi
	done
'

test_expect_success SQLITE3,TRACE_CMD 'truncated .dat (sample converted to version 6) cut at several sizes: exit 1, never a complete run' '
	test -f "$SAMPLE" &&
	trace-cmd convert --file-version 6 -i "$SAMPLE" -o v6.dat >convert.log 2>&1 &&
	od -An -c -j 10 -N 1 v6.dat | grep -q 6 &&
	run_rc 0 vmscope import v6.dat -o v6.db &&
	assert_eq "$(sql v6.db "SELECT status FROM run")" complete &&
	S=$(wc -c <v6.dat) &&
	N_PREFIX=v6- &&
	for n in 16 64 512 4096 65536 $((S / 4)) $((S / 2)) $((S * 3 / 4)) \
		$((S - 65536)) $((S - 4096)) $((S - 1000)) $((S - 100)) $((S - 1)); do
		check_dat_cut v6.dat $n || exit 1
	done
'

test_expect_success SQLITE3 'truncated .dat inside a gzip file: exit 1, no database, no temporary file left' '
	test -f "$SAMPLE" &&
	S=$(wc -c <"$SAMPLE") &&
	mkdir -p tmpdir &&
	head -c $((S / 2)) "$SAMPLE" | gzip >half.dat.gz &&
	TMPDIR=$PWD/tmpdir run_rc 1 vmscope import half.dat.gz -o half.db &&
	err_has "half\.dat\.gz" &&
	no_file half.db &&
	gzip -c "$SAMPLE" | head -c 200000 >cutstream.dat.gz &&
	TMPDIR=$PWD/tmpdir run_rc 1 vmscope import cutstream.dat.gz -o cutstream.db &&
	err_has "cutstream\.dat\.gz" &&
	no_file cutstream.db &&
	assert_eq "$(ls -A tmpdir)" "" "files left in TMPDIR"
'

test_expect_success SQLITE3 'a database of another schema version: info exits 1 and names version 99' '
	make_trace >good.txt &&
	run_rc 0 vmscope import -q good.txt -o v1.db &&
	run_rc 0 vmscope info v1.db &&
	grep -q "^status: *complete" out &&
	cp v1.db v99.db &&
	sqlite3 v99.db "PRAGMA user_version=99" &&
	run_rc 1 vmscope info v99.db &&
	err_has "v99\.db" &&
	err_has "version 99" &&
	test ! -s out
'

test_expect_success SQLITE3 'an SQLite file that is not a vmscope database: info exits 1' '
	sqlite3 other.db "CREATE TABLE t(x); INSERT INTO t VALUES (1);" &&
	run_rc 1 vmscope info other.db &&
	err_has "other\.db" &&
	err_has "not a vmscope" &&
	# right application_id and version but no run table
	sqlite3 halfway.db "PRAGMA application_id = 1986884451; PRAGMA user_version = 2; CREATE TABLE x(y);" &&
	run_rc 1 vmscope info halfway.db &&
	err_has "halfway\.db" &&
	err_has "corrupt|run"
'

test_expect_success SQLITE3 'a corrupt database: info exits 1 with a clear message' '
	head -c 65536 /dev/urandom >noise.db &&
	run_rc 1 vmscope info noise.db &&
	err_has "noise\.db" &&
	err_has "not a database|corrupt" &&
	make_trace >good.txt &&
	run_rc 0 vmscope import -q good.txt -o intact.db &&
	run_rc 0 vmscope info intact.db &&
	# a vmscope database cut short, and one with pages overwritten
	head -c 8192 intact.db >short.db &&
	run_rc 1 vmscope info short.db &&
	err_has "short\.db" &&
	err_has "corrupt|malformed" &&
	cp intact.db mangled.db &&
	awk "BEGIN { for (i = 0; i < 4096 * 30; i++) printf \"%c\", 65 + i % 26 }" |
		dd of=mangled.db bs=4096 seek=2 conv=notrunc status=none &&
	run_rc 1 vmscope info mangled.db &&
	err_has "mangled\.db" &&
	err_has "corrupt|malformed" &&
	run_rc 1 vmscope info missing.db &&
	err_has "missing\.db" &&
	no_file missing.db
'

test_expect_success SQLITE3 '-o naming an existing file without --force: exit 1, file untouched' '
	make_trace >good.txt &&
	printf "precious data\n" >exists.db &&
	cp exists.db exists.orig &&
	run_rc 1 vmscope import good.txt -o exists.db &&
	err_has "exists\.db" &&
	err_has "force" &&
	cmp exists.db exists.orig &&
	# an existing vmscope database is not touched either
	run_rc 0 vmscope import -q good.txt -o prev.db &&
	cp prev.db prev.orig &&
	run_rc 1 vmscope import good.txt -o prev.db &&
	cmp prev.db prev.orig &&
	# the default output name too
	cp exists.orig good.db &&
	run_rc 1 vmscope import good.txt &&
	cmp good.db exists.orig &&
	# --force replaces a vmscope database, never other data (t0120)
	run_rc 0 vmscope import -q --force good.txt -o prev.db &&
	assert_eq "$(sql prev.db "SELECT status FROM run")" complete &&
	run_rc 1 vmscope import -q --force good.txt -o exists.db &&
	cmp exists.db exists.orig
'

test_expect_success '-o in a directory that does not exist: exit 1' '
	make_trace >good.txt &&
	run_rc 1 vmscope import good.txt -o no-such-dir/x.db &&
	err_has "no-such-dir/x\.db"
'

test_expect_success 'usage errors exit 2' '
	make_trace >good.txt &&
	rm -f good.db &&
	run_rc 2 vmscope &&
	run_rc 2 vmscope no-such-command &&
	run_rc 2 vmscope import &&
	err_has "no input file" &&
	run_rc 2 vmscope import good.txt -o &&
	run_rc 2 vmscope import --no-such-option good.txt &&
	err_has "no-such-option" &&
	run_rc 2 vmscope import -x good.txt &&
	run_rc 2 vmscope import good.txt other.txt &&
	run_rc 2 vmscope import good.txt --kernel &&
	run_rc 2 vmscope import good.txt --show-errors &&
	run_rc 2 vmscope info &&
	run_rc 2 vmscope info a.db b.db &&
	no_file good.db &&
	# asked-for help is not an error
	run_rc 0 vmscope --help &&
	run_rc 0 vmscope import --help &&
	grep -q "usage: vmscope import" out &&
	run_rc 0 vmscope info -h
'

test_expect_success 'info with an unknown option is a usage error (exit 2)' '
	run_rc 2 vmscope info --no-such-option
'

test_expect_success 'import --show-errors with a value that is not a number is a usage error (exit 2)' '
	make_trace >good.txt &&
	run_rc 2 vmscope import --show-errors many good.txt -o se.db &&
	no_file se.db
'

test_done
