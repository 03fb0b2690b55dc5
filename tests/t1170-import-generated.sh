#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1170-import-generated.sh - events the schema has no table for get one of
# their own, made from the fields of their first line (a text trace) or their
# format (a .dat: t1000 checks those against trace-cmd). Field names that
# are common columns, SQL words, quotes or duplicates stay distinct columns;
# an event named like a table of the schema gets SYSTEM_EVENT; later lines
# that do not fit are kept, never rejected; what cannot name a table or a
# column stays in event_generic. Nothing is lost and nothing injects.

. "$(dirname "$0")/test-lib.sh"

# ev TS EVENT PAYLOAD: one tracefs text line of pid 77 on cpu 1.
ev() {
	printf '          worker-77    [001] .....   %s: %s: %s\n' "$1" "$2" "$3"
}

test_expect_success SQLITE3 'an unknown event: a table from its first line, values typed, later misfits kept' '
	{
		ev 10.000001 my_event "a=1 b=0x10 c=hello pid=9 cpu=3 seq=5 extra=7"
		ev 10.000002 my_event "a=2 b=0x11 c=world pid=8 cpu=2 seq=4 extra=6"
		ev 10.000003 my_event "a=NaN b=17 c=x pid=7 cpu=1 seq=3 extra=5 new=1"
		ev 10.000004 my_event "a=4 free text here b=1"
	} > gen.txt &&
	vmscope import -q gen.txt -o gen.db &&
	assert_eq "$(sql gen.db "SELECT status FROM run")" complete &&
	assert_eq "$(sql gen.db "SELECT COUNT(*) FROM import_error")" 0 &&
	assert_eq "$(sql gen.db "SELECT COUNT(*) FROM event_generic")" 0 &&
	assert_eq "$(sql gen.db "SELECT group_concat(name || \":\" || type, \" \") FROM pragma_table_info(\"my_event\")")" \
		"seq:INTEGER ts:INTEGER cpu:INTEGER pid:INTEGER a:INTEGER b:INTEGER c:TEXT field_pid:INTEGER field_cpu:INTEGER field_seq:INTEGER field_extra:INTEGER extra:TEXT" &&
	assert_eq "$(sql gen.db "SELECT pid, cpu, a, b, c, field_pid, field_cpu, field_seq, field_extra FROM my_event ORDER BY seq")" \
		"77|1|1|16|hello|9|3|5|7
77|1|2|17|world|8|2|4|6
77|1|NaN|17|x|7|1|3|5
77|1|4|1|||||" &&
	assert_eq "$(sql gen.db "SELECT typeof(a) FROM my_event ORDER BY seq")" "integer
integer
text
integer" &&
	assert_eq "$(sql gen.db "SELECT json_extract(extra, \"\$.new\") FROM my_event WHERE a = \"NaN\"")" 1 &&
	assert_eq "$(sql gen.db "SELECT json_extract(extra, \"\$.payload\") FROM my_event WHERE a = 4")" "a=4 free text here b=1" &&
	assert_eq "$(sql gen.db "SELECT tbl, system, fields, source FROM generated_table")" "my_event||7|text fields" &&
	assert_eq "$(sql gen.db "SELECT tbl FROM event_table WHERE event = \"my_event\"")" my_event &&
	vmscope info gen.db > info.out &&
	grep -q "^ *4  my_event$" info.out
'

test_expect_success SQLITE3 'hostile field names become quoted columns; an event named like a schema table gets its own name' '
	{
		ev 11.000001 hostile "a\"b=1 x]y=2 select=3 A=4 a=5"
		ev 11.000002 task "pid=1 comm=evil"
		ev 11.000003 episode "kind=direct"
	} > hostile.txt &&
	vmscope import -q hostile.txt -o hostile.db &&
	assert_eq "$(sql hostile.db "SELECT COUNT(*) FROM import_error")" 0 &&
	assert_eq "$(sql hostile.db "SELECT \"a\"\"b\", \"x]y\", \"select\", A, field_a FROM hostile")" "1|2|3|4|5" &&
	assert_eq "$(sql hostile.db "SELECT tbl FROM generated_table ORDER BY tbl")" "hostile
text_episode
text_task" &&
	assert_eq "$(sql hostile.db "SELECT comm FROM text_task")" evil &&
	assert_eq "$(sql hostile.db "SELECT COUNT(*) FROM task WHERE comm = \"worker\"")" 1 &&
	vmscope report hostile.db summary > /dev/null
'

test_expect_success SQLITE3 'what cannot name a column stays in event_generic, whole' '
	{
		i=0
		fields=""
		while [ $i -lt 70 ]; do fields="$fields f$i=$i"; i=$((i + 1)); done
		ev 12.000001 wide "$fields"
		ev 12.000002 prose "this payload has no fields at all"
	} > odd.txt &&
	vmscope import -q odd.txt -o odd.db &&
	assert_eq "$(sql odd.db "SELECT event FROM event_generic ORDER BY seq")" "wide
prose" &&
	assert_eq "$(sql odd.db "SELECT json_extract(fields, \"\$.f69\") FROM event_generic WHERE event = \"wide\"")" 69 &&
	assert_eq "$(sql odd.db "SELECT payload FROM event_generic WHERE event = \"prose\"")" \
		"this payload has no fields at all" &&
	assert_eq "$(sql odd.db "SELECT COUNT(*) FROM generated_table")" 0
'

test_expect_success SQLITE3 'the .dat fixture: its events all land in typed tables, none as JSON' '
	vmscope import -q "$TEST_DIRECTORY/fixtures/dat/small.dat" -o dat.db &&
	assert_eq "$(sql dat.db "SELECT COUNT(*) FROM event_generic")" 0 &&
	test "$(sql dat.db "SELECT events FROM run")" -gt 0
'

test_done
