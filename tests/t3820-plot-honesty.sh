#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t3820-plot-honesty.sh - the plot side of issue 17: the scan figure names
# each reclaimer as the kernel does (memcg limit reclaim is memcg, not
# direct); plot refuses to overwrite an existing output without -f; a text
# plot can be 72 columns wide (down to 60); `plot A1.db ... scan --compare
# B1.db ...` draws each side's mean with its spread (scan, stalls, and
# refaults and ratio, whose counters then go by time bins the same in every run).

. "$(dirname "$0")/test-lib.sh"

# One event per reclaimer, 100 ms apart (10 ms bins would be chosen for 1 s):
# kswapd0 at 1.0, a direct call of dd at 1.1, a memcg call of hog at 1.2, a
# node call of numa at 1.3, khugepaged's direct reclaim at 1.4, and a scan by
# dd outside any call (MADV_PAGEOUT) at 1.5; pages scanned 10, 20, 30, 40,
# 50, 60, reclaimed half; all file but the memcg one (anon).
F='nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC'
A='nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC'
write_trace() {
	cat <<-EOF
	# tracer: nop
	         kswapd0-50      [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-50      [000] .....     1.001000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=10 nr_reclaimed=5 $F
	         kswapd0-50      [000] .....     1.002000: mm_vmscan_kswapd_sleep: nid=0
	              dd-200     [001] .....     1.100000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	              dd-200     [001] .....     1.101000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=20 nr_reclaimed=10 $F
	              dd-200     [001] .....     1.102000: mm_vmscan_direct_reclaim_end: nr_reclaimed=10
	             hog-300     [002] .....     1.200000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	             hog-300     [002] .....     1.201000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=30 nr_reclaimed=15 $A
	             hog-300     [002] .....     1.202000: mm_vmscan_memcg_reclaim_end: nr_reclaimed=15
	            numa-400     [003] .....     1.300000: mm_vmscan_node_reclaim_begin: nid=0 order=0 gfp_flags=GFP_KERNEL
	            numa-400     [003] .....     1.301000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=40 nr_reclaimed=20 $F
	            numa-400     [003] .....     1.302000: mm_vmscan_node_reclaim_end: nr_reclaimed=20
	      khugepaged-60      [000] .....     1.400000: mm_vmscan_direct_reclaim_begin: order=9 gfp_flags=GFP_TRANSHUGE
	      khugepaged-60      [000] .....     1.401000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=50 nr_reclaimed=25 $F
	      khugepaged-60      [000] .....     1.402000: mm_vmscan_direct_reclaim_end: nr_reclaimed=25
	              dd-200     [001] .....     1.501000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=60 nr_reclaimed=30 $F
	         kswapd0-50      [000] .....     2.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	EOF
}

test_expect_success GNUPLOT 'scan: each reclaimer in its own columns, named as the kernel names it' '
	write_trace > k.txt &&
	vmscope import -q k.txt -o k.db &&
	vmscope plot k.db scan -o k.txt.png --keep keep 2> keep.err &&
	grep -q "scan_kinds=.1 2 3 4 5 6.;" keep.err &&
	grep -q "^# columns: time_s kswapd_file_scanned/s kswapd_anon_scanned/s direct_file_scanned/s" keep/scan-a.dat &&
	# the bin of each event (10 ms bins): its column holds scanned / 0.01 s
	awk "!/^#/ && \$1 ~ /^[0-9]/ && NF > 20 { for (c = 2; c <= 13; c++) if (\$c != 0) print \$1, c, \$c }" keep/scan-a.dat > got &&
	cat > want <<-EOF &&
	0.005 2 1000
	0.105 4 2000
	0.205 7 3000
	0.305 8 4000
	0.405 10 5000
	0.505 12 6000
	EOF
	test_cmp want got
'

test_expect_success GNUPLOT 'scan: a memcg-only run draws memcg lines and no direct ones' '
	grep -v "dd-200\|numa-400\|khugepaged-60\|kswapd0-50.*shrink" k.txt > m.txt &&
	vmscope import -q m.txt -o m.db &&
	vmscope plot m.db scan -o m.txt.svg --keep keepm 2> keepm.err &&
	grep -q "scan_kinds=.3.;" keepm.err &&
	(cd keepm && gnuplot -e "$(sed -n "s/.*gnuplot -e \"\(.*\)\" scan\.gp\$/\1/p" ../keepm.err) set table \"table.txt\"" scan.gp) &&
	grep -q "^# Curve title: \"memcg_anon\"" keepm/table.txt &&
	no_match "direct" keepm/table.txt
'

test_expect_success GNUPLOT 'plot refuses to overwrite an existing output without -f' '
	echo precious > out.png &&
	rc=0 &&
	vmscope plot k.db scan -o out.png 2> err || rc=$? &&
	assert_eq "$rc" 1 "exit status" &&
	grep -q "error: .out.png. already exists (use --force to replace it)" err &&
	assert_eq "$(cat out.png)" precious "left alone" &&
	vmscope plot k.db scan -o out.png -f &&
	test "$(head -c 4 out.png | tail -c 3)" = PNG
'

test_expect_success GNUPLOT 'a text plot 72 (and 60) columns wide' '
	vmscope plot k.db scan -o w72.txt --width 72 &&
	test "$(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" w72.txt)" -le 72 &&
	test "$(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" w72.txt)" -gt 60 &&
	vmscope plot k.db scan -o w60.txt --width 60 &&
	test "$(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" w60.txt)" -le 60 &&
	vmscope plot k.db scan -o w80.txt &&
	test "$(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" w80.txt)" -gt 72
'

test_expect_success 'plot --width: 60 to 200, for .txt only' '
	for args in "--width 59 -o a.txt" "--width 201 -o a.txt" "--width 72 -o a.png"; do
		rc=0 &&
		vmscope plot k.db scan $args > /dev/null 2> err || rc=$? &&
		assert_eq "$rc" 2 "$args" || return 1
	done
'

# The kswapd event of k.txt scanned 10 pages at 1.001 s; copies scanning 30 and
# 50 make a side of three runs whose first 10 ms bin has 1000, 3000 and 5000
# kswapd file pages/s: mean 3000, lo 1000, hi 5000.
test_expect_success GNUPLOT 'scan of groups: each side is the mean of its runs, with min and max' '
	sed "s/nr_scanned=10 nr_reclaimed=5/nr_scanned=30 nr_reclaimed=5/" k.txt > k3.txt &&
	sed "s/nr_scanned=10 nr_reclaimed=5/nr_scanned=50 nr_reclaimed=5/" k.txt > k5.txt &&
	vmscope import -q k3.txt -o k3.db && vmscope import -q k5.txt -o k5.db &&
	vmscope plot k.db k3.db k5.db scan --compare k.db k5.db -o g.png --keep keepg 2> g.err &&
	grep -q "data_a=.scan-sideA.dat.; data_b=.scan-sideB.dat.;.* spread=1;" g.err &&
	test -s keepg/scan-e.dat &&
	# side A row 1: time, kswapd_file mean (column 2), lo (2 + 24), hi (2 + 48)
	assert_eq "$(awk "\$1 == \"0.005\" { print \$2, \$26, \$50 }" keepg/scan-sideA.dat)" "3000 1000 5000" "side A" &&
	assert_eq "$(awk "\$1 == \"0.005\" { print \$2, \$26, \$50 }" keepg/scan-sideB.dat)" "3000 1000 5000" "side B" &&
	grep -q "^A:mean_of_3_runs " keepg/scan-sideA.dat &&
	grep -q "^B:mean_of_2_runs " keepg/scan-sideB.dat &&
	grep -q "^# columns: time_s .* lo_kswapd_file_scanned/s .* hi_other_anon_reclaimed/s$" keepg/scan-sideA.dat
'

test_expect_success GNUPLOT 'stalls of groups: the latency bins of each side, mean, min and max' '
	# the memcg call of hog lasts 2 ms in every run: one episode in the bin of 2 ms
	vmscope plot k.db k3.db stalls --compare k5.db -o gs.png --keep keeps 2> gs.err &&
	grep -q "spread=1;" gs.err &&
	grep -q "^# columns: center_us bin_lo_us bin_hi_us direct memcg node throttled lo_bin_lo_us" keeps/stalls-sideA.dat &&
	assert_eq "$(awk "!/^#/ && \$1 ~ /^[0-9]/ && \$5 > 0 { print \$5, \$11, \$17 }" keeps/stalls-sideA.dat)" "1 1 1" "memcg bin"
'

# refaults of groups: vmstat samples at 0.25, 0.55 and 0.85 s of k.db's 1 s
# run (its window starts at 1.0 s), workingset_refault_file 0, 300 and 300*F
# (F = 1, 2, 3 in three copies); 10 ms bins. The bin [0.30, 0.31) lies in the
# first interval: 300 pages in 0.30 s, 1000/s in every run; the bin
# [0.60, 0.61) in the second: 300*(F - 1)/0.3 = 0, 1000 and 2000/s: mean
# 1000, lo 0, hi 2000. Before 0.25 s and after 0.85 s no sample covers the
# bin: NaN, not 0. The sum over the covered bins is the counter's change.
test_expect_success GNUPLOT,SQLITE3 'refaults of groups: rates per time bin, the same bins in every run, mean, min and max' '
	for f in 1 2 3; do
		cp k.db r$f.db &&
		sql r$f.db "
			INSERT INTO counter_sample VALUES (1, 1250000000, 1250000100, '"'vmstat'"', '"''"');
			INSERT INTO counter_sample VALUES (2, 1550000000, 1550000100, '"'vmstat'"', '"''"');
			INSERT INTO counter_sample VALUES (3, 1850000000, 1850000100, '"'vmstat'"', '"''"');
			INSERT INTO counter_value VALUES (1, '"'workingset_refault_file'"', 0);
			INSERT INTO counter_value VALUES (2, '"'workingset_refault_file'"', 300);
			INSERT INTO counter_value VALUES (3, '"'workingset_refault_file'"', 300 * $f);" &&
		vmscope upgrade -q --rederive r$f.db || return 1
	done &&
	vmscope plot r1.db r2.db r3.db refaults --compare r1.db -o gr.png --keep keepr 2> gr.err &&
	grep -q "data_a=.refaults-sideA.dat.; data_b=.refaults-sideB.dat.;.* spread=1;" gr.err &&
	# columns: time, refault_anon, refault_file (3), ..., lo_ (3 + 4), hi_ (3 + 8)
	assert_eq "$(awk "\$1 == \"0.305\" { print \$3, \$7, \$11 }" keepr/refaults-sideA.dat)" "1000 1000 1000" "first interval" &&
	assert_eq "$(awk "\$1 == \"0.605\" { print \$3, \$7, \$11 }" keepr/refaults-sideA.dat)" "1000 0 2000" "second interval" &&
	assert_eq "$(awk "\$1 == \"0.105\" || \$1 == \"0.955\" { print \$3 }" keepr/refaults-sideA.dat | sort -u)" "NaN" "uncovered bins" &&
	# r3 alone: 900 pages from 0.25 to 0.85 s; its bins sum to that
	assert_eq "$(awk "!/^#/ && \$3 != \"NaN\" { s += \$3 * 0.01 } END { printf \"%.0f\", s }" keepr/refaults-c.dat)" 900 "sum of r3" &&
	grep -q "10 ms bins, the same in every run" keepr/refaults-a.dat &&
	# one run a side keeps the rate per sampling interval
	vmscope plot r1.db refaults --compare r3.db -o r13.png --keep keep13 2> r13.err &&
	assert_eq "$(awk "\$1 ~ /^[0-9]/ { print \$1, \$3 }" keep13/refaults-b.dat)" "0.4 1000
0.7 2000" "intervals of r3"
'

# ratio of groups: vmstat samples at 0.25 and 0.75 s of the run (4 KiB pages,
# 256 a MiB), the file LRU 1024 + 1024 pages (8 MiB) throughout; slab
# reclaimable 256 -> 768 pages in run 1, 512 in run 2. At the middle of the
# 10 ms bin [0.50, 0.51), 0.505 s, run 1 has 256 + 512 * 0.51 = 517.12 pages
# = 2.02 MiB (ratio 517.12/2048 = 0.2525), run 2 2 MiB (0.25): mean 2.01,
# lo 2, hi 2.02; ratio mean 0.25125. Bins outside [0.25, 0.75] are NaN.
test_expect_success GNUPLOT,SQLITE3 'ratio of groups: each size read at the middle of the same bins in every run' '
	for f in 1 2; do
		cp k.db q$f.db &&
		sql q$f.db "
			INSERT INTO counter_sample VALUES (1, 1250000000, 1250000100, '"'vmstat'"', '"''"');
			INSERT INTO counter_sample VALUES (2, 1750000000, 1750000100, '"'vmstat'"', '"''"');
			INSERT INTO counter_value SELECT id, '"'nr_slab_unreclaimable'"', 0 FROM counter_sample;
			INSERT INTO counter_value SELECT id, '"'nr_active_file'"', 1024 FROM counter_sample;
			INSERT INTO counter_value SELECT id, '"'nr_inactive_file'"', 1024 FROM counter_sample;
			INSERT INTO counter_value VALUES (1, '"'nr_slab_reclaimable'"', CASE $f WHEN 1 THEN 256 ELSE 512 END);
			INSERT INTO counter_value VALUES (2, '"'nr_slab_reclaimable'"', CASE $f WHEN 1 THEN 768 ELSE 512 END);" &&
		vmscope upgrade -q --rederive q$f.db || return 1
	done &&
	vmscope plot q1.db q2.db ratio --compare q1.db -o gq.png --keep keepq 2> gq.err &&
	grep -q "data_a=.ratio-sideA.dat.; data_b=.ratio-sideB.dat.;.* spread=1;" gq.err &&
	# columns: time, slab_reclaimable (2) ... ratio_reclaimable (5); lo_ 5 further, hi_ 10
	assert_eq "$(awk "\$1 == \"0.505\" { print \$2, \$7, \$12, \$5 }" keepq/ratio-sideA.dat)" "2.01 2 2.02 0.25125" "bin at 0.505 s" &&
	assert_eq "$(awk "\$1 == \"0.105\" || \$1 == \"0.805\" { print \$2 }" keepq/ratio-sideA.dat | sort -u)" "NaN" "bins no samples bracket" &&
	# one run a side: one row per sample, as before
	vmscope plot q1.db ratio --compare q2.db -o q12.png --keep keepq12 2> q12.err &&
	assert_eq "$(awk "\$1 ~ /^[0-9]/ { print \$1, \$2 }" keepq12/ratio-a.dat)" "0.25 1
0.75 3" "samples of q1"
'

test_expect_success GNUPLOT 'groups: a kind that does not take them says so; one run a side is the overlay' '
	rc=0 &&
	vmscope plot k.db k3.db kswapd --compare k5.db -o gk.png 2> gk.err || rc=$? &&
	assert_eq "$rc" 2 "exit status" &&
	grep -q "the kswapd figure does not take groups (scan, stalls, refaults and ratio do)" gk.err &&
	vmscope plot k.db scan --compare k5.db -o one.png --keep keep1 2> one.err &&
	grep -q "data_a=.scan-a.dat.; data_b=.scan-b.dat.;.* spread=0;" one.err
'

test_done
