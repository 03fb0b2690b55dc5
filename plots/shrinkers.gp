# SPDX-License-Identifier: GPL-2.0
# shrinkers.gp - objects scanned and freed per second by the top shrinkers
# (vmscope plot DB shrinkers), from the mm_shrink_slab_start/_end pairs
# summed per time bin; a shrinker is its scan function, all its instances
# added up. Data: shrinkers-a.dat (shrinkers-b.dat), block 0:
#   1 time_s, then two columns per shrinker: NAME:scanned/s NAME:freed/s
# (objects/s; the names are in the header row). Variables: see common.gp.

if (!exists("kind")) kind = 'shrinkers'
load 'common.gp'
bins = exists("binw_ms") ? sprintf(' (%g ms bins)', binw_ms) : ''
stats data_a index 0 using 1 nooutput
n = (STATS_columns - 1) / 2

set multiplot layout 2,1 title 'Top shrinkers (mm_shrink_slab_start/_end)'.bins
yl = 'scanned objects/s'; @YLABEL
set yrange [0:1<*]
plot for [i = 1:nruns] for [k = 1:n] word(files, i) index 0 using 1:(column(2 * k)) with lines lt lt_of(k, i) \
	title t(columnhead(2 * k))
yl = 'freed objects/s'; @YLABEL
plot for [i = 1:nruns] for [k = 1:n] word(files, i) index 0 using 1:(column(2 * k + 1)) with lines lt lt_of(k, i) \
	title t(columnhead(2 * k + 1))
unset multiplot
