# SPDX-License-Identifier: GPL-2.0
# stalls.gp - how long reclaim made tasks wait (vmscope plot DB stalls): the
# distribution of the durations of direct, memcg and node reclaim calls
# (reclaim_interval) and of reclaim throttling (mm_vmscan_throttled,
# writeback_congest_wait usec_delayed), as episodes per logarithmic bin (5
# per decade); the longest episode of each series is labelled with its task.
# A series with no episode in either run is left out.
# Data: stalls-a.dat (stalls-b.dat):
#   block 0: 1 center_us  2 bin_lo_us  3 bin_hi_us  4 direct  5 memcg
#            6 node  7 throttled   (episodes)
#   block 1: 1 duration_us  2 label_y (above the episode's bin, labels
#            stacked)  3 label  4 series (1-4): drawn in the series' colour
# Variables: see common.gp (xmin, xmax are microseconds here). With spread=1
# the files are the sides of a group figure (stalls-sideA.dat, -sideB.dat:
# block 0's columns as the mean over the side's runs, then their minimum and
# their maximum, 6 columns further each, and no block 1): each mean is drawn
# with a band from min to max, without the task labels.

if (!exists("kind")) kind = 'stalls'
load 'common.gp'

# the series with at least one episode, as a list of numbers 1-4
present = ''
do for [k = 1:4] {
	m = 0
	do for [i = 1:nruns] {
		stats word(files, i) index 0 using (column(k + 3)) nooutput
		if (STATS_max > m) { m = STATS_max }
	}
	if (m > 0) { present = present.' '.k }
}
if (words(present) == 0) { present = '1 2 3 4' }
series(j) = int(word(present, j))

set title 'Reclaim and throttling latency (reclaim_interval, mm_vmscan_throttled)'
set logscale x
set xtics ('1us' 1, '10us' 10, '100us' 100, '1ms' 1e3, '10ms' 1e4, '100ms' 1e5, '1s' 1e6, \
	   '10s' 1e7, '100s' 1e8, '1000s' 1e9)
set xlabel 'duration (log scale)'
yl = 'episodes per bin'; @SINGLE; @YLABEL
set yrange [0:1<*]
if (!exists("spread")) spread = 0
if (spread) {
	set style fill transparent solid 0.2 noborder
	plot for [i = 1:nruns] for [j = 1:words(present)] word(files, i) index 0 \
		using 1:(column(series(j) + 9)):(column(series(j) + 15)) with filledcurves \
		lt lt_of(series(j), i) notitle, \
	     for [i = 1:nruns] for [j = 1:words(present)] word(files, i) index 0 \
		using 1:(column(series(j) + 3)) with linespoints lt lt_of(series(j), i) \
		title t(word('direct memcg node throttled', series(j)))
} else {
	plot for [i = 1:nruns] for [j = 1:words(present)] word(files, i) index 0 \
		using 1:(column(series(j) + 3)) with linespoints lt lt_of(series(j), i) \
		title t(word('direct memcg node throttled', series(j))), \
	     for [i = 1:nruns] word(files, i) index 1 using 1:2:3:(lt_of($4, i)) with labels right \
		offset 0, 0.5 textcolor variable notitle
}
