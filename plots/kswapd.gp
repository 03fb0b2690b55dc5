# SPDX-License-Identifier: GPL-2.0
# kswapd.gp - a timeline of reclaim (vmscope plot DB kswapd). One row per
# NUMA node: when its kswapd was awake (kswapd_wake to kswapd_sleep), the
# runs that reclaimed nothing (red) with the failure episodes they form (a
# red bar under the row), and node_unreclaimable from /proc/zoneinfo (grey
# band). Beneath, one row per task with the longest time in direct, memcg or
# node reclaim, with each reclaim call; the rest share a last row.
# Data: kswapd-a.dat (kswapd-b.dat; its rows continue below run A's):
#   block 0 rows:         1 y  2 label
#   block 1 kswapd runs:  1 y  2 t0_s  3 t1_s  4 reclaimed_pages  5 failed (1, 0, -1 unknown)
#                         6 streak (kswapd_failures after the run)
#   block 2 failure streaks: 1 y  2 t0_s  3 t1_s  4 runs  5 hopeless_s (NaN: not reached)
#   block 3 node_unreclaimable: 1 y  2 t0_s  3 t1_s
#   block 4 reclaim calls: 1 y  2 t0_s  3 t1_s  4 kind (1 direct, 2 memcg, 3 softlimit, 4 node)
#   block 5 the window:    1 from_s  2 to_s
# The legend names each run's colours (kswapd awake, reclaim calls); red and
# grey mean the same in both. Variables: see common.gp, and zoom (1: draw the
# zoom panel), zmin, zmax (its x range, s), zruns (the runs of the streak
# it shows) and hopeless_runs (16): a failure streak too short to see at the window's scale is drawn
# again beneath, with the kswapd_failures count climbing run by run to the
# hopeless threshold.

if (!exists("kind")) kind = 'kswapd'
if (!exists("zoom")) zoom = 0
if (!exists("hopeless_runs")) hopeless_runs = 16
load 'common.gp'

# the x range: given, or (run by hand) the window in the data
if (!exists("xmin")) {
	stats data_a index 5 using 1 nooutput; xmin = STATS_min
	stats data_a index 5 using 2 nooutput; xmax = STATS_max
}
set xrange [xmin:xmax]

# rows are numbered 0, -1, -2, ... from the top, over both runs
ylow = 0
do for [i = 1:nruns] {
	stats word(files, i) index 0 using 1 nooutput
	if (STATS_min < ylow) { ylow = STATS_min }
}
set yrange [ylow - 0.6 : 0.6]
set ytics scale 0
set grid xtics noytics
set offsets 0, 0, 0, 0

# a box at least one pixel (one character) wide, so that short calls show
minhalf = (xmax - xmin) / (text ? 2 * (width - 20) : 2 * (width - 150))
hw(a, b) = (b - a) / 2 > minhalf ? (b - a) / 2 : minhalf
mid(a, b) = (a + b) / 2

if (zoom) {
	set multiplot
	set size 1, 0.64
	set origin 0, 0.36
	# where the zoom panel looks: a frame around it on the timeline
	set object 1 rect from zmin, graph 0 to zmax, graph 1 fillstyle empty border lc rgb '#8b0000' dashtype 2 back
	ztext = sprintf('%d failed kswapd runs: zoom below', zruns)
	if (zmax - xmin > (xmax - xmin) / 2) {
		set label 4 ztext at zmin, graph 0.96 right offset -1, 0 textcolor rgb '#8b0000' front
	} else {
		set label 4 ztext at zmax, graph 0.96 left offset 1, 0 textcolor rgb '#8b0000' front
	}
}
set title 'kswapd and reclaim calls over time'
set key below maxcols 2
set ylabel ''
set style fill solid 1.0 noborder
plot for [i = 1:nruns] word(files, i) index 0 using (NaN):1:ytic(2) notitle, \
     for [i = 1:nruns] word(files, i) index 3 using (mid($2, $3)):1:(hw($2, $3)):(0.5) \
	with boxxyerror fillstyle solid 0.25 noborder lc rgb '#7f7f7f' title (i == 1 ? 'node_unreclaimable' : ''), \
     for [i = 1:nruns] word(files, i) index 1 using (mid($2, $3)):1:(hw($2, $3)):(0.3) \
	with boxxyerror lc rgb word(colors, 2 * i - 1) title t('kswapd awake'), \
     for [i = 1:nruns] word(files, i) index 1 using (mid($2, $3)):($5 == 1 ? $1 : NaN):(hw($2, $3)):(0.3) \
	with boxxyerror lc rgb '#d62728' title (i == 1 ? 'kswapd run reclaimed 0' : ''), \
     for [i = 1:nruns] word(files, i) index 2 using (mid($2, $3)):($1 - 0.42):(hw($2, $3)):(0.06) \
	with boxxyerror lc rgb '#8b0000' title (i == 1 ? 'failure episode' : ''), \
     for [i = 1:nruns] word(files, i) index 4 using (mid($2, $3)):1:(hw($2, $3)):(0.3) \
	with boxxyerror lc rgb word(colors, 2 * i + 3) title t('reclaim calls')

if (zoom) {
	unset object 1
	unset label 4
	set size 1, 0.36
	set origin 0, 0
	set title sprintf('zoom: %.3f s to %.3f s, the failure streak of %d kswapd runs%s', zmin, zmax, zruns, \
		zruns >= hopeless_runs ? ': node hopeless' : '')
	set xrange [zmin:zmax]
	unset key
	set xlabel ''
	set ytics nomirror
	# only the kswapd rows (labels kswapd:nodeN, A:kswapd:nodeN), the top of the timeline
	klow = 0
	do for [i = 1:nruns] {
		stats word(files, i) index 0 using (strstrt(strcol(2), 'kswapd:') > 0 ? $1 : NaN) nooutput
		if (STATS_records > 0 && STATS_min < klow) { klow = STATS_min }
	}
	set yrange [klow - 0.6 : 0.6]
	set y2range [0:hopeless_runs + 2]
	if (!text) {
		# kswapd_failures after each run, against the hopeless threshold
		set y2tics 0, hopeless_runs / 4, hopeless_runs textcolor rgb '#8b0000'
		set y2label 'kswapd_failures' textcolor rgb '#8b0000'
		set arrow 2 from zmin, second hopeless_runs to zmax, second hopeless_runs nohead dashtype 2 lc rgb '#8b0000'
	}
	zhalf = (zmax - zmin) / (text ? 2 * (width - 20) : 2 * (width - 150))
	zw(a, b) = (b - a) / 2 > zhalf ? (b - a) / 2 : zhalf
	plot for [i = 1:nruns] word(files, i) index 0 using (NaN):1:ytic(2) notitle, \
	     for [i = 1:nruns] word(files, i) index 3 using (mid($2, $3)):1:(zw($2, $3)):(0.5) \
		with boxxyerror fillstyle solid 0.25 noborder lc rgb '#7f7f7f' notitle, \
	     for [i = 1:nruns] word(files, i) index 1 using (mid($2, $3)):1:(zw($2, $3)):(0.3) \
		with boxxyerror lc rgb word(colors, 2 * i - 1) notitle, \
	     for [i = 1:nruns] word(files, i) index 1 using (mid($2, $3)):($5 == 1 ? $1 : NaN):(zw($2, $3)):(0.3) \
		with boxxyerror lc rgb '#d62728' notitle, \
	     for [i = 1:nruns] word(files, i) index 1 using (text ? NaN : $2):1:(0):(0.35) with vectors nohead lc rgb '#000000' notitle, \
	     for [i = 1:nruns] word(files, i) index 1 using (text ? NaN : $3):($5 >= 0 ? $6 : NaN) axes x1y2 with steps lw 2 lc rgb '#8b0000' notitle, \
	     for [i = 1:nruns] word(files, i) index 2 using (mid($2, $3)):($1 - 0.42):(zw($2, $3)):(0.06) \
		with boxxyerror lc rgb '#8b0000' notitle, \
	     for [i = 1:nruns] word(files, i) index 2 using (text ? NaN : $5):($1 + 0.38):(sprintf('node hopeless after %d runs', $4)) \
		with labels left offset 0.5, 0 textcolor rgb '#8b0000' notitle
	unset multiplot
}
