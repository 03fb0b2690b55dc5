# SPDX-License-Identifier: GPL-2.0
# scan.gp - pages scanned and reclaimed per second (vmscope plot DB scan),
# kswapd against direct reclaim (every task that is not kswapd: direct,
# memcg limit and node reclaim), file against anon, from the
# mm_vmscan_lru_shrink_inactive events summed per time bin. Data:
# scan-a.dat (scan-b.dat), block 0, pages/s:
#   1 time_s  2 kswapd_file_scanned  3 kswapd_anon_scanned
#   4 direct_file_scanned  5 direct_anon_scanned  6 kswapd_file_reclaimed
#   7 kswapd_anon_reclaimed  8 direct_file_reclaimed  9 direct_anon_reclaimed
# Variables: see common.gp.

if (!exists("kind")) kind = 'scan'
load 'common.gp'
bins = exists("binw_ms") ? sprintf(' (%g ms bins)', binw_ms) : ''

set multiplot layout 2,1 title 'Inactive LRU scanning (mm_vmscan_lru_shrink_inactive)'.bins
yl = 'scanned pages/s'; @YLABEL
set yrange [0:1<*]
plot for [i = 1:nruns] for [k = 1:4] word(files, i) index 0 using 1:(column(k + 1)) with lines lt lt_of(k, i) \
	title t(word('kswapd_file kswapd_anon direct_file direct_anon', k))
yl = 'reclaimed pages/s'; @YLABEL
plot for [i = 1:nruns] for [k = 1:4] word(files, i) index 0 using 1:(column(k + 5)) with lines lt lt_of(k, i) \
	title t(word('kswapd_file kswapd_anon direct_file direct_anon', k))
unset multiplot
