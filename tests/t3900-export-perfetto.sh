#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3900-export-perfetto.sh - `vmscope export --perfetto` writes a timeline
# that follows the Trace Event Format's rules (tests/perfetto-check.py:
# required fields, balanced nesting, timestamps monotonic per track) and
# carries the run: as many episode, failed-kswapd-run and shrinker slices as
# the database has, the counter tracks, the what-if predictions; hostile
# task names stay valid JSON and come back unchanged; an existing output is
# kept without -f, and a failed export leaves nothing behind.

. "$(dirname "$0")/test-lib.sh"

check() {
	python3 "$TEST_DIRECTORY/perfetto-check.py" "$1"
}

# slices NAME: how many slices of that name the checker counted.
slices() {
	awk -F '\t' -v n="$1" '$1 == "X" && $2 == n { print $3; found = 1 } END { if (!found) print 0 }' counts
}

test_expect_success 'kswapd-fail sample: a valid timeline with every failed run and the hopeless node' '
	xz -dc "$SRC_DIR/samples/traces/kswapd-fail.db.xz" > kf.db &&
	vmscope export kf.db --perfetto kf.json 2> note &&
	grep -q "kf.json: [0-9]* trace events" note &&
	check kf.json > counts &&
	assert_eq "$(slices "kswapd run failed")" "$(sql kf.db "SELECT SUM(failed) FROM kswapd_run")" &&
	assert_eq "$(slices "kswapd run failed")" 16 &&
	assert_eq "$(slices "node hopeless")" 1 &&
	assert_eq "$(slices "kswapd reclaim")" \
		"$(sql kf.db "SELECT COUNT(*) FROM episode WHERE kind = \"kswapd\" AND end_ts IS NOT NULL")" &&
	assert_eq "$(awk -F "\t" "\$1 == \"X\" && \$2 ~ /^shrink / { n += \$3 } END { print n }" counts)" \
		"$(sql kf.db "SELECT COUNT(*) FROM shrink_slab_interval WHERE start_ts IS NOT NULL AND end_ts IS NOT NULL")" &&
	grep -q "^C	free pages vs watermarks, node0/Normal	689$" counts &&
	grep -q "^C	LRU pages, machine	689$" counts &&
	grep -q "^C	slab / page cache	" counts &&
	grep -q "^C	refaults per second, machine	688$" counts
'

test_expect_success 'the free-pages track carries the zone watermarks as recorded' '
	python3 -c "
import json, sys
ev = [e for e in json.load(open(\"kf.json\"))[\"traceEvents\"]
      if e[\"ph\"] == \"C\" and e[\"name\"] == \"free pages vs watermarks, node0/Normal\"]
print(ev[0][\"args\"][\"free\"], ev[0][\"args\"][\"min\"], ev[0][\"args\"][\"high\"])" > first &&
	sql kf.db "SELECT v.value FROM counter_value v JOIN counter_sample s ON s.id = v.sample
		WHERE s.scope = \"node0/Normal\" AND v.name IN (\"free\", \"min\", \"high\")
		AND s.id = (SELECT MIN(id) FROM counter_sample WHERE scope = \"node0/Normal\")
		ORDER BY CASE v.name WHEN \"free\" THEN 1 WHEN \"min\" THEN 2 ELSE 3 END" | tr "\n" " " |
		sed "s/ $/\n/" > expect &&
	test_cmp expect first
'

test_expect_success 'what-if predictions appear beside the recorded values' '
	xz -dc "$SRC_DIR/samples/traces/thrash.db.xz" > thrash.db &&
	vmscope whatif thrash.db --assume memcg.swappiness=60 --assume demand=counters \
		--set memcg.swappiness=100 > whatif.txt &&
	vmscope export thrash.db --perfetto thrash.json 2> note &&
	check thrash.json > counts &&
	n=$(sql thrash.db "SELECT COUNT(*) FROM whatif_series") &&
	test "$n" -gt 0 &&
	grep -q "^C	file LRU pages	$n$" counts &&
	python3 -c "
import json
ev = [e for e in json.load(open(\"thrash.json\"))[\"traceEvents\"]
      if e[\"ph\"] == \"C\" and e[\"name\"] == \"file LRU pages\"]
assert all(\"recorded\" in e[\"args\"] and \"predicted\" in e[\"args\"] for e in ev), ev[0]
names = [e[\"args\"][\"name\"] for e in json.load(open(\"thrash.json\"))[\"traceEvents\"]
         if e[\"ph\"] == \"M\" and e[\"args\"][\"name\"].startswith(\"whatif \")]
assert names and \"memcg.swappiness=100\" in names[0], names"
'

test_expect_success 'hostile task and shrinker names stay valid JSON and come back unchanged' '
	cp kf.db hostile.db &&
	sql hostile.db "UPDATE task SET comm = \"a\"\"b\\c\" || char(27) || \"[2J\" || char(10) || char(9) || \"}]\" WHERE pid = 45;
		UPDATE shrinker_name SET name = \"x\"\"y\" || char(1) || \"\\\\\" WHERE rowid = 1" &&
	vmscope export hostile.db --perfetto hostile.json 2> /dev/null &&
	check hostile.json > counts &&
	sql hostile.db "SELECT comm FROM task WHERE pid = 45" > want-raw &&
	python3 -c "
import json, sqlite3
want = sqlite3.connect(\"hostile.db\").execute(\"SELECT comm FROM task WHERE pid = 45\").fetchone()[0]
got = [e[\"args\"][\"name\"] for e in json.load(open(\"hostile.json\"))[\"traceEvents\"]
       if e[\"ph\"] == \"M\" and e[\"pid\"] == 45 and e[\"name\"] == \"thread_name\"]
assert got == [want], (got, want)
assert \"\\x1b\" in want"
'

test_expect_success 'a run without counters exports its slices and says what it skipped' '
	vmscope import -q -o plain.db "$SRC_DIR/samples/traces/memcg-fileread.dat" &&
	vmscope export plain.db --perfetto plain.json 2> note &&
	grep -q "skipped" note || grep -q "0 counter values" note
'

test_expect_success 'an existing output needs -f; not a regular file is never replaced; failures leave nothing' '
	echo keep > exists.json &&
	test_must_fail vmscope export kf.db --perfetto exists.json 2> err &&
	grep -q "use -f" err &&
	assert_eq "$(cat exists.json)" keep &&
	vmscope export -q -f kf.db --perfetto exists.json &&
	check exists.json > /dev/null &&
	mkdir adir &&
	test_must_fail vmscope export -f kf.db --perfetto adir 2> err &&
	grep -q "not a regular file" err &&
	test_must_fail vmscope export kf.db --perfetto nosuchdir/out.json 2> err &&
	grep -q "nosuchdir/out.json.partial" err &&
	test_must_fail vmscope export kf.db 2> err &&
	grep -q "no output format" err &&
	test_must_fail vmscope export nosuch.db --perfetto x.json 2> err &&
	test ! -e x.json &&
	assert_eq "$(ls | grep -c partial)" 0
'

test_expect_success 'to standard output with -' '
	vmscope export kf.db --perfetto - > stdout.json &&
	check stdout.json > /dev/null &&
	cmp stdout.json kf.json
'

test_done
