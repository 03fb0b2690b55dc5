# SPDX-License-Identifier: GPL-2.0
# lru.gp - LRU list sizes and free memory against the watermarks (vmscope
# plot DB lru). Top: nr_active_anon, nr_inactive_anon, nr_active_file,
# nr_inactive_file from /proc/vmstat; bottom: free pages and the min, low and
# high watermarks from /proc/zoneinfo, every zone of every node added up.
# Data: lru-a.dat (lru-b.dat), all in MiB:
#   block 0: 1 time_s  2 active_anon  3 inactive_anon  4 active_file  5 inactive_file
#   block 1: 1 time_s  2 free  3 min  4 low  5 high  6 boost
# Variables: see common.gp.

if (!exists("kind")) kind = 'lru'
load 'common.gp'

set multiplot layout 2,1 title 'LRU lists and free memory (/proc/vmstat, /proc/zoneinfo)'
yl = 'MiB'; @YLABEL
set yrange [0:1<*]
plot for [i = 1:nruns] word(files, i) index 0 using 1:2 with lines lt lt_of(1, i) title t('active anon'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:3 with lines lt lt_of(2, i) title t('inactive anon'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:4 with lines lt lt_of(3, i) title t('active file'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:5 with lines lt lt_of(4, i) title t('inactive file')
yl = 'MiB (all zones)'; @YLABEL
plot for [i = 1:nruns] word(files, i) index 1 using 1:2 with lines lt lt_of(1, i) title t('free'), \
     for [i = 1:nruns] word(files, i) index 1 using 1:3 with lines lt lt_of(4, i) title t('min'), \
     for [i = 1:nruns] word(files, i) index 1 using 1:4 with lines lt lt_of(2, i) title t('low'), \
     for [i = 1:nruns] word(files, i) index 1 using 1:5 with lines lt lt_of(3, i) title t('high')
unset multiplot
