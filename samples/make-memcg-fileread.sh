#!/bin/sh
# make-memcg-fileread.sh - how samples/traces/memcg-fileread.dat was made:
# a shell in a memcg limited to 48 MiB reads a 300 MiB file, writes 100 MiB
# of dirty data and reads the file again, while trace-cmd records the vmscan
# and writeback events in its own buffer instance. Needs root, tracefs,
# cgroup v1 memory, trace-cmd. Usage: make-memcg-fileread.sh OUT.dat
set -eu
out=${1:?usage: make-memcg-fileread.sh OUT.dat}
cg=/sys/fs/cgroup/memory/vmscope-sample-$$
work=$(mktemp -d)
tc=""
cleanup() {
	[ -n "$tc" ] && kill -INT "$tc" 2>/dev/null && wait "$tc" 2>/dev/null
	rmdir "$cg" 2>/dev/null || true
	rmdir /sys/kernel/tracing/instances/vmscope-sample 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing
dd if=/dev/urandom of="$work/big" bs=1M count=300 status=none
mkdir "$cg"
echo $((48 * 1024 * 1024)) > "$cg/memory.limit_in_bytes"
sync
echo 3 > /proc/sys/vm/drop_caches
# The flags that work on these VMs: some ftrace files refuse writes.
trace-cmd record --no-filter -q -d -C mono -b 32768 -B vmscope-sample \
	-e vmscan -e writeback -o "$out" >/dev/null 2>&1 &
tc=$!
sleep 3
sh -c "echo \$\$ > $cg/cgroup.procs; cat $work/big > /dev/null;
	dd if=/dev/zero of=$work/dirty bs=1M count=100 status=none; sync;
	cat $work/big > /dev/null"
sleep 1
kill -INT "$tc"
wait "$tc" || true	# trace-cmd may exit 1 after writing a complete file
tc=""
echo "wrote $out"
