# SPDX-License-Identifier: GPL-2.0
# refaults.gp - refault and activation rates (vmscope plot DB refaults):
# workingset_refault_anon/_file and workingset_activate_anon/_file per
# second, from the change between consecutive /proc/vmstat samples, drawn at
# the middle of each interval. Data: refaults-a.dat (refaults-b.dat), block 0:
#   1 time_s  2 refault_anon  3 refault_file  4 activate_anon
#   5 activate_file   (pages/s)
# Variables: see common.gp.

if (!exists("kind")) kind = 'refaults'
load 'common.gp'

set title 'Refaults and activations (/proc/vmstat workingset_*)'
yl = 'pages/s'; @SINGLE; @YLABEL
set yrange [0:1<*]
plot for [i = 1:nruns] word(files, i) index 0 using 1:2 with linespoints lt lt_of(1, i) title t('refault anon'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:3 with linespoints lt lt_of(2, i) title t('refault file'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:4 with linespoints lt lt_of(3, i) title t('activate anon'), \
     for [i = 1:nruns] word(files, i) index 0 using 1:5 with linespoints lt lt_of(4, i) title t('activate file')
