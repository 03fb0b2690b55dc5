#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t2320-whatif-plot.sh - `vmscope plot DB whatif`: the numbers it draws, on a
# run whose whatif_series rows are written here (two scenarios: the figure
# is of the one whatif wrote last). The figure is drawn with --keep, then its
# kept script is run again by gnuplot with `set table`, which writes every
# curve's title and points instead of drawing (as t4200 does for the other
# kinds); PNG, SVG and text are drawn too; a run without whatif results is
# refused with the way out. No root.
. "$(dirname "$0")/test-lib.sh"

# a 3 s run (0.5 .. 3.5 s) and the whatif tables of schema/930-whatif.sql
make_db() {
	printf "  cat-1 [000] .... 0.500000: mm_vmscan_kswapd_sleep: nid=0\n  cat-1 [000] .... 3.500000: mm_vmscan_kswapd_sleep: nid=0\n" > run.txt &&
	vmscope import -q run.txt -o w.db &&
	sqlite3 -batch w.db < "$SRC_DIR/schema/930-whatif.sql"
}

# points DB: "title|x|y" of every point gnuplot draws in the whatif figure
points() {
	rm -rf keep &&
	vmscope plot "$1" whatif -o whatif.txt --keep keep 2> keep.err &&
	vars=$(sed -n 's/.*gnuplot -e "\(.*\)" whatif\.gp$/\1/p' keep.err) &&
	test -n "$vars" &&
	(cd keep && gnuplot -e "$vars set table \"table.txt\"" whatif.gp) &&
	awk '/^# Curve title:/ { sub(/^# Curve title: /, ""); gsub(/"/, ""); t = $0; next }
	     /^#/ || NF < 2 { next }
	     { print t "|" $1 "|" $2 }' keep/table.txt
}

test_expect_success SQLITE3 'a run without whatif results is refused, naming the way out' '
	make_db &&
	rc=0 && vmscope plot w.db whatif -o x.png 2> err || rc=$? &&
	assert_eq "$rc" 1 &&
	grep -q "no whatif results: run .vmscope whatif w.db. first" err
'

test_expect_success GNUPLOT,SQLITE3 'the last scenario: refaults, reclaim and LRU sizes at each sample' '
	# an older scenario first (drawn values would be 9s), then the one drawn: samples at
	# 1.5 and 2.5 s, i.e. 1 and 2 s after the start; LRU sizes of 256 and 512 pages
	# (1 and 2 MiB), 128 pages (0.5 MiB)
	sql w.db "INSERT INTO whatif_series VALUES
			('\''no change'\'', 1500000000, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9),
			('\''memcg.limit=200'\'', 1500000000, 300, 280, 10, 350, 330, 20, 256, 512, 128, 0),
			('\''memcg.limit=200'\'', 2500000000, 600, 580, 10, 650, 630, 40, 256, 512, 0, 128)" &&
	points w.db > got &&
	cat > want <<-EOF &&
	recorded|1|300
	recorded|2|600
	baseline|1|280
	baseline|2|580
	whatif|1|10
	whatif|2|10
	recorded|1|350
	recorded|2|650
	baseline|1|330
	baseline|2|630
	whatif|1|20
	whatif|2|40
	file recorded|1|1
	file recorded|2|1
	file whatif|1|2
	file whatif|2|2
	anon recorded|1|0.5
	anon recorded|2|0
	anon whatif|1|0
	anon whatif|2|0.5
	EOF
	test_cmp want got &&
	grep -q "scenario (the last whatif run, sanitized): memcg.limit_200" keep/whatif-a.dat
'

test_expect_success GNUPLOT,SQLITE3 'PNG, SVG and text' '
	vmscope plot w.db whatif -o w.png && test -s w.png &&
	vmscope plot w.db whatif -o w.svg && grep -q "<svg" w.svg &&
	vmscope plot w.db whatif -o w.txt && grep -q "file refaults" w.txt
'

test_expect_success GNUPLOT,SQLITE3 'two runs compared: both drawn' '
	cp w.db w2.db &&
	vmscope plot w.db whatif --compare w2.db -o c.png --keep keepc 2> /dev/null &&
	test -s keepc/whatif-a.dat && test -s keepc/whatif-b.dat
'

test_done
