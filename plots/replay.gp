# SPDX-License-Identifier: GPL-2.0
# replay.gp - where replayed policies part from the recorded kernel over time
# (vmscope plot DB replay, after vmscope replay DB). Top: decisions rebuilt
# per time bin; bottom: per policy, the decisions it would have taken
# differently. Data: replay-a.dat (replay-b.dat), block 0:
#   1 time_s  2 decisions  3.. one column per policy (header: its name)
# Variables: see common.gp; npolicies = number of policy columns.

if (!exists("kind")) kind = 'replay'
load 'common.gp'
if (!exists("npolicies")) npolicies = 1

set multiplot layout 2,1 title 'Replay: decisions and where policies differ from the recorded kernel'
yl = 'decisions per bin'; @YLABEL
set yrange [0:1<*]
plot for [i = 1:nruns] word(files, i) index 0 using 1:2 with steps lt lt_of(1, i) title t('decisions')
yl = 'differing decisions per bin'; @YLABEL
set yrange [0:1<*]
plot for [i = 1:nruns] for [c = 3:2 + npolicies] word(files, i) index 0 using 1:c with steps \
	lt lt_of(c - 1, i) title columnhead(c)
unset multiplot
