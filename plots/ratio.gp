# SPDX-License-Identifier: GPL-2.0
# ratio.gp - slab against page cache over time (vmscope plot DB ratio).
# Top: nr_slab_reclaimable, nr_slab_unreclaimable and the file LRU
# (nr_active_file + nr_inactive_file) in MiB; bottom: the ratios
# nr_slab_reclaimable / file LRU and all slab / file LRU, from each
# /proc/vmstat sample. Data: ratio-a.dat (ratio-b.dat), block 0:
#   1 time_s  2 slab_reclaimable_MiB  3 slab_unreclaimable_MiB
#   4 file_lru_MiB  5 ratio_reclaimable  6 ratio_all
# Variables: see common.gp.

if (!exists("kind")) kind = 'ratio'
load 'common.gp'

set multiplot layout 2,1 title 'Slab against page cache (/proc/vmstat samples)'
yl = 'MiB'; @YLABEL
set yrange [0:1<*]
plot for [i = 1:nruns] word(files, i) index 0 using 1:2 with lines lt lt_of(1, i) title t('slab reclaimable'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:3 with lines lt lt_of(2, i) title t('slab unreclaimable'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:4 with lines lt lt_of(3, i) title t('file LRU (active+inactive)')
yl = 'ratio (pages/pages)'; @YLABEL
set yrange [0:0.01<*]
plot for [i = 1:nruns] word(files, i) index 0 using 1:5 with lines lt lt_of(4, i) title t('slab reclaimable / file LRU'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:6 with lines lt lt_of(5, i) title t('all slab / file LRU')
unset multiplot
