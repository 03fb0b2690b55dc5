# SPDX-License-Identifier: GPL-2.0
# ratio.gp - slab against page cache over time (vmscope plot DB ratio).
# Top: nr_slab_reclaimable, nr_slab_unreclaimable and the file LRU
# (nr_active_file + nr_inactive_file) in MiB; bottom: the ratios
# nr_slab_reclaimable / file LRU and all slab / file LRU, from each
# /proc/vmstat sample. Data: ratio-a.dat (ratio-b.dat), block 0:
#   1 time_s  2 slab_reclaimable_MiB  3 slab_unreclaimable_MiB
#   4 file_lru_MiB  5 ratio_reclaimable  6 ratio_all
# With spread=1 the files are the sides of a group figure (ratio-sideA.dat,
# ratio-sideB.dat: per time bin, the mean of each column over the side's
# runs, then its minimum (columns 7-11) and its maximum (12-16)): each mean
# is drawn with a band from min to max.
# Variables: see common.gp.

if (!exists("kind")) kind = 'ratio'
load 'common.gp'
if (!exists("spread")) spread = 0
bins = exists("binw_ms") ? sprintf(', %g ms bins', binw_ms) : ''
names = 'slab_reclaimable slab_unreclaimable file_LRU_(active+inactive) slab_reclaimable_/_file_LRU all_slab_/_file_LRU'
sname(s) = word(names, s)
set style fill transparent solid 0.2 noborder

set multiplot layout 2,1 title 'Slab against page cache (/proc/vmstat samples'.bins.')'
yl = 'MiB'; @YLABEL
set yrange [0:1<*]
if (spread) {
	plot for [i = 1:nruns] for [s = 1:3] word(files, i) index 0 \
		using 1:(column(s + 6)):(column(s + 11)) with filledcurves lt lt_of(s, i) notitle, \
	     for [i = 1:nruns] for [s = 1:3] word(files, i) index 0 using 1:(column(s + 1)) \
		with lines lt lt_of(s, i) title t(sname(s))
} else {
	plot for [i = 1:nruns] word(files, i) index 0 using 1:2 with lines lt lt_of(1, i) title t('slab reclaimable'), \
	     for [i = 1:nruns] word(files, i) index 0 using 1:3 with lines lt lt_of(2, i) title t('slab unreclaimable'), \
	     for [i = 1:nruns] word(files, i) index 0 using 1:4 with lines lt lt_of(3, i) title t('file LRU (active+inactive)')
}
yl = 'ratio (pages/pages)'; @YLABEL
set yrange [0:0.01<*]
if (spread) {
	plot for [i = 1:nruns] for [s = 4:5] word(files, i) index 0 \
		using 1:(column(s + 6)):(column(s + 11)) with filledcurves lt lt_of(s, i) notitle, \
	     for [i = 1:nruns] for [s = 4:5] word(files, i) index 0 using 1:(column(s + 1)) \
		with lines lt lt_of(s, i) title t(sname(s))
} else {
	plot for [i = 1:nruns] word(files, i) index 0 using 1:5 with lines lt lt_of(4, i) title t('slab reclaimable / file LRU'), \
	     for [i = 1:nruns] word(files, i) index 0 using 1:6 with lines lt lt_of(5, i) title t('all slab / file LRU')
}
unset multiplot
