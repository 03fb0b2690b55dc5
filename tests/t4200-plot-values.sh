#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t4200-plot-values.sh - the numbers `vmscope plot` draws, on hand-made runs
# whose figure data is worked out here: each figure is drawn with --keep,
# then its kept script is run again by gnuplot with `set table`, which
# writes every curve's title and points instead of drawing. So the check
# covers both the .dat files and which column each curve of plots/KIND.gp
# draws. No root.
. "$(dirname "$0")/test-lib.sh"

L="nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0"
L="$L nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12"
FILE="flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
ANON="flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC"

# A 1 s run (1.0 .. 2.0 s): kswapd scans file then anon at 1.001/1.002 s, a
# direct reclaimer (dd) file then anon at 1.501/1.502 s.
write_trace() {
	cat <<-TRACE
	         kswapd0-50      [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-50      [000] .....     1.001000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 $L $FILE
	         kswapd0-50      [000] .....     1.002000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=16 nr_reclaimed=8 $L $ANON
	         kswapd0-50      [000] .....     1.003000: mm_vmscan_kswapd_sleep: nid=0
	              dd-200     [001] .....     1.500000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	              dd-200     [001] .....     1.501000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=64 nr_reclaimed=60 $L $FILE
	              dd-200     [001] .....     1.502000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=8 nr_reclaimed=4 $L $ANON
	              dd-200     [001] .....     1.503000: mm_vmscan_direct_reclaim_end: nr_reclaimed=64
	         kswapd0-50      [000] .....     2.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	TRACE
}

# plotted DB KIND: "title x y" of every nonzero point gnuplot draws, one a line
plotted() {
	rm -rf keep-$2 &&
	vmscope plot "$1" "$2" -f -o "$2.txt" --keep keep-$2 2> keep.err &&
	vars=$(sed -n "s/.*gnuplot -e \"\(.*\)\" $2\.gp\$/\1/p" keep.err) &&
	test -n "$vars" &&
	(cd keep-$2 && gnuplot -e "$vars set table \"table.txt\"" "$2.gp") &&
	awk "/^# Curve title:/ { sub(/^# Curve title: /, \"\"); gsub(/\"/, \"\"); t = \$0; next }
	     /^#/ || NF < 2 { next }
	     \$2 != 0 { print t \"|\" \$1 \"|\" \$2 }" keep-$2/table.txt
}

test_expect_success GNUPLOT 'scan: pages per second by kswapd/direct and file/anon, per 10 ms bin' '
	write_trace > scan.txt &&
	vmscope import -q scan.txt -o scan.db &&
	# 100 bins of 10 ms over the 1 s run; a point is the middle of its bin.
	# kswapd file 32 scanned, 30 reclaimed in [0, 10 ms): 3200/s and 3000/s;
	# kswapd anon 16, 8: 1600/s, 800/s; direct (dd) in [500, 510 ms): file
	# 64, 60: 6400/s, 6000/s; anon 8, 4: 800/s, 400/s. The upper panel
	# draws the scanned pages, the lower one the reclaimed pages.
	plotted scan.db scan > got &&
	cat > want <<-EOF &&
	kswapd_file|0.005|3200
	kswapd_anon|0.005|1600
	direct_file|0.505|6400
	direct_anon|0.505|800
	kswapd_file|0.005|3000
	kswapd_anon|0.005|800
	direct_file|0.505|6000
	direct_anon|0.505|400
	EOF
	test_cmp want got &&
	grep -q "^# 4 mm_vmscan_lru_shrink_inactive events in the window" keep-scan/scan-a.dat
'

test_expect_success GNUPLOT 'scan: a window cuts the events outside it' '
	rm -rf keep-w &&
	vmscope plot scan.db scan -o w.txt --from 0.4 --to 0.6 --keep keep-w 2> keep.err &&
	grep -q "^# 2 mm_vmscan_lru_shrink_inactive events in the window" keep-w/scan-a.dat &&
	no_match "^0.005 " keep-w/scan-a.dat
'

test_expect_success GNUPLOT 'ratio: slab and file LRU in MiB, the two ratios, per vmstat sample' '
	cp scan.db ratio.db &&
	# two samples at 0.25 s and 0.75 s of the run (4 KiB pages):
	#  1: slab reclaimable 2560 = 10 MiB, unreclaimable 1280 = 5 MiB, file LRU
	#     5120 + 5120 = 40 MiB; ratios 2560/10240 = 0.25, (2560+1280)/10240 = 0.375
	#  2: 5120 = 20 MiB, 256 = 1 MiB, 1024 + 1024 = 8 MiB; 5120/2048 = 2.5,
	#     5376/2048 = 2.625
	sql ratio.db "
		INSERT INTO counter_sample VALUES (1, 1250000000, 1250000100, '\''vmstat'\'', '\'''\'');
		INSERT INTO counter_sample VALUES (2, 1750000000, 1750000100, '\''vmstat'\'', '\'''\'');
		INSERT INTO counter_value SELECT 1, n, v FROM (SELECT '\''nr_slab_reclaimable'\'' AS n, 2560 AS v
			UNION SELECT '\''nr_slab_unreclaimable'\'', 1280 UNION SELECT '\''nr_active_file'\'', 5120
			UNION SELECT '\''nr_inactive_file'\'', 5120);
		INSERT INTO counter_value SELECT 2, n, v FROM (SELECT '\''nr_slab_reclaimable'\'' AS n, 5120 AS v
			UNION SELECT '\''nr_slab_unreclaimable'\'', 256 UNION SELECT '\''nr_active_file'\'', 1024
			UNION SELECT '\''nr_inactive_file'\'', 1024);" &&
	plotted ratio.db ratio > got &&
	cat > want <<-EOF &&
	slab reclaimable|0.25|10
	slab reclaimable|0.75|20
	slab unreclaimable|0.25|5
	slab unreclaimable|0.75|1
	file LRU (active+inactive)|0.25|40
	file LRU (active+inactive)|0.75|8
	slab reclaimable / file LRU|0.25|0.25
	slab reclaimable / file LRU|0.75|2.5
	all slab / file LRU|0.25|0.375
	all slab / file LRU|0.75|2.625
	EOF
	test_cmp want got
'

test_done
