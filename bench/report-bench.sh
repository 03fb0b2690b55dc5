#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# report-bench.sh - time `vmscope report DB` (every section, and each section
# alone) on a database of at least 10,000,000 real events, against the
# 3-second target of issue 4 (run by `make bench`; see bench/README.md).
#
# 1. The database: bench/work/report-10m.db (gitignored), made once by
#    importing bench/work/vmscan-10m.dat, which bench/import-bench.sh records
#    with more passes of its memcg workload (needs root, tracefs, a memory
#    cgroup and trace-cmd; VMSCOPE_BENCH_PASSES=40 gave 11.9M events). The
#    database is made again when the binary does not read it (another
#    schema version).
# 2. Timing: a warm-up, then VMSCOPE_BENCH_RUNS rounds of the whole report
#    and of each section (stdout to /dev/null), each round with a reference
#    run in the same round, `sqlite3 DB 'SELECT total(ts) FROM <largest event
#    table>'` (one pass over its rows); medians of wall time, and the ratio
#    report/reference.
#
# Settings (environment):
#   VMSCOPE_BENCH_RUNS=5          timed rounds (after one warm-up)
#   VMSCOPE_BENCH_DB=FILE         time this database instead
#   VMSCOPE_BENCH_MIN_EVENTS=N    fewest events the made database may have (10000000)
#   VMSCOPE_BENCH_PASSES=40       reader passes when recording the trace
#   VMSCOPE_BENCH_BIN=PATH        time this vmscope binary instead of ./vmscope
#   VMSCOPE_BENCH_STRICT=1        exit 1 when the whole report is over 3 s
#
# Exit status: 0 benchmark done; 1 it could not run (or STRICT and slow).

set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
VMSCOPE=${VMSCOPE_BENCH_BIN:-$ROOT/vmscope}
WORK=$ROOT/bench/work
RUNS=${VMSCOPE_BENCH_RUNS:-5}
MIN_EVENTS=${VMSCOPE_BENCH_MIN_EVENTS:-10000000}
TARGET=3
DAT=$WORK/vmscan-10m.dat
SCRATCH=""

die() {
	echo "report-bench: $*" >&2
	exit 1
}

cleanup() {
	[ -n "$SCRATCH" ] && rm -rf "$SCRATCH"
	[ -n "${PARTIAL:-}" ] && rm -f "$PARTIAL"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

now() {
	date +%s.%N
}

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2];
		      else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

[ -x "$VMSCOPE" ] || die "$VMSCOPE is not built (make all) or not executable"
command -v sqlite3 > /dev/null || die "sqlite3 is not installed (Debian package sqlite3)"
case $RUNS in
''|*[!0-9]*|0) die "VMSCOPE_BENCH_RUNS must be a positive number" ;;
esac

if [ -n "${VMSCOPE_BENCH_DB:-}" ]; then
	DB=$VMSCOPE_BENCH_DB
	[ -f "$DB" ] || die "$DB does not exist"
	made="given by VMSCOPE_BENCH_DB"
else
	DB=$WORK/report-10m.db
	if [ ! -s "$DB" ] || ! "$VMSCOPE" info "$DB" > /dev/null 2>&1; then
		if [ ! -s "$DAT" ]; then
			echo "report-bench: recording $DAT (>= $MIN_EVENTS events) with bench/import-bench.sh" >&2
			VMSCOPE_BENCH_PASSES=${VMSCOPE_BENCH_PASSES:-40} VMSCOPE_BENCH_OUT=$DAT \
				VMSCOPE_BENCH_MIN_EVENTS=$MIN_EVENTS VMSCOPE_BENCH_MAKE_ONLY=1 \
				sh bench/import-bench.sh >&2 || die "could not make $DAT"
		fi
		PARTIAL=$DB.partial.$$
		t0=$(now)
		"$VMSCOPE" import "$DAT" -o "$PARTIAL" -f -q || die "vmscope import of $DAT failed"
		mv "$PARTIAL" "$DB" || exit 1
		PARTIAL=""
		made="imported now from $DAT in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
	else
		made="cached ($(date -u -r "$DB" +%Y-%m-%dT%H:%M:%SZ)); delete it to import $DAT again"
	fi
fi

EVENTS=$(sqlite3 "$DB" "SELECT events FROM run") || die "$DB is not a vmscope database"
[ "$EVENTS" -ge "$MIN_EVENTS" ] ||
	echo "report-bench: WARNING: $DB has $EVENTS events, fewer than $MIN_EVENTS" >&2
# the largest event table: the reference scans it once
BIG=$(sqlite3 "$DB" "SELECT tbl FROM event_bucket GROUP BY tbl ORDER BY SUM(n) DESC LIMIT 1" 2>/dev/null)
[ -n "$BIG" ] || BIG=mm_vmscan_lru_isolate
SECTIONS=$("$VMSCOPE" report --list | awk '{ print $1 }')
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/vmscope-report-bench.XXXXXX") || exit 1

echo "vmscope report benchmark"
echo "  database:  $DB ($(wc -c < "$DB") bytes, $EVENTS events; $made)"
echo "  rounds:    1 warm-up (dropped) + $RUNS timed; each with the reference"
echo "  reference: sqlite3 DB 'SELECT total(ts) FROM $BIG'"
echo "  load:      $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) before ($(nproc 2>/dev/null || echo ?) CPUs)"

# Wall seconds of "$@" with stdout to /dev/null; fails (in its subshell) when "$@" does.
wall() {
	t0=$(now)
	"$@" > /dev/null 2> "$SCRATCH/err" || { cat "$SCRATCH/err" >&2; die "failed: $*"; }
	awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'
}

# One line per target: "all" then every section. Times are kept in files.
round=0
while [ $round -le "$RUNS" ]; do
	ref=$(wall sqlite3 "$DB" "SELECT total(ts) FROM $BIG") || exit 1
	all=$(wall "$VMSCOPE" report "$DB") || exit 1
	if [ $round -gt 0 ]; then
		echo "$ref" >> "$SCRATCH/ref"
		echo "$all" >> "$SCRATCH/all"
	fi
	for s in $SECTIONS; do
		t=$(wall "$VMSCOPE" report "$DB" "$s") || exit 1
		[ $round -gt 0 ] && echo "$t" >> "$SCRATCH/s-$s"
	done
	[ $round = 0 ] && label="warm-up" || label="run $round"
	printf '%-8s  report %6.3f s   reference %6.3f s\n' "$label" "$all" "$ref"
	round=$((round + 1))
done

# shellcheck disable=SC2046
REF=$(median $(cat "$SCRATCH/ref"))
ALL=$(median $(cat "$SCRATCH/all"))
echo
printf '%-16s %10s %10s\n' "section" "median s" "x ref"
for s in $SECTIONS; do
	# shellcheck disable=SC2046
	m=$(median $(cat "$SCRATCH/s-$s"))
	printf '%-16s %10s %10s\n' "$s" "$m" "$(awk -v a="$m" -v r="$REF" 'BEGIN { printf "%.2f", a / r }')"
done
printf '%-16s %10s %10s\n' "(all)" "$ALL" "$(awk -v a="$ALL" -v r="$REF" 'BEGIN { printf "%.2f", a / r }')"
printf '%-16s %10s %10s\n' "(reference)" "$REF" "1.00"
MET=$(awk -v x="$ALL" -v t="$TARGET" 'BEGIN { print (x < t) ? "met" : "NOT met" }')
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) after"
echo "target report < $TARGET s on >= $MIN_EVENTS events: $MET"
echo "report median wall: $ALL s ($EVENTS events; reference $REF s, ratio $(awk -v a="$ALL" -v r="$REF" 'BEGIN { printf "%.2f", a / r }'))"

if [ -n "${VMSCOPE_BENCH_STRICT:-}" ] && [ "$MET" != met ]; then
	exit 1
fi
exit 0
