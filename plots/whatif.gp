# SPDX-License-Identifier: GPL-2.0
# whatif.gp - what `vmscope whatif` simulated against what was recorded
# (vmscope plot DB whatif, after vmscope whatif DB ...), the scenario whatif
# wrote last. Top: file refaults, cumulative; middle: pages reclaimed
# (file + anon), cumulative; bottom: file and anon LRU sizes.
# Data: whatif-a.dat (whatif-b.dat):
#   block 0: 1 time_s  2 recorded  3 baseline  4 whatif  (file refaults, pages)
#   block 1: 1 time_s  2 recorded  3 baseline  4 whatif  (pages reclaimed)
#   block 2: 1 time_s  2 file recorded  3 file whatif  4 anon recorded  5 anon whatif (MiB)
# Variables: see common.gp.

if (!exists("kind")) kind = 'whatif'
load 'common.gp'

set multiplot layout 3,1 title 'whatif: recorded against simulated (baseline: own knobs; whatif: the changes)'
yl = 'file refaults'; @YLABEL
set yrange [0:1<*]
plot for [i = 1:nruns] word(files, i) index 0 using 1:2 with lines lt lt_of(1, i) title t('recorded'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:3 with lines lt lt_of(2, i) title t('baseline'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:4 with lines lt lt_of(3, i) title t('whatif')
yl = 'pages reclaimed'; @YLABEL
plot for [i = 1:nruns] word(files, i) index 1 using 1:2 with lines lt lt_of(1, i) title t('recorded'), \
     for [i = 1:nruns] word(files, i) index 1 using 1:3 with lines lt lt_of(2, i) title t('baseline'), \
     for [i = 1:nruns] word(files, i) index 1 using 1:4 with lines lt lt_of(3, i) title t('whatif')
yl = 'LRU MiB'; @YLABEL
plot for [i = 1:nruns] word(files, i) index 2 using 1:2 with lines lt lt_of(1, i) title t('file recorded'), \
     for [i = 1:nruns] word(files, i) index 2 using 1:3 with lines lt lt_of(3, i) title t('file whatif'), \
     for [i = 1:nruns] word(files, i) index 2 using 1:4 with lines lt lt_of(4, i) title t('anon recorded'), \
     for [i = 1:nruns] word(files, i) index 2 using 1:5 with lines lt lt_of(5, i) title t('anon whatif')
unset multiplot
