# SPDX-License-Identifier: GPL-2.0
# scan.gp - pages scanned and reclaimed per second (vmscope plot DB scan), per
# reclaimer as the kernel names them (kswapd, direct, memcg, node,
# khugepaged; 'other': inside no traced reclaim call), file against anon,
# from the mm_vmscan_lru_shrink_inactive events summed per time bin. Data:
# scan-a.dat (scan-b.dat), block 0, pages/s: column 1 time_s; for reclaimer
# k (1 kswapd, 2 direct, 3 memcg, 4 node, 5 khugepaged, 6 other) scanned file
# in column 2k, anon in 2k + 1, reclaimed file in 2k + 12, anon in 2k + 13.
# Variables: see common.gp; scan_kinds, the reclaimers that scanned in some
# run ('1 3': kswapd and memcg), chooses the lines drawn. With spread=1 the
# files are the sides of a group figure (scan-sideA.dat, scan-sideB.dat: the
# mean of each column, then its minimum and its maximum over the side's runs,
# 24 columns further each): each mean is drawn with a band from min to max.

if (!exists("kind")) kind = 'scan'
load 'common.gp'
if (!exists("scan_kinds")) scan_kinds = '1 2 3 4 5 6'
bins = exists("binw_ms") ? sprintf(' (%g ms bins)', binw_ms) : ''
reclaimers = 'kswapd direct memcg node khugepaged other'
nk = words(scan_kinds)
# series s = 1 .. 2 nk: reclaimer word(scan_kinds, (s + 1) / 2), file (odd s) or anon (even s)
rk(s) = int(word(scan_kinds, (s + 1) / 2))
scol(s) = 2 * rk(s) + (s + 1) % 2
sname(s) = word(reclaimers, rk(s)).(s % 2 ? '_file' : '_anon')

set multiplot layout 2,1 title 'Inactive LRU scanning (mm_vmscan_lru_shrink_inactive)'.bins
if (!exists("spread")) spread = 0
yl = 'scanned pages/s'; @YLABEL
set yrange [0:1<*]
set style fill transparent solid 0.2 noborder
if (spread) {
	plot for [i = 1:nruns] for [s = 1:2 * nk] word(files, i) index 0 \
		using 1:(column(scol(s) + 24)):(column(scol(s) + 48)) with filledcurves \
		lt lt_of((s - 1) % 8 + 1, i) notitle, \
	     for [i = 1:nruns] for [s = 1:2 * nk] word(files, i) index 0 using 1:(column(scol(s))) \
		with lines lt lt_of((s - 1) % 8 + 1, i) title t(sname(s))
} else {
	plot for [i = 1:nruns] for [s = 1:2 * nk] word(files, i) index 0 using 1:(column(scol(s))) \
		with lines lt lt_of((s - 1) % 8 + 1, i) title t(sname(s))
}
yl = 'reclaimed pages/s'; @YLABEL
if (spread) {
	plot for [i = 1:nruns] for [s = 1:2 * nk] word(files, i) index 0 \
		using 1:(column(scol(s) + 36)):(column(scol(s) + 60)) with filledcurves \
		lt lt_of((s - 1) % 8 + 1, i) notitle, \
	     for [i = 1:nruns] for [s = 1:2 * nk] word(files, i) index 0 using 1:(column(scol(s) + 12)) \
		with lines lt lt_of((s - 1) % 8 + 1, i) title t(sname(s))
} else {
	plot for [i = 1:nruns] for [s = 1:2 * nk] word(files, i) index 0 using 1:(column(scol(s) + 12)) \
		with lines lt lt_of((s - 1) % 8 + 1, i) title t(sname(s))
}
unset multiplot
