#!/bin/sh
# record-bench.sh - CPU cost of `vmscope record` against `trace-cmd record`
# on the same reclaim workload, in the same run, and lost events at that
# event rate. Each recorder records the workload alone (alternating, ROUNDS
# times each). Reported, as medians: the CPU each recorder uses while the
# workload runs (vmscope only copies ring-buffer pages then, as trace-cmd
# does; the target is a ratio <= 1), and the CPU of the whole job up to
# decoded events: vmscope record including its decoding after the stop,
# against trace-cmd record plus `trace-cmd report` of its file. Last, the
# sparse-mmap scenario (the highest event rate of the scenarios) is recorded
# once with vmscope, for the losses at its peak rate (100 ms buckets).
# Needs root, tracefs, the cgroup v1 memory controller, trace-cmd.
# Usage: sh bench/record-bench.sh [ROUNDS]   (default 5)
set -eu
ROUNDS=${1:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
VMSCOPE=$top/vmscope
work=$(mktemp -d /var/tmp/vmscope-record-bench.XXXXXX)
CG=/sys/fs/cgroup/memory/vmscope-record-bench-$$
TCI=vmscope-record-bench-$$
cleanup() {
	rmdir "$CG" 2>/dev/null || true
	rmdir /sys/kernel/tracing/instances/$TCI 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

[ "$(id -u)" = 0 ] || { echo "record-bench: needs root" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "record-bench: needs trace-cmd (make deps)" >&2; exit 1; }
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing
[ -x "$VMSCOPE" ] || { echo "record-bench: build vmscope first (make)" >&2; exit 1; }
mkdir "$CG"
echo $((16 * 1024 * 1024)) > "$CG/memory.limit_in_bytes"
for i in 1 2; do
	dd if=/dev/urandom of="$work/f$i" bs=1M count=96 status=none
done
sync

# The workload: two readers in a 16 MiB memcg, each reading its 96 MiB file
# twice from a cold cache: memcg reclaim all the time.
workload() {
	for i in 1 2; do dd if="$work/f$i" iflag=nocache count=0 status=none; done
	sh -c "echo \$\$ > $CG/cgroup.procs
		for r in 1 2; do cat $work/f1 > /dev/null & cat $work/f2 > /dev/null; wait; done"
}

# the last line: time prefixes 'Command exited with non-zero status N' when it does
cpu_of() { tail -n 1 "$1" | awk '{ print $1 + $2 }'; }

# peak_rate DB: the most events in a 100 ms bucket, as events per second
peak_rate() {
	q=$(sqlite3 "$1" "SELECT group_concat('SELECT ts FROM \"' || tbl || '\"', ' UNION ALL ')
		FROM (SELECT DISTINCT tbl FROM event_table)")
	sqlite3 "$1" "SELECT MAX(n) * 10 FROM (SELECT ts / 100000000 AS b, COUNT(*) AS n FROM ($q) GROUP BY b)"
}
lost_of() {
	sqlite3 "$1" "SELECT COALESCE(MAX(s), 0) FROM (SELECT SUM(count) AS s FROM lost_events GROUP BY source)"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

: > "$work/v.peak"; : > "$work/v.cpu"; : > "$work/t.cpu"; : > "$work/v.cap"; : > "$work/t.rep"; : > "$work/v.ev"; : > "$work/t.ev"; : > "$work/v.lost"; : > "$work/t.lost"
for round in $(seq "$ROUNDS"); do
	# vmscope: recording starts, the workload runs, Ctrl-C
	rm -f "$work/v.db"
	/usr/bin/time -f '%U %S' -o "$work/cpu" "$VMSCOPE" record -o "$work/v.db" 2> "$work/v.err" &
	rec=$!
	sleep 1
	workload
	sleep 0.5
	# /usr/bin/time ignores SIGINT: signal the recorder it runs
	pkill -INT -P "$rec"
	wait "$rec" || true
	cpu_of "$work/cpu" >> "$work/v.cpu"
	# "CPU time: X s while recording, Y s decoding after it"
	sed -n 's/.*CPU time: \([0-9.]*\) s while recording.*/\1/p' "$work/v.err" >> "$work/v.cap"
	grep -q . "$work/v.cap" || { cat "$work/v.err" >&2; echo "record-bench: no CPU line from vmscope record" >&2; exit 1; }
	sqlite3 "$work/v.db" "SELECT events FROM run" >> "$work/v.ev"
	lost_of "$work/v.db" >> "$work/v.lost"
	peak_rate "$work/v.db" >> "$work/v.peak"

	# trace-cmd, in its own instance, the same events (vmscan, writeback), same workload
	rm -f "$work/t.dat"
	/usr/bin/time -f '%U %S' -o "$work/cpu" trace-cmd record --no-filter -q -d -C mono -b 16384 \
		-B $TCI -e vmscan -e writeback -o "$work/t.dat" >/dev/null 2>&1 &
	rec=$!
	sleep 1
	workload
	sleep 0.5
	pkill -INT -P "$rec"
	wait "$rec" || true
	rmdir /sys/kernel/tracing/instances/$TCI 2>/dev/null || true
	cpu_of "$work/cpu" >> "$work/t.cpu"
	/usr/bin/time -f '%U %S' -o "$work/cpu" trace-cmd report "$work/t.dat" > /dev/null 2>&1 || true
	cpu_of "$work/cpu" >> "$work/t.rep"
	"$VMSCOPE" import -q -f "$work/t.dat" -o "$work/t.db"
	sqlite3 "$work/t.db" "SELECT events FROM run" >> "$work/t.ev"
	lost_of "$work/t.db" >> "$work/t.lost"
	echo "round $round: vmscope $(tail -1 "$work/v.cap") s CPU recording, $(tail -1 "$work/v.cpu") s in all," \
	     "$(tail -1 "$work/v.ev") events, lost $(tail -1 "$work/v.lost");" \
	     "trace-cmd $(tail -1 "$work/t.cpu") s CPU recording, $(tail -1 "$work/t.rep") s report," \
	     "$(tail -1 "$work/t.ev") events, lost $(tail -1 "$work/t.lost")"
done
vc=$(median < "$work/v.cap"); tc=$(median < "$work/t.cpu")
va=$(median < "$work/v.cpu"); tr=$(median < "$work/t.rep")
ve=$(median < "$work/v.ev"); te=$(median < "$work/t.ev")
vl=$(median < "$work/v.lost"); tl=$(median < "$work/t.lost")
# trace-cmd record plus its report, per round, then the median
paste "$work/t.cpu" "$work/t.rep" | awk '{ print $1 + $2 }' > "$work/t.all"
ta=$(median < "$work/t.all")
echo "vmscope record:   median CPU $vc s while recording, $va s with decoding; $ve events, lost $vl"
echo "trace-cmd record: median CPU $tc s while recording, $ta s with trace-cmd report; $te events, lost $tl"
awk -v v="$va" -v t="$ta" 'BEGIN { if (t > 0) printf "to decoded events, vmscope/trace-cmd median CPU ratio: %.2f\n", v / t }'
awk -v v="$vc" -v t="$tc" 'BEGIN { if (t > 0) printf "while recording, vmscope/trace-cmd median CPU ratio: %.2f (target <= 1)\n", v / t }'

# The scenarios' highest event rate: sparse-mmap (random faults on a sparse
# file in a 32 MiB memcg), recorded by vmscope through its scenario runner.
make -s -C "$top/samples" >/dev/null
if "$top/samples/run-scenario" sparse-mmap --short -q -o "$work/peak.db" -w "$work" >/dev/null 2>"$work/peak.err"; then
	echo "peak event rate (100 ms buckets): $(sort -n "$work/v.peak" | tail -1)/s in this workload, lost $vl;" \
	     "$(peak_rate "$work/peak.db")/s in the sparse-mmap scenario, lost $(lost_of "$work/peak.db")"
else
	cat "$work/peak.err" >&2
	echo "record-bench: the sparse-mmap scenario failed" >&2
	exit 1
fi
