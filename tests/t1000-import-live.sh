#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1000-import-live.sh - a real recording, end to end: a shell in a memcg
# limited to 64 MiB creates small files and reads a 300 MiB file twice while
# `trace-cmd record` traces vmscan, writeback and filemap. The .dat and its
# `trace-cmd report` text must import to the same events (counted against the
# report itself), with the same field values, and compressed copies must
# import the same. Every event of the .dat lands in a typed table (the events
# the schema does not know in a table made from their format), whose values
# are those trace-cmd prints. Needs root, tracefs,
# the memory cgroup controller, trace-cmd and sqlite3; otherwise SKIP.
#
# Everything this test starts or creates (trace-cmd, its trace buffer
# instance, the memcg, the 300 MiB file) is undone on every exit
# path by the test_cleanup handlers below. VMSCOPE_KEEP_TRASH=1 keeps the small
# files (t.dat, report.txt, the databases) for a post-mortem.

. "$(dirname "$0")/test-lib.sh"

TRACING=/sys/kernel/tracing
CG_NAME=vmscope-test-$$
if [ -d /sys/fs/cgroup/memory ]; then
	CG=/sys/fs/cgroup/memory/$CG_NAME	# cgroup v1
	CG_LIMIT=memory.limit_in_bytes
else
	CG=/sys/fs/cgroup/$CG_NAME		# cgroup v2
	CG_LIMIT=memory.max
fi
# The recording goes to a buffer instance of its own, so that another tracer
# reading the top-level buffer (which would split the events with this one)
# or changing its settings cannot disturb it, and it disturbs nobody.
INSTANCE_NAME=vmscope-t1000-$$
INSTANCE=$TRACING/instances/$INSTANCE_NAME
TC_PID="$TRASH/trace-cmd.pid"
BIG="$TRASH/big.data"

# Stop the trace-cmd this test started (its pid is in $TC_PID): SIGINT, so that
# it writes its file, then SIGKILL if it has not exited after 60 s.
stop_trace_cmd() {
	[ -f "$TC_PID" ] || return 0
	_pid=$(cat "$TC_PID")
	if [ -n "$_pid" ] && [ "$(cat /proc/"$_pid"/comm 2>/dev/null)" = trace-cmd ]; then
		kill -INT "$_pid" 2>/dev/null
		_i=0
		while kill -0 "$_pid" 2>/dev/null && [ $_i -lt 600 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		if kill -0 "$_pid" 2>/dev/null; then
			echo "trace-cmd $_pid ignored SIGINT for 60 s: killed"
			kill -KILL "$_pid" 2>/dev/null
		fi
	fi
	rm -f "$TC_PID"
}

remove_files() {
	rm -f "$BIG"
	[ -n "${VMSCOPE_KEEP_TRASH:-}" ] || rm -rf "$TRASH"/*
}

# Last registered runs first: stop tracing, the instance, the memcg, files.
test_cleanup remove_files
test_cleanup remove_memcg
test_cleanup remove_instance
test_cleanup stop_trace_cmd

# test_skip TITLE REASON: a TAP skip for a test that cannot run here.
test_skip() {
	test_count=$((test_count + 1))
	test_skipped=$((test_skipped + 1))
	echo "ok $test_count # skip $1 ($2)"
}

# Run the workload while trace-cmd records; leaves t.dat.
record_workload() {
	mkdir "$CG" || return 1
	echo 64M >"$CG/$CG_LIMIT" || return 1
	assert_eq "$(cat "$CG/$CG_LIMIT")" $((64 * 1024 * 1024)) "memcg limit" || return 1
	dd if=/dev/urandom of="$BIG" bs=1M count=300 status=none || return 1
	assert_eq "$(stat -c %s "$BIG")" $((300 * 1024 * 1024)) "size of the data file" || return 1
	sync
	echo 3 >/proc/sys/vm/drop_caches

	trace-cmd record --no-filter -q -d -C mono -b 32768 -B $INSTANCE_NAME \
		-e vmscan -e writeback -e filemap -o t.dat >record.log 2>&1 &
	echo $! >"$TC_PID"
	_tc=$!
	# recording has begun once the instance traces, with the events enabled
	# (trace-cmd's own "Hit Ctrl^C" message is buffered until it exits)
	_i=0
	until [ "$(cat "$INSTANCE/tracing_on" 2>/dev/null)" = 1 ] &&
	      [ "$(cat "$INSTANCE/events/vmscan/mm_vmscan_lru_shrink_inactive/enable" 2>/dev/null)" = 1 ] &&
	      grep -q "\[mono\]" "$INSTANCE/trace_clock" 2>/dev/null; do
		if ! kill -0 $_tc 2>/dev/null || [ $_i -ge 300 ]; then
			echo "trace-cmd did not start recording:"
			cat record.log
			stop_trace_cmd
			return 1
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
	sleep 1

	_rc=0
	sh -c 'echo $$ >"$1/cgroup.procs" && mkdir "$3" && i=0 &&
		while [ $i -lt 1500 ]; do echo $i >"$3/f$i"; i=$((i + 1)); done && sync &&
		cat "$2" >/dev/null && cat "$2" >/dev/null' \
		reader "$CG" "$BIG" "$TRASH/small" || _rc=$?
	rm -rf "$TRASH/small"
	sleep 1
	_alive=0
	kill -0 $_tc 2>/dev/null && _alive=1
	stop_trace_cmd
	wait $_tc 2>/dev/null || true	# trace-cmd may exit 1 after writing a complete file
	remove_instance || return 1
	[ $_rc = 0 ] || { echo "the reader in the memcg failed ($_rc)"; return 1; }
	[ $_alive = 1 ] || { echo "trace-cmd exited before the workload ended:"; cat record.log; return 1; }

	# the memcg did hit its limit: reclaim happened there
	if [ -f "$CG/memory.failcnt" ]; then
		_hits=$(cat "$CG/memory.failcnt")
	else
		_hits=$(sed -n 's/^max //p' "$CG/memory.events")
	fi
	[ "${_hits:-0}" -gt 0 ] || { echo "the memcg never reached its limit"; return 1; }
	rm -f "$BIG"
	remove_memcg || return 1
	test -s t.dat || { echo "trace-cmd wrote no t.dat:"; cat record.log; return 1; }
}

# txt_events FILE: "event count" of the event lines of a `trace-cmd report`
# text ("comm-pid [cpu] ts: event: ..."; the comm may contain spaces).
txt_events() {
	awk '{ for (i = 1; i < NF - 1; i++)
		if ($i ~ /^\[[0-9]+\]$/ && $(i + 1) ~ /^[0-9]+\.[0-9]+:$/) {
			e = $(i + 2); sub(/:$/, "", e); n[e]++; break } }
	     END { for (e in n) print e, n[e] }' "$1" | LC_ALL=C sort
}

# db_count DB EVENT: rows of EVENT in DB, found through event_table (a table
# with an `event` column holds several events; unknown ones are in event_generic).
db_count() {
	_tbl=$(sql "$1" "SELECT tbl FROM event_table WHERE event = '$2'")
	if [ -z "$_tbl" ]; then
		sql "$1" "SELECT COUNT(*) FROM event_generic WHERE event = '$2'"
	elif [ "$(sql "$1" "SELECT COUNT(*) FROM pragma_table_info('$_tbl') WHERE name = 'event'")" = 1 ]; then
		sql "$1" "SELECT COUNT(*) FROM \"$_tbl\" WHERE event = '$2'"
	else
		sql "$1" "SELECT COUNT(*) FROM \"$_tbl\""
	fi
}

# db_total DB: rows in all event tables of DB.
db_total() {
	_q=$(sql "$1" "SELECT group_concat('SELECT COUNT(*) AS n FROM \"' || tbl || '\"', ' UNION ALL ')
		FROM (SELECT DISTINCT tbl FROM event_table)")
	sql "$1" "SELECT SUM(n) FROM ($_q UNION ALL SELECT COUNT(*) FROM event_generic)"
}

# db_events DB: "event count" lines for every event DB holds, sorted.
db_events() {
	_q=$(sql "$1" "SELECT group_concat(q, ' UNION ALL ') FROM (
		SELECT CASE WHEN (SELECT COUNT(*) FROM pragma_table_info(tbl) WHERE name = 'event')
			THEN 'SELECT event AS e FROM \"' || tbl || '\"'
			ELSE 'SELECT ''' || tbl || ''' AS e FROM \"' || tbl || '\"' END AS q
		FROM (SELECT DISTINCT tbl FROM event_table)
		UNION ALL SELECT 'SELECT event AS e FROM event_generic')")
	sql "$1" "SELECT e || ' ' || COUNT(*) FROM ($_q) GROUP BY e ORDER BY e"
}

# check_counts: every event of report.txt has as many rows in dat.db and txt.db.
check_counts() {
	txt_events report.txt >want.counts
	[ -s want.counts ] || { echo "no events in report.txt"; return 1; }
	_bad=0
	while read -r _ev _n; do
		case $_ev in
		*[!a-z0-9_]*) echo "odd event name '$_ev' in report.txt"; _bad=1; continue ;;
		esac
		for _db in dat.db txt.db; do
			_got=$(db_count $_db "$_ev")
			if [ "$_got" != "$_n" ]; then
				echo "$_ev: report.txt has $_n, $_db has $_got"
				_bad=1
			fi
		done
	done <want.counts
	_total=$(awk '{ s += $2 } END { print s }' want.counts)
	for _db in dat.db txt.db; do
		assert_eq "$(db_total $_db)" "$_total" "rows in all tables of $_db" || _bad=1
		assert_eq "$(sql $_db "SELECT events FROM run")" "$_total" "run.events of $_db" || _bad=1
	done
	# real reclaim in the memcg was traced
	for _ev in mm_vmscan_memcg_reclaim_begin mm_vmscan_memcg_reclaim_end \
		mm_vmscan_lru_shrink_inactive mm_vmscan_lru_isolate; do
		_n=$(awk -v e=$_ev '$1 == e { print $2 }' want.counts)
		[ "${_n:-0}" -gt 0 ] || { echo "no $_ev in the recording"; _bad=1; }
	done
	return $_bad
}

# check_fields TABLE: the rows of TABLE in dat.db and txt.db pair up by seq,
# with every typed column equal and ts equal once dat's ns are rounded to µs.
check_fields() {
	_t=$1
	_eq=$(sql dat.db "SELECT group_concat('d.\"' || name || '\" IS x.\"' || name || '\"', ' AND ')
		FROM pragma_table_info('$_t') WHERE name NOT IN ('seq', 'ts', 'extra')")
	[ -n "$_eq" ] || { echo "$_t has no typed columns?"; return 1; }
	_nd=$(sql dat.db "SELECT COUNT(*) FROM \"$_t\"")
	_nt=$(sql txt.db "SELECT COUNT(*) FROM \"$_t\"")
	_r=$(sqlite3 -batch dat.db "ATTACH 'txt.db' AS x;
		SELECT COUNT(*), SUM(NOT ($_eq AND (d.ts + 500) / 1000 * 1000 = x.ts))
		FROM main.\"$_t\" d JOIN x.\"$_t\" x ON x.seq = d.seq")
	echo "$_t: dat $_nd rows, txt $_nt rows, joined|differing $_r"
	[ "$_nd" -gt 0 ] || { echo "$_t: no rows"; return 1; }
	assert_eq "$_nt" "$_nd" "$_t rows in txt.db" || return 1
	if [ "$_r" != "$_nd|0" ]; then
		echo "$_t: rows that differ (dat, then txt):"
		sqlite3 -batch -header dat.db "ATTACH 'txt.db' AS x;
			SELECT d.*, '<dat|txt>', x.* FROM main.\"$_t\" d LEFT JOIN x.\"$_t\" x ON x.seq = d.seq
			WHERE x.seq IS NULL OR NOT ($_eq AND (d.ts + 500) / 1000 * 1000 = x.ts) LIMIT 5"
		return 1
	fi
}

# check_compressed TOOL EXT: t.dat and report.txt compressed with TOOL import
# to the same events as the uncompressed files.
check_compressed() {
	_tool=$1
	_ext=$2
	$_tool -c <t.dat >"t.dat.$_ext" || return 1
	$_tool -c <report.txt >"report.txt.$_ext" || return 1
	db_events dat.db >dat.events
	db_events txt.db >txt.events
	[ -s dat.events ] && [ -s txt.events ] || { echo "dat.db or txt.db missing"; return 1; }
	_bad=0
	for _src in t.dat report.txt; do
		_db=$_src-$_ext.db
		_rc=0
		vmscope import -q "$_src.$_ext" -o "$_db" || _rc=$?
		assert_eq "$_rc" 0 "exit status of import $_src.$_ext" || _bad=1
		[ -f "$_db" ] || { echo "no $_db"; _bad=1; continue; }
		assert_eq "$(sql "$_db" "SELECT status FROM run")" complete "run.status of $_db" || _bad=1
		assert_eq "$(sql "$_db" "SELECT source_compression FROM run")" "$_tool" \
			"run.source_compression of $_db" || _bad=1
		db_events "$_db" >"$_db.events"
		case $_src in
		t.dat) test_cmp dat.events "$_db.events" || _bad=1 ;;
		*) test_cmp txt.events "$_db.events" || _bad=1 ;;
		esac
	done
	return $_bad
}

# check_source_bytes EXT...: run.source_bytes of the imports of the compressed
# copies is the size of the decompressed input (schema/001-run.sql).
check_source_bytes() {
	_bad=0
	for _ext in "$@"; do
		for _src in t.dat report.txt; do
			if [ ! -f "$_src-$_ext.db" ]; then
				echo "$_src.$_ext was not imported"
				_bad=1
				continue
			fi
			assert_eq "$(sql "$_src-$_ext.db" "SELECT source_bytes FROM run")" \
				"$(stat -c %s $_src)" "source_bytes of $_src.$_ext ($(stat -c %s $_src.$_ext) bytes compressed)" ||
				_bad=1
		done
	done
	return $_bad
}

LIVE=ROOT,TRACEFS,MEMCG,TRACE_CMD,SQLITE3

test_expect_success $LIVE 'record vmscan/writeback while a 64M memcg reads a 300M file twice' '
	record_workload &&
	test -s t.dat &&
	trace-cmd report t.dat >report.txt 2>report.err &&
	test -s report.txt
'

test_expect_success $LIVE '(a) vmscope import t.dat: exit 0, complete run' '
	test -s t.dat &&
	vmscope import t.dat -o dat.db &&
	assert_eq "$(sql dat.db "SELECT status FROM run")" complete &&
	assert_eq "$(sql dat.db "SELECT source_kind FROM run")" trace-cmd-dat &&
	assert_eq "$(sql dat.db "SELECT COUNT(*) FROM import_error")" 0 &&
	assert_eq "$(sql dat.db "SELECT ts_resolution_ns FROM run")" 1 &&
	assert_eq "$(sql dat.db "SELECT source_bytes FROM run")" "$(stat -c %s t.dat)" &&
	assert_eq "$(sql dat.db "SELECT source_compression FROM run")" none
'

test_expect_success $LIVE '(b) vmscope import of the trace-cmd report text: exit 0, complete run' '
	test -s report.txt &&
	vmscope import report.txt -o txt.db &&
	assert_eq "$(sql txt.db "SELECT status FROM run")" complete &&
	assert_eq "$(sql txt.db "SELECT source_kind FROM run")" trace-cmd-report &&
	assert_eq "$(sql txt.db "SELECT COUNT(*) FROM import_error")" 0 &&
	assert_eq "$(sql txt.db "SELECT ts_resolution_ns FROM run")" 1000
'

test_expect_success $LIVE '(c) events per type: report.txt, dat.db and txt.db agree, with real reclaim' '
	check_counts
'

test_expect_success $LIVE '(d) field values agree between dat.db and txt.db, event by event' '
	for t in mm_vmscan_lru_shrink_inactive mm_vmscan_lru_isolate mm_shrink_slab_start \
		mm_shrink_slab_end mm_vmscan_memcg_reclaim_begin mm_vmscan_memcg_reclaim_end \
		mm_filemap_add_to_page_cache mm_filemap_delete_from_page_cache; do
		check_fields $t || exit 1
	done
'

# report_fields EVENT AWK: for each line of EVENT in report.txt, in order,
# what the awk program AWK prints of its payload ($0 is the payload).
report_fields() {
	awk -v ev="$1:" '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		if ($(i + 1) != ev) next
		p = $0; sub(/^.*[0-9]+\.[0-9]+: [a-z_0-9]+: /, "", p); print p }' report.txt |
		awk "$2"
}

test_expect_success $LIVE '(f) no event of the .dat is stored as JSON: the unknown ones have tables made from their format' '
	assert_eq "$(sql dat.db "SELECT COUNT(*) FROM event_generic")" 0 &&
	for ev in writeback_mark_inode_dirty writeback_dirty_inode; do
		assert_eq "$(sql dat.db "SELECT tbl || \" \" || source FROM generated_table WHERE event = \"$ev\"")" \
			"$ev format" || exit 1
		assert_eq "$(sql dat.db "SELECT tbl FROM event_table WHERE event = \"$ev\"")" "$ev" || exit 1
	done &&
	# the reads of the workload: a typed table (schema/017-filemap-access.sql), none generated
	assert_eq "$(sql dat.db "SELECT COUNT(*) FROM generated_table WHERE event = \"mm_filemap_get_pages\"")" 0 &&
	test "$(sql dat.db "SELECT COUNT(*) FROM mm_filemap_get_pages WHERE last_index >= \"index\"")" -gt 0 &&
	assert_eq "$(sql dat.db "SELECT group_concat(name || \":\" || type, \" \") FROM pragma_table_info(\"writeback_mark_inode_dirty\")")" \
		"seq:INTEGER ts:INTEGER cpu:INTEGER pid:INTEGER name:TEXT ino:INTEGER state:INTEGER flags:INTEGER extra:TEXT" &&
	assert_eq "$(sql dat.db "SELECT COUNT(*) FROM writeback_mark_inode_dirty WHERE extra IS NOT NULL")" 0
'

test_expect_success $LIVE '(g) a generated table holds the raw values of trace-cmd report -R, record by record' '
	# -R: the fields as recorded (the symbolic rendering of state/flags needs
	# kernel enums libtraceevent does not have, and prints 0 as I_DIRTY_SYNC)
	trace-cmd report -R t.dat > raw.txt 2> raw.err &&
	awk "{ for (i = 1; i < NF; i++) if (\$i ~ /^[0-9]+\\.[0-9]+:\$/) break
		if (\$(i + 1) != \"writeback_mark_inode_dirty:\") next
		out = \"\"
		for (j = i + 2; j <= NF; j++) { v = \$j; sub(/^[a-z_]+=/, \"\", v); out = out (out == \"\" ? \"\" : \" \") v }
		print out }" raw.txt > want.wb &&
	test "$(wc -l < want.wb)" -gt 100 &&
	sql dat.db "SELECT name || \" \" || ino || \" \" || printf(\"0x%x\", state) || \" \" || printf(\"0x%x\", flags)
		FROM writeback_mark_inode_dirty ORDER BY seq" > got.wb &&
	test_cmp want.wb got.wb
'

test_expect_success $LIVE '(h) filemap values are those trace-cmd prints; a query over a generated table works in sqlite3' '
	report_fields mm_filemap_add_to_page_cache "{ sub(/^pfn=/, \"\", \$5); print \$4, \$5 }" > want.fm &&
	sql dat.db "SELECT printf(\"%x 0x%x\", i_ino, pfn) FROM mm_filemap_add_to_page_cache ORDER BY seq" > got.fm &&
	test "$(wc -l < want.fm)" -gt 1000 &&
	test_cmp want.fm got.fm &&
	want=$(report_fields writeback_mark_inode_dirty "{ sub(/^bdi /, \"\"); sub(/: ino=/, \" \"); print \$1, \$2 }" |
		sort -u | awk "{ n[\$1]++ } END { for (d in n) print d \"|\" n[d] }" | sort) &&
	got=$(sqlite3 -batch dat.db "SELECT name, COUNT(DISTINCT ino) FROM writeback_mark_inode_dirty GROUP BY name ORDER BY name") &&
	test -n "$got" &&
	assert_eq "$got" "$want"
'

test_expect_success $LIVE '(e) vmscope info dat.db: kernel release of this machine, mono clock' '
	vmscope info dat.db >info.out &&
	grep -q "^kernel: *$(uname -r)\$" info.out &&
	grep -q "^trace clock: *mono," info.out &&
	grep -q "^status: *complete" info.out &&
	assert_eq "$(sql dat.db "SELECT kernel_release FROM run")" "$(uname -r)" &&
	assert_eq "$(sql dat.db "SELECT trace_clock FROM run")" mono
'

exts=""
for c in gzip:gz zstd:zst xz:xz; do
	tool=${c%%:*}
	ext=${c#*:}
	if command -v "$tool" >/dev/null 2>&1; then
		test_expect_success $LIVE "compressed with $tool: t.dat.$ext and report.txt.$ext import to the same events" "
			check_compressed $tool $ext
		"
		exts="$exts $ext"
	else
		test_skip "compressed with $tool" "SKIP: $tool is not installed"
	fi
done
if [ -n "$exts" ]; then
	test_expect_success $LIVE "run.source_bytes of the compressed imports is the decompressed size" "
		check_source_bytes $exts
	"
else
	test_skip "run.source_bytes of compressed imports" "SKIP: no compressor is installed"
fi

test_done
