#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# replay-bench.sh - two benchmarks of `vmscope replay` (run by `make bench`;
# see bench/README.md).
#
# 1. The policies: decisions per second of every built-in policy, evaluated
#    in memory over the decision records of the thrash sample recording
#    (`vmscope replay --bench ROUNDS`: median of 21 rounds, each policy's
#    time as a ratio to the baseline v6.18 in the same run), with the
#    firmness asks as replay does them and with the answers only.
# 2. The whole command, as a user runs it (`vmscope replay DB > /dev/null`:
#    rebuilding the decisions, every built-in policy, storing the results,
#    the report), on recordings of 0.1M, 1M and 10M events made from the
#    thrash sample by bench/replay-scale.sh (copies of its events laid end
#    to end in time; cached in bench/work/replay-N.db). Per size: the median
#    wall time of VMSCOPE_BENCH_RUNS rounds, events/s, the peak RSS
#    (/usr/bin/time), the ratio to a reference run in the same round,
#    `sqlite3 DB 'SELECT total(ts) FROM ...'` over the reclaim event tables
#    the decisions are rebuilt from (one pass over their rows), and which
#    answers replay_result kept (replay_summary.results: all up to 250,000
#    decisions x policies, differences above). Each timed run starts from
#    the recording without replay tables (unreplay() drops what the run
#    before stored, untimed): a user's first replay. Then, per size, the seconds
#    of each part of the last round (VMSCOPE_TIMING). The last lines are the
#    growth, seconds per event at the largest size over seconds per event
#    at the smallest (1.0: linear), and with a 10M size issue 18's target
#    (10M events in <= 10 s) against its median wall time.
#
# Usage: sh bench/replay-bench.sh [ROUNDS]
# Settings (environment):
#   VMSCOPE_BENCH_RUNS=3                       timed rounds of the whole command
#   VMSCOPE_BENCH_SIZES="100000 1000000 10000000"  events of each recording
#   VMSCOPE_BENCH_BIN=PATH                     time this vmscope binary instead
#   VMSCOPE_BENCH_BEFORE=PATH                  also time this binary (e.g. a build of
#                                              an older commit) just before each round,
#                                              and print the ratios: before/after alternate
#   VMSCOPE_BENCH_ONLY=policies|command        one of the two benchmarks
# Exit status: 0 benchmark done; 1 it could not run.
set -u
ROUNDS=${1:-21}
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
VMSCOPE=${VMSCOPE_BENCH_BIN:-$ROOT/vmscope}
WORK=$ROOT/bench/work
RUNS=${VMSCOPE_BENCH_RUNS:-3}
SIZES=${VMSCOPE_BENCH_SIZES:-100000 1000000 10000000}
ONLY=${VMSCOPE_BENCH_ONLY:-}
BEFORE=${VMSCOPE_BENCH_BEFORE:-}
SCRATCH=$(mktemp -d) || exit 1
trap 'rm -rf "$SCRATCH"' EXIT
trap 'rm -rf "$SCRATCH"; exit 130' INT
trap 'rm -rf "$SCRATCH"; exit 143' TERM
TABLES="mm_vmscan_lru_shrink_inactive mm_vmscan_lru_shrink_active mm_shrink_slab_start
	mm_shrink_slab_end mm_vmscan_write_folio mm_vmscan_kswapd_wake mm_vmscan_kswapd_sleep
	mm_vmscan_direct_reclaim_begin mm_vmscan_direct_reclaim_end mm_vmscan_memcg_reclaim_begin
	mm_vmscan_memcg_reclaim_end"

die() {
	echo "replay-bench: $*" >&2
	exit 1
}

now() {
	date +%s.%N
}

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2];
		      else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Drop what a replay stored in @1 (either layout of decision: the view over
# decision_row, or the table of earlier builds), so that every timed run,
# this build's and the before binary's, starts from the recording as it was
# made: a replay of a database replayed before first drops those tables.
unreplay() {
	if [ "$(sqlite3 "$1" "SELECT type FROM sqlite_master WHERE name = 'decision'")" = view ]; then
		drop="DROP VIEW decision; DROP TABLE IF EXISTS decision_row; DROP TABLE IF EXISTS decision_json;"
	else
		drop="DROP TABLE IF EXISTS decision;"
	fi
	for t in replay_result replay_trivial replay_summary replay_count replay_trivial_count \
		replay_class_count replay_vs_baseline; do
		drop="$drop DROP TABLE IF EXISTS $t;"
	done
	sqlite3 "$1" "PRAGMA secure_delete = OFF; BEGIN; $drop COMMIT;" > /dev/null || die "cannot reset $1"
}

[ -x "$VMSCOPE" ] || die "$VMSCOPE is not built (make all) or not executable"
command -v sqlite3 > /dev/null || die "sqlite3 is not installed (Debian package sqlite3)"
[ -x /usr/bin/time ] || die "/usr/bin/time is not installed (Debian package time)"
[ -z "$BEFORE" ] || [ -x "$BEFORE" ] || die "VMSCOPE_BENCH_BEFORE: $BEFORE is not executable"
case $RUNS in
''|*[!0-9]*|0) die "VMSCOPE_BENCH_RUNS must be a positive number" ;;
esac

# thrash (the figures in bench/README.md), else the largest sample
largest=$ROOT/samples/traces/thrash.db.xz
[ -f "$largest" ] || largest=$(ls -S "$ROOT"/samples/traces/*.db.xz 2>/dev/null | head -1)
[ -n "$largest" ] || die "no sample recording in samples/traces"
xz -dc "$largest" > "$SCRATCH/sample.db" || die "cannot unpack $largest"
echo "sample: $(basename "$largest" .xz)"

if [ "$ONLY" != command ]; then
	"$VMSCOPE" replay "$SCRATCH/sample.db" --bench "$ROUNDS" || die "replay --bench failed"
fi
[ "$ONLY" = policies ] && exit 0

# the reference: one pass over the event tables the decisions are rebuilt from
reference_sql=$(for t in $TABLES; do printf '%sSELECT total(ts) FROM %s' "${sep:-}" "$t"; sep=' UNION ALL '; done)

mkdir -p "$WORK"
echo
printf '%-10s %10s %10s %12s %10s %10s %8s %12s\n' events "wall s" "cpu s" "events/s" "peak MiB" "ref s" \
	ratio results
first_per_event="" last_per_event="" phases="" befores=""
for n in $SIZES; do
	db=$WORK/replay-$n.db
	if [ ! -s "$db" ] || [ "$db" -ot bench/replay-scale.sh ] || [ "$db" -ot "$largest" ] ||
	   ! "$VMSCOPE" info "$db" > /dev/null 2>&1; then
		echo "replay-bench: making $db from $(basename "$largest" .xz)" >&2
		sh bench/replay-scale.sh "$SCRATCH/sample.db" "$n" "$db" "$VMSCOPE" ||
			die "could not make $db"
	fi
	events=$(sqlite3 "$db" "SELECT events FROM run")
	sqlite3 "$db" "$reference_sql" > /dev/null	# warm-up: the file in the page cache
	walls="" cpus="" refs="" peak=0 bwalls="" bcpus="" bpeak=0
	r=0
	while [ "$r" -lt "$RUNS" ]; do
		if [ -n "$BEFORE" ]; then
			unreplay "$db"
			b0=$(now)
			/usr/bin/time -f '%U %S %M' -o "$SCRATCH/time" "$BEFORE" replay "$db" \
				> /dev/null 2> "$SCRATCH/err" || { cat "$SCRATCH/err" >&2; die "$BEFORE replay failed on $db"; }
			b1=$(now)
			read -r user sys rss < "$SCRATCH/time"
			bwalls="$bwalls $(echo "$b1 - $b0" | bc)"
			bcpus="$bcpus $(echo "$user + $sys" | bc)"
			[ "$rss" -gt "$bpeak" ] && bpeak=$rss
		fi
		unreplay "$db"
		t0=$(now)
		sqlite3 "$db" "$reference_sql" > /dev/null || die "the reference failed on $db"
		t1=$(now)
		VMSCOPE_TIMING=1 /usr/bin/time -f '%U %S %M' -o "$SCRATCH/time" "$VMSCOPE" replay "$db" \
			> /dev/null 2> "$SCRATCH/err" || { cat "$SCRATCH/err" >&2; die "replay failed on $db"; }
		t2=$(now)
		read -r user sys rss < "$SCRATCH/time"
		walls="$walls $(echo "$t2 - $t1" | bc)"
		refs="$refs $(echo "$t1 - $t0" | bc)"
		cpus="$cpus $(echo "$user + $sys" | bc)"
		[ "$rss" -gt "$peak" ] && peak=$rss
		r=$((r + 1))
	done
	wall=$(median $walls) cpu=$(median $cpus) ref=$(median $refs)
	# an older binary prints no timing lines and stores no replay_summary
	# (and leaves a newer binary's replay_summary stale: its result_rows no longer match)
	results=$(sqlite3 "$db" "SELECT results FROM replay_summary WHERE result_rows =
		(SELECT MAX(rowid) FROM replay_result)" 2> /dev/null)
	[ -n "$results" ] || results="(every row)"
	phases="$phases$(printf '%-10s' "$events") $(awk '/^timing: / { $1 = ""; t = $NF; $NF = "";
		sub(/^ +/, ""); sub(/ +$/, ""); printf "%s %s, ", $0, t }' "$SCRATCH/err" | sed 's/, $//')
"
	per_event=$(echo "scale=12; $wall / $events" | bc)
	[ -z "$first_per_event" ] && first_per_event=$per_event first_n=$events
	last_per_event=$per_event last_n=$events
	printf '%-10s %10s %10s %12.0f %10.1f %10s %8.1f %12s\n' "$events" "$wall" "$cpu" \
		"$(echo "$events / $wall" | bc -l)" "$(echo "$peak / 1024" | bc -l)" "$ref" \
		"$(echo "$wall / $ref" | bc -l)" "$results"
	last_wall=$wall
	if [ -n "$BEFORE" ]; then
		bwall=$(median $bwalls) bcpu=$(median $bcpus)
		befores="$befores$(printf '%-10s before %s s wall, %s s CPU, %.1f MiB peak; before/after: wall %.2f, CPU %.2f' \
			"$events" "$bwall" "$bcpu" "$(echo "$bpeak / 1024" | bc -l)" \
			"$(echo "$bwall / $wall" | bc -l)" "$(echo "$bcpu / $cpu" | bc -l)")
"
	fi
done
if [ -n "$BEFORE" ]; then
	echo
	echo "before ($BEFORE, timed just before each round; medians):"
	printf '%s' "$befores"
fi
echo
echo "seconds per part, last round (VMSCOPE_TIMING):"
printf '%s' "$phases"
printf 'replay growth: %.2f (seconds per event at %s events over at %s; 1.00 is linear)\n' \
	"$(echo "$last_per_event / $first_per_event" | bc -l)" "$last_n" "$first_n"
if [ "$last_n" -ge 10000000 ]; then
	printf 'issue 18 target, %s events in <= 10 s: %s (median wall %s s)\n' "$last_n" \
		"$(echo "$last_wall <= 10" | bc | sed 's/1/met/; s/0/not met/')" "$last_wall"
fi
