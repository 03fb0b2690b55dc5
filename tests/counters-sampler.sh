#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# counters-sampler.sh - the counters a benchmark harness keeps beside a trace,
# in the mmtests monitor format: each of proc-vmstat, proc-meminfo,
# proc-zoneinfo and (with a memcg) memory.stat is a log of frames, a
# `time: SECONDS` line (epoch seconds, with nanoseconds) followed by a copy
# of the file. Written for the tests of `vmscope import --counters`; not
# mmtests code.
# Usage: counters-sampler.sh OUTDIR INTERVAL_S [MEMCG_DIR]
# Samples until SIGTERM or SIGINT, then gzips proc-vmstat and proc-zoneinfo
# (the other two stay plain, so both forms are read) and exits 0.
set -u
out=$1 interval=$2 memcg=${3:-}
stop=0
trap 'stop=1' TERM INT
frame() {	# frame FILE LOG: append one frame
	{ echo "time: $(date +%s.%N)"; cat "$1"; } >>"$2"
}
while [ $stop = 0 ]; do
	frame /proc/vmstat "$out/proc-vmstat-run"
	frame /proc/meminfo "$out/proc-meminfo-run"
	frame /proc/zoneinfo "$out/proc-zoneinfo-run"
	[ -z "$memcg" ] || frame "$memcg/memory.stat" "$out/memory.stat-run"
	sleep "$interval"
done
gzip -f "$out/proc-vmstat-run" "$out/proc-zoneinfo-run"
exit 0
