#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# import-bench.sh - time `vmscope import` of a real trace-cmd .dat of at
# least 1,000,000 vmscan/writeback events against `trace-cmd report` of the
# same file (run by `make bench`; see bench/README.md).
#
# 1. Makes the .dat once and caches it in bench/work/ (gitignored): memcg
#    reclaim under a small limit while several readers re-read files bigger
#    than the limit and a writer dirties pages with small writes, recorded
#    with trace-cmd. Needs root, tracefs and a memory cgroup. The event count
#    is verified with `trace-cmd report`; below 1,000,000 it refuses to run.
# 2. Runs the import and the report interleaved, a warm-up round (dropped)
#    plus VMSCOPE_BENCH_RUNS timed rounds, and prints the medians of the wall
#    time, the import's user+sys CPU, events/s and the ratio import/report.
#
# Settings (environment):
#   VMSCOPE_BENCH_RUNS=5       timed rounds (a warm-up round is added)
#   VMSCOPE_BENCH_DAT=FILE     benchmark this .dat instead of making one
#   VMSCOPE_BENCH_REGEN=1      make the cached .dat again
#   VMSCOPE_BENCH_STRICT=1     exit 1 when the ratio is above the 0.5 target
#   VMSCOPE_BENCH_LIMIT_MB=16  memcg limit while recording
#   VMSCOPE_BENCH_PASSES=5     times each reader reads its file
#   VMSCOPE_BENCH_BIN=PATH     time this vmscope binary instead of ./vmscope
#   VMSCOPE_BENCH_BEFORE=PATH  also time this vmscope binary (e.g. a build of
#                              main) in the same rounds, the three in turn, and
#                              print its ratio too: before and after measured
#                              on the same load
#   VMSCOPE_BENCH_OUT=FILE     cache the made .dat here (bench/report-bench.sh
#                              uses it for its larger trace)
#   VMSCOPE_BENCH_MIN_EVENTS=N the fewest events the trace may have (1000000)
#   VMSCOPE_BENCH_MAKE_ONLY=1  make (or check) the cached .dat, then stop
#   VMSCOPE_BENCH_TEXT=1       import the `trace-cmd report` text of the .dat
#                              (made once, cached beside it as .dat.txt)
#                              instead of the .dat; the reference stays
#                              trace-cmd report of the .dat (issue 10: text
#                              parsing may be slower, the ratio is stated)
#   VMSCOPE_BENCH_WORKLOAD=smallfiles  the writeback-heavy trace instead: the
#                              smallfiles workload (samples/) creating files
#                              in a 256 MB memcg, then sync, -e vmscan -e
#                              writeback, at least 4,000,000 events, cached as
#                              bench/work/writeback-4m.dat; target 0.35
#
# Besides the times it prints the database's size against the .dat's and
# the import's peak RSS (median of the rounds).
#
# Exit status: 0 benchmark done; 1 it could not run (or STRICT and slow).

set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
VMSCOPE=${VMSCOPE_BENCH_BIN:-$ROOT/vmscope}
WORK=$ROOT/bench/work
WORKLOAD=${VMSCOPE_BENCH_WORKLOAD:-readers}
case $WORKLOAD in
readers) MIN_EVENTS=${VMSCOPE_BENCH_MIN_EVENTS:-1000000} TARGET=0.5 DEFAULT_DAT=$WORK/vmscan-1m.dat ;;
smallfiles) MIN_EVENTS=${VMSCOPE_BENCH_MIN_EVENTS:-4000000} TARGET=0.35 DEFAULT_DAT=$WORK/writeback-4m.dat ;;
*) echo "import-bench: VMSCOPE_BENCH_WORKLOAD is 'readers' or 'smallfiles', not '$WORKLOAD'" >&2; exit 1 ;;
esac
SMALLFILES=${VMSCOPE_BENCH_FILES:-300000}	# files per smallfiles round
RUNS=${VMSCOPE_BENCH_RUNS:-5}
LIMIT_MB=${VMSCOPE_BENCH_LIMIT_MB:-16}
PASSES=${VMSCOPE_BENCH_PASSES:-5}
READERS=4		# parallel readers, one file each
FILE_MB=64		# size of each reader's file: 4x the limit
WRITE_MB=128		# written in 4 KiB writes: writeback events
TRACING=/sys/kernel/tracing

# State the cleanup undoes; each is empty when there is nothing to undo.
TC_PID=""		# trace-cmd record
CG=""			# memcg made for the workload
GEN_DIR=""		# workload files
GEN_DAT=""		# .dat being recorded (renamed into the cache when good)
MOUNTED_TRACEFS=""
SCRATCH=""		# timing files
DB=""			# database the import runs write

die() {
	echo "import-bench: $*" >&2
	exit 1
}

note() {
	echo "import-bench: $*" >&2
}

# Kill every task in the memcg (only the workload started here is in it), then remove it.
remove_cg() {
	if [ -z "$CG" ] || [ ! -d "$CG" ]; then
		CG=""
		return 0
	fi
	tries=0
	while [ -s "$CG/cgroup.procs" ] && [ $tries -lt 50 ]; do
		for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do
			kill -KILL "$p" 2>/dev/null
		done
		sleep 0.1
		tries=$((tries + 1))
	done
	tries=0
	until rmdir "$CG" 2>/dev/null || [ $tries -ge 50 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	[ -d "$CG" ] && note "could not remove memcg $CG"
	CG=""
}

stop_trace_cmd() {
	[ -n "$TC_PID" ] || return 0
	kill -INT "$TC_PID" 2>/dev/null
	wait "$TC_PID" 2>/dev/null
	TC_PID=""
}

cleanup() {
	remove_cg
	stop_trace_cmd
	[ -n "$GEN_DIR" ] && rm -rf "$GEN_DIR"
	[ -n "$GEN_DAT" ] && rm -f "$GEN_DAT" "$GEN_DAT".cpu*
	[ -n "$SCRATCH" ] && rm -rf "$SCRATCH"
	[ -n "$DB" ] && rm -f "$DB" "$DB-journal" "$DB-wal" "$DB.before" "$DB.before-journal"
	[ -n "$MOUNTED_TRACEFS" ] && umount "$TRACING" 2>/dev/null
	GEN_DIR="" GEN_DAT="" SCRATCH="" MOUNTED_TRACEFS=""
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 129' HUP

now() {
	date +%s.%N
}

# Print $2 - $1 (seconds).
elapsed() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'
}

# Median of the numbers given as arguments.
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2];
		      else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Count the events of .dat $1 with trace-cmd report; print
# "TOTAL VMSCAN WRITEBACK OTHER". Event lines carry the CPU as "[NNN]" then
# "SECONDS: EVENT:"; header lines (cpus=N, buffer names) do not.
count_events() {
	trace-cmd report "$1" 2>/dev/null | awk '
		match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+: [A-Za-z0-9_]+:/) {
			n++
			ev = substr($0, RSTART, RLENGTH)
			sub(/:$/, "", ev); sub(/.*: /, "", ev)
			if (ev ~ /^mm_vmscan_|^mm_shrink_slab_/) vm++
			else if (ev ~ /^(writeback_|wbc_|balance_dirty|global_dirty|bdi_|folio_wait|sb_|track_foreign|flush_foreign|inode_)/) wb++
			else other++
		}
		END { printf "%d %d %d %d\n", n, vm, wb, other }'
}

# ---------------------------------------------------------------- the trace

# Make a memcg limited to LIMIT_MB, set CG; cgroup v1 (memory controller) or v2.
make_cg() {
	name=vmscope-bench.$$
	if [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
		# v1: below our own memcg when we may, so the workload stays in our hierarchy
		own=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
		parent=/sys/fs/cgroup/memory$own
		[ -d "$parent" ] && [ -w "$parent" ] || parent=/sys/fs/cgroup/memory
		CG=$parent/$name
		mkdir "$CG" || { CG=""; return 1; }
		echo $((LIMIT_MB << 20)) > "$CG/memory.limit_in_bytes" || return 1
	elif grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
			echo +memory > /sys/fs/cgroup/cgroup.subtree_control || return 1
		CG=/sys/fs/cgroup/$name
		mkdir "$CG" || { CG=""; return 1; }
		echo $((LIMIT_MB << 20)) > "$CG/memory.max" || return 1
	else
		note "no memory cgroup controller (v1 or v2) found"
		return 1
	fi
}

# Run "$@" inside the memcg, in the background; its pid in $!.
in_cg() {
	sh -c 'echo $$ > "$1/cgroup.procs" || exit 1; shift; exec "$@"' sh "$CG" "$@" &
}

# The smallfiles workload: create $1 files in the memcg, then write them back (sync).
run_smallfiles() {
	in_cg sh -c '"$1" --dir "$2" --files "$3" --no-stat > /dev/null && sync' \
		sh "$ROOT/samples/workloads/smallfiles" "$GEN_DIR" "$1"
	wait $! || fail=1
}

# Record one trace of the workload into $GEN_DAT with $1 passes per reader
# (smallfiles: $1 times SMALLFILES files).
record_once() {
	passes=$1
	[ "$WORKLOAD" = smallfiles ] && LIMIT_MB=256
	make_cg || die "cannot make a memory cgroup with a ${LIMIT_MB} MB limit"
	rm -f "$GEN_DAT" "$GEN_DAT".cpu*
	trace-cmd record --no-filter -q -d -C mono -b 32768 -e vmscan -e writeback \
		-o "$GEN_DAT" > "$GEN_DIR/record.log" 2>&1 &
	TC_PID=$!
	# ready once the events are on
	tries=0
	until [ "$(cat "$TRACING/events/vmscan/enable" 2>/dev/null)" = 1 ] &&
	      [ "$(cat "$TRACING/tracing_on" 2>/dev/null)" = 1 ]; do
		kill -0 "$TC_PID" 2>/dev/null || { cat "$GEN_DIR/record.log" >&2; die "trace-cmd record failed"; }
		[ $tries -ge 200 ] && die "trace-cmd record did not start tracing in 20 s"
		sleep 0.1
		tries=$((tries + 1))
	done
	sleep 1

	t0=$(now)
	fail=0
	if [ "$WORKLOAD" = smallfiles ]; then
		run_smallfiles $((SMALLFILES * passes))
		t1=$(now)
		sleep 1
		stop_trace_cmd
		remove_cg
		find "$GEN_DIR" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
		[ $fail = 0 ] || die "the smallfiles workload failed (memcg OOM? see dmesg)"
		[ -s "$GEN_DAT" ] || { cat "$GEN_DIR/record.log" >&2; die "trace-cmd wrote no $GEN_DAT"; }
		WORKLOAD_SECONDS=$(elapsed "$t0" "$t1")
		return 0
	fi
	pids=""
	i=1
	while [ $i -le $READERS ]; do
		in_cg sh -c 'n=0; while [ $n -lt "$2" ]; do cat "$1" > /dev/null || exit 1; n=$((n + 1)); done' \
			sh "$GEN_DIR/r$i" "$passes"
		pids="$pids $!"
		i=$((i + 1))
	done
	in_cg dd if=/dev/zero of="$GEN_DIR/w" bs=4k count=$((WRITE_MB * 256)) conv=fsync status=none
	pids="$pids $!"
	for p in $pids; do
		wait "$p" || fail=1
	done
	t1=$(now)
	sleep 1		# let the flusher and reclaim settle, then stop
	stop_trace_cmd
	remove_cg
	rm -f "$GEN_DIR/w"
	[ $fail = 0 ] || die "a workload process failed (memcg OOM? see dmesg)"
	[ -s "$GEN_DAT" ] || { cat "$GEN_DIR/record.log" >&2; die "trace-cmd wrote no $GEN_DAT"; }
	WORKLOAD_SECONDS=$(elapsed "$t0" "$t1")
}

make_dat() {
	[ "$(id -u)" = 0 ] || die "making the trace needs root (tracefs, memory cgroup); run as root or set VMSCOPE_BENCH_DAT"
	command -v trace-cmd > /dev/null || die "trace-cmd is not installed (Debian package trace-cmd)"
	if [ ! -d "$TRACING/events" ]; then
		mount -t tracefs nodev "$TRACING" || die "cannot mount tracefs on $TRACING"
		MOUNTED_TRACEFS=1
	fi
	[ -d "$TRACING/events/vmscan" ] || die "this kernel has no vmscan trace events"
	mkdir -p "$WORK" || exit 1
	GEN_DIR=$WORK/gen.$$
	GEN_DAT=$WORK/recording.$$.dat
	mkdir "$GEN_DIR" || exit 1
	start=$(now)
	if [ "$WORKLOAD" = smallfiles ]; then
		[ -x "$ROOT/samples/workloads/smallfiles" ] || die "samples/workloads/smallfiles is not built (make samples)"
		note "making $DAT: smallfiles creating $SMALLFILES files of 4 KiB in a 256 MB memcg, then sync"
		PASSES=1
	else
		note "making $DAT: $READERS readers x $PASSES passes over ${FILE_MB} MB files and ${WRITE_MB} MB of 4 KiB writes in a ${LIMIT_MB} MB memcg"
	fi
	# O_DIRECT: the files start uncached, so every read is charged to the memcg
	i=1
	[ "$WORKLOAD" = smallfiles ] && i=$((READERS + 1))
	while [ $i -le $READERS ]; do
		dd if=/dev/zero of="$GEN_DIR/r$i" bs=1M count=$FILE_MB oflag=direct status=none ||
			die "cannot write $GEN_DIR/r$i"
		i=$((i + 1))
	done
	passes=$PASSES
	attempt=1
	while :; do
		record_once "$passes"
		# shellcheck disable=SC2046 # four numbers
		set -- $(count_events "$GEN_DAT")
		note "attempt $attempt: $1 events in ${WORKLOAD_SECONDS} s of workload ($passes passes)"
		[ "$1" -ge $MIN_EVENTS ] && break
		[ $attempt -ge 3 ] && die "only $1 events after $attempt attempts; need $MIN_EVENTS"
		passes=$((passes * 2))
		attempt=$((attempt + 1))
	done
	mv "$GEN_DAT" "$DAT" || exit 1
	GEN_DAT=""
	rm -rf "$GEN_DIR"
	GEN_DIR=""
	cat > "$DAT.meta" <<EOF
events=$1
vmscan=$2
writeback=$3
other=$4
make_seconds=$(elapsed "$start" "$(now)")
workload_seconds=$WORKLOAD_SECONDS
workload=$(if [ "$WORKLOAD" = smallfiles ]; then echo "smallfiles: $((SMALLFILES * passes)) files of 4 KiB then sync, memcg limit 256 MB"; else echo "$READERS readers x $passes passes over ${FILE_MB} MB files + ${WRITE_MB} MB of 4 KiB writes, memcg limit ${LIMIT_MB} MB"; fi)
kernel=$(uname -r)
made_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)
EOF
}

meta() {
	sed -n "s/^$1=//p" "$DAT.meta" 2>/dev/null
}

# ---------------------------------------------------------------- main

[ -x "$VMSCOPE" ] || die "$VMSCOPE is not built (make all) or not executable"
command -v trace-cmd > /dev/null || die "trace-cmd is not installed (Debian package trace-cmd)"
case $RUNS in
''|*[!0-9]*|0) die "VMSCOPE_BENCH_RUNS must be a positive number" ;;
esac

if [ -n "${VMSCOPE_BENCH_DAT:-}" ]; then
	DAT=$VMSCOPE_BENCH_DAT
	[ -f "$DAT" ] || die "$DAT does not exist"
	made="given by VMSCOPE_BENCH_DAT"
else
	DAT=${VMSCOPE_BENCH_OUT:-$DEFAULT_DAT}
	if [ -n "${VMSCOPE_BENCH_REGEN:-}" ] || [ ! -s "$DAT" ] || [ ! -s "$DAT.meta" ]; then
		make_dat
		made="made now in $(meta make_seconds) s ($(meta workload_seconds) s of workload)"
	else
		made="cached, made $(meta made_at) in $(meta make_seconds) s ($(meta workload_seconds) s of workload); VMSCOPE_BENCH_REGEN=1 remakes it"
	fi
fi

# shellcheck disable=SC2046 # four numbers
set -- $(count_events "$DAT")
EVENTS=$1
[ "$EVENTS" -ge $MIN_EVENTS ] ||
	die "$DAT has $EVENTS events by trace-cmd report; the benchmark needs at least $MIN_EVENTS"

if [ -n "${VMSCOPE_BENCH_MAKE_ONLY:-}" ]; then
	echo "$DAT: $EVENTS events by trace-cmd report ($made)"
	exit 0
fi

# what the import reads: the .dat, or its text made by trace-cmd report
INPUT=$DAT
if [ -n "${VMSCOPE_BENCH_TEXT:-}" ]; then
	INPUT=$DAT.txt
	if [ ! -s "$INPUT" ] || [ "$DAT" -nt "$INPUT" ]; then
		note "making $INPUT: trace-cmd report of $DAT"
		trace-cmd report "$DAT" > "$INPUT.part" 2>/dev/null && mv "$INPUT.part" "$INPUT" ||
			{ rm -f "$INPUT.part"; die "trace-cmd report $DAT failed"; }
	fi
fi

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/vmscope-bench.XXXXXX") || exit 1
mkdir -p "$WORK" || exit 1
DB=$WORK/import-bench.$$.db

echo "vmscope import benchmark"
echo "  file:     $DAT ($(wc -c < "$DAT") bytes)"
echo "  events:   $EVENTS by trace-cmd report (vmscan $2, writeback $3, other $4)"
echo "  trace:    $made"
[ -s "$DAT.meta" ] && [ -z "${VMSCOPE_BENCH_DAT:-}" ] && echo "  workload: $(meta workload)"
echo "  rounds:   1 warm-up (dropped) + $RUNS timed, import and report interleaved"
[ "$INPUT" = "$DAT" ] || echo "  text:     $INPUT ($(wc -c < "$INPUT") bytes), the trace-cmd report text of the file"
echo "  import:   $VMSCOPE import $( [ "$INPUT" = "$DAT" ] && echo FILE || echo TEXT ) -o $DB -f -q"
echo "  report:   trace-cmd report FILE > /dev/null"
echo "  load:     $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) before ($(nproc 2>/dev/null || echo ?) CPUs; other work skews the times)"

if [ -x /usr/bin/time ]; then
	TIMER="/usr/bin/time -f %U_%S_%M -o $SCRATCH/cpu"
else
	TIMER=""
	note "/usr/bin/time is missing (Debian package time): no CPU times"
fi

# Run "$@" once; set WALL and CPU_USER, CPU_SYS (or "?"). Return its status.
timed() {
	rm -f "$SCRATCH/cpu"
	t0=$(now)
	$TIMER "$@"
	rc=$?
	t1=$(now)
	WALL=$(elapsed "$t0" "$t1")
	CPU_USER="?" CPU_SYS="?" RSS_KB="?"
	if [ -s "$SCRATCH/cpu" ]; then
		cpu=$(tail -n 1 "$SCRATCH/cpu")
		CPU_USER=${cpu%%_*} RSS_KB=${cpu##*_}
		CPU_SYS=${cpu#*_} CPU_SYS=${CPU_SYS%_*}
	fi
	return $rc
}

BEFORE=${VMSCOPE_BENCH_BEFORE:-}
[ -z "$BEFORE" ] || [ -x "$BEFORE" ] || die "VMSCOPE_BENCH_BEFORE: $BEFORE is not an executable"
[ -n "$BEFORE" ] && echo "  before:   $BEFORE import ... (timed in the same rounds)"

# The import of $BEFORE: its times in BW, BCPU.
run_before() {
	rm -f "$DB.before" "$DB.before-journal"
	timed "$BEFORE" import "$INPUT" -o "$DB.before" -f -q 2> "$SCRATCH/before.err" ||
		{ cat "$SCRATCH/before.err" >&2; die "$BEFORE import failed"; }
	BW=$WALL BCPU="?"
	[ "$CPU_USER" != "?" ] && BCPU=$(awk -v u="$CPU_USER" -v s="$CPU_SYS" 'BEGIN { print u + s }')
}

run_import() {
	rm -f "$DB" "$DB-journal" "$DB-wal"
	timed "$VMSCOPE" import "$INPUT" -o "$DB" -f -q 2> "$SCRATCH/import.err"
	rc=$?
	if [ $rc != 0 ]; then
		cat "$SCRATCH/import.err" >&2
		die "vmscope import exited $rc"
	fi
	IW=$WALL IU=$CPU_USER IS=$CPU_SYS IRSS=$RSS_KB
	DB_BYTES=$(wc -c < "$DB")
}

run_report() {
	timed trace-cmd report "$DAT" > /dev/null 2> "$SCRATCH/report.err" ||
		{ cat "$SCRATCH/report.err" >&2; die "trace-cmd report failed"; }
	RW=$WALL RU=$CPU_USER RS=$CPU_SYS
}

BEFORE_WALL="" BEFORE_CPU="" IMPORT_WALL="" IMPORT_CPU="" IMPORT_USER="" IMPORT_SYS="" IMPORT_RSS="" REPORT_WALL="" REPORT_CPU="" REPORT_USER="" REPORT_SYS=""
round=0
while [ $round -le "$RUNS" ]; do
	# alternate the order so that neither always runs on a cache the other warmed
	if [ -n "$BEFORE" ]; then
		# the three in turn: each goes first, second and third as often
		case $((round % 3)) in
		0) run_import; run_before; run_report ;;
		1) run_before; run_report; run_import ;;
		*) run_report; run_import; run_before ;;
		esac
	elif [ $((round % 2)) = 0 ]; then
		run_import
		run_report
	else
		run_report
		run_import
	fi
	if [ $round = 0 ]; then
		if [ -s "$SCRATCH/import.err" ]; then
			echo "  note:     the import printed on stderr:"
			sed 's/^/            /' "$SCRATCH/import.err"
		fi
		if command -v sqlite3 > /dev/null; then
			stored=$(sqlite3 "$DB" 'SELECT events FROM run WHERE id = 1' 2>/dev/null)
			[ "$stored" = "$EVENTS" ] ||
				echo "  WARNING:  the import stored ${stored:-?} events, trace-cmd report shows $EVENTS"
		fi
		label="warm-up"
	else
		label="run $round "
		IMPORT_WALL="$IMPORT_WALL $IW" REPORT_WALL="$REPORT_WALL $RW"
		[ -n "$BEFORE" ] && BEFORE_WALL="$BEFORE_WALL $BW" BEFORE_CPU="$BEFORE_CPU $BCPU"
		[ "$IRSS" != "?" ] && IMPORT_RSS="$IMPORT_RSS $IRSS"
		if [ "$IU" != "?" ]; then
			IMPORT_USER="$IMPORT_USER $IU" IMPORT_SYS="$IMPORT_SYS $IS"
			IMPORT_CPU="$IMPORT_CPU $(awk -v u="$IU" -v s="$IS" 'BEGIN { print u + s }')"
		fi
		if [ "$RU" != "?" ]; then
			REPORT_USER="$REPORT_USER $RU" REPORT_SYS="$REPORT_SYS $RS"
			REPORT_CPU="$REPORT_CPU $(awk -v u="$RU" -v s="$RS" 'BEGIN { print u + s }')"
		fi
	fi
	printf '%-8s  import %7.3f s wall (cpu %s user + %s sys)   report %7.3f s wall (cpu %s user + %s sys)\n' \
		"$label" "$IW" "$IU" "$IS" "$RW" "$RU" "$RS"
	[ -n "$BEFORE" ] && printf '%-8s  before %7.3f s wall (cpu %s)\n' "" "$BW" "$BCPU"
	round=$((round + 1))
done

# shellcheck disable=SC2086
{
	MI=$(median $IMPORT_WALL)
	MR=$(median $REPORT_WALL)
	if [ -n "$IMPORT_CPU" ]; then
		MIC=$(median $IMPORT_CPU) MIU=$(median $IMPORT_USER) MIS=$(median $IMPORT_SYS)
	else
		MIC="?" MIU="?" MIS="?"
	fi
	if [ -n "$REPORT_CPU" ]; then
		MRC=$(median $REPORT_CPU) MRU=$(median $REPORT_USER) MRS=$(median $REPORT_SYS)
	else
		MRC="?" MRU="?" MRS="?"
	fi
}
RATIO=$(awk -v i="$MI" -v r="$MR" 'BEGIN { printf "%.2f", i / r }')
IRATE=$(awk -v n="$EVENTS" -v t="$MI" 'BEGIN { printf "%.0f", n / t }')
RRATE=$(awk -v n="$EVENTS" -v t="$MR" 'BEGIN { printf "%.0f", n / t }')
MET=$(awk -v x="$RATIO" -v t="$TARGET" 'BEGIN { print (x <= t) ? "met" : "NOT met" }')

echo
echo "import: median $MI s wall, $MIC s cpu (user $MIU + sys $MIS), $IRATE events/s"
echo "report: median $MR s wall, $MRC s cpu (user $MRU + sys $MRS), $RRATE events/s"
if [ "$MIC" != "?" ] && [ "$MRC" != "?" ]; then
	echo "import/report median cpu ratio: $(awk -v i="$MIC" -v r="$MRC" 'BEGIN { printf "%.2f", i / r }')"
fi
DAT_BYTES=$(wc -c < "$DAT")
echo "database: $DB_BYTES bytes, $(awk -v d="$DB_BYTES" -v t="$DAT_BYTES" 'BEGIN { printf "%.1f", d / t }')x the .dat ($DAT_BYTES bytes), $(awk -v d="$DB_BYTES" -v n="$EVENTS" 'BEGIN { printf "%.0f", d / n }') bytes per event"
# shellcheck disable=SC2086
[ -n "$IMPORT_RSS" ] && echo "import peak RSS: median $(median $IMPORT_RSS) KB"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) after"
if [ -n "$BEFORE" ]; then
	# shellcheck disable=SC2086
	MB=$(median $BEFORE_WALL)
	# shellcheck disable=SC2086
	case $BEFORE_CPU in *'?'*) MBC="?" ;; *) MBC=$(median $BEFORE_CPU) ;; esac
	echo "before: median $MB s wall, $MBC s cpu ($BEFORE)"
	echo "before/report median time ratio: $(awk -v i="$MB" -v r="$MR" 'BEGIN { printf "%.2f", i / r }')$( [ "$MBC" != "?" ] && [ "$MRC" != "?" ] && awk -v i="$MBC" -v r="$MRC" 'BEGIN { printf ", cpu ratio %.2f", i / r }')"
fi
if [ "$INPUT" = "$DAT" ]; then
	echo "target import/report <= $TARGET: $MET"
	echo "import/report median time ratio: $RATIO (import $MI s, report $MR s, $EVENTS events)"
else
	echo "text import: no target (the ratio is stated: parsing text does more than decoding the .dat)"
	echo "text import/report median time ratio: $RATIO (import of the text $MI s, trace-cmd report of the .dat $MR s, $EVENTS events)"
	MET=met
fi

if [ -n "${VMSCOPE_BENCH_STRICT:-}" ] && [ "$MET" != met ]; then
	exit 1
fi
exit 0
