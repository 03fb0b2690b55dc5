# SPDX-License-Identifier: GPL-2.0
# refaults.gp - refault and activation rates (vmscope plot DB refaults):
# workingset_refault_anon/_file and workingset_activate_anon/_file per
# second, from the change between consecutive /proc/vmstat samples, drawn at
# the middle of each interval. Data: refaults-a.dat (refaults-b.dat), block 0:
#   1 time_s  2 refault_anon  3 refault_file  4 activate_anon
#   5 activate_file   (pages/s)
# With spread=1 the files are the sides of a group figure (refaults-sideA.dat,
# refaults-sideB.dat: per time bin, the mean of each column over the side's
# runs, then its minimum (columns 6-9) and its maximum (10-13)): each mean is
# drawn with a band from min to max.
# Variables: see common.gp.

if (!exists("kind")) kind = 'refaults'
load 'common.gp'
if (!exists("spread")) spread = 0
bins = exists("binw_ms") ? sprintf(', %g ms bins', binw_ms) : ''

set title 'Refaults and activations (/proc/vmstat workingset_*'.bins.')'
yl = 'pages/s'; @SINGLE; @YLABEL
set yrange [0:1<*]
names = 'refault_anon refault_file activate_anon activate_file'
sname(s) = word(names, s)
if (spread) {
	set style fill transparent solid 0.2 noborder
	plot for [i = 1:nruns] for [s = 1:4] word(files, i) index 0 \
		using 1:(column(s + 5)):(column(s + 9)) with filledcurves lt lt_of(s, i) notitle, \
	     for [i = 1:nruns] for [s = 1:4] word(files, i) index 0 using 1:(column(s + 1)) \
		with lines lt lt_of(s, i) title t(sname(s))
} else {
	plot for [i = 1:nruns] for [s = 1:4] word(files, i) index 0 using 1:(column(s + 1)) \
		with linespoints lt lt_of(s, i) title t(sname(s))
}
