#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# whatif-bench.sh - how fast `vmscope whatif` simulates a recording of 10
# million events: a synthesized one (made once, cached in bench/work/): a
# memcg of 256 MiB (no swap) whose task reads a file of 100,000 pages
# (390 MiB) in 100 rounds, every page a page-cache insertion event
# (rows of the typed table mm_filemap_add_to_page_cache, as `record` and
# import store them since schema 010), 101 memory.stat samples. Every access misses and reclaims, in
# the baseline and in the whatif run (--set memcg.limit=512M: the loop fits
# after the first round). Times ROUNDS runs (median; wall, CPU and peak
# memory from /usr/bin/time) and, in the same run, a reference: SQLite
# reading the same rows (`SELECT total(ts) FROM mm_filemap_add_to_page_cache`). Target: a
# run in <= 10 s.
#
# KIND files: the vfs model at work instead: 1,000,000 one-page files read
# in 10 rounds through the same memcg, its kernel memory sampled (1,536
# bytes of slab per file, as the first second's growth shows), whatif
# --set vm.vfs_cache_pressure=1000: every file a dentry and an inode, the
# superblock shrinker freeing them as their pages go.
#
# KIND reads: the recorded reads (mm_filemap_get_pages) at work: the same
# loop, each of its 5,000,000 insertions followed by the read of its page
# (10 million events in all): the simulation follows the recording's cache
# and each read uses its page (replay/sim-access.c).
#
# Usage: sh bench/whatif-bench.sh [ROUNDS [loop|files|reads]] (default 3 loop).
set -eu
ROUNDS=${1:-3}
KIND=${2:-loop}
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${VMSCOPE_BENCH_BIN:-$top/vmscope}
case "$KIND" in
loop)	db=${VMSCOPE_BENCH_WHATIF_DB:-$top/bench/work/whatif-10m-typed.db}
	change="memcg.limit=512M" ;;
files)	db=${VMSCOPE_BENCH_WHATIF_DB:-$top/bench/work/whatif-10m-files.db}
	change="vm.vfs_cache_pressure=1000" ;;
reads)	db=${VMSCOPE_BENCH_WHATIF_DB:-$top/bench/work/whatif-10m-reads.db}
	change="memcg.limit=512M" ;;
*)	echo "whatif-bench: unknown kind '$KIND' (loop, files or reads)" >&2; exit 2 ;;
esac
EVENTS=10000000
INSERTIONS=$EVENTS
[ "$KIND" = reads ] && INSERTIONS=$((EVENTS / 2))
REF_SQL="SELECT total(ts) FROM mm_filemap_add_to_page_cache"
[ "$KIND" = reads ] && REF_SQL="SELECT total(ts) FROM (SELECT ts FROM mm_filemap_add_to_page_cache
	UNION ALL SELECT ts FROM mm_filemap_get_pages)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
command -v sqlite3 >/dev/null 2>&1 || { echo "whatif-bench: needs sqlite3" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "whatif-bench: needs /usr/bin/time" >&2; exit 1; }

# make_db: both kinds have memory.stat samples at 1..101 s of a 256 MiB
# memcg without swap and 100,000 insertions a second, 10 us apart.
#   loop:  one file of 100,000 pages read 100 times; the page cache full
#          from 2 s on; no kernel memory sampled.
#   files: 1,000,000 one-page files read 10 times; kernel memory 0 at 1 s
#          and 1,536 bytes for each of the first second's 100,000 files
#          from 2 s on, the page cache the rest of the limit; a reclaim
#          recorded at 2.5 s ends the interval that sizes a file's slab.
make_db() {
	if [ "$KIND" = files ]; then
		cache=114835456 refault_from=20 ino="1000 + i % 1000000" index=0 more=1
		extra="INSERT INTO sysctl VALUES ('vm.vfs_cache_pressure', '100');
		INSERT INTO mm_vmscan_lru_shrink_inactive (seq, ts, cpu, pid, nid, nr_scanned, nr_reclaimed,
			priority, reclaim_flags) VALUES (2, 2500000000, 0, 42, 0, 32, 32, 12, 2);
		INSERT INTO counter_value SELECT id, 'kmem_usage_in_bytes', CASE WHEN id = 10 THEN 0 ELSE 153600000 END
			FROM counter_sample WHERE source = 'memcg';"
	else
		cache=268435456 refault_from=11 ino=77 index="i % 100000" extra="" more=0
	fi
	reads=""
	if [ "$KIND" = reads ]; then
		# 100,000 insertions a second, each read 5 us later; the refaults as in loop
		refault_from=11
		reads="WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < $INSERTIONS - 1)
		INSERT INTO mm_filemap_get_pages (seq, ts, cpu, pid, i_ino, s_dev, \"index\", last_index)
			SELECT 100 + $INSERTIONS + i, 1000000001 + i * 10000 + 5000, 0, 42, 77, 8388609,
				i % 100000, i % 100000 FROM k;"
	fi
	mkdir -p "$(dirname "$db")"
	printf "  cat-1 [000] .... 0.500000: mm_vmscan_kswapd_sleep: nid=0\n  cat-1 [000] .... 101.500000: mm_vmscan_kswapd_sleep: nid=0\n" > "$tmp/run.txt"
	"$bin" import -q -f "$tmp/run.txt" -o "$tmp/w.db"
	sqlite3 -batch "$tmp/w.db" "
		PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
		INSERT INTO sysctl VALUES ('memcg.swappiness', '60');
		INSERT INTO mm_vmscan_memcg_reclaim_begin (seq, ts, cpu, pid) VALUES (1, 1000000000, 0, 42);
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 100)
		INSERT INTO counter_sample SELECT 10 + i, (1 + i) * 1000000000, (1 + i) * 1000000000 + 100,
			'memcg', '/sys/fs/cgroup/memory/bench' FROM k;
		INSERT INTO counter_sample VALUES (1, 1000000000, 1000000100, 'meminfo', '');
		INSERT INTO counter_value VALUES (1, 'SwapTotal', 0);
		INSERT INTO counter_value SELECT id, 'hierarchical_memory_limit', 268435456 FROM counter_sample WHERE source = 'memcg';
		INSERT INTO counter_value SELECT id, n, 0 FROM counter_sample JOIN (
			SELECT 'total_inactive_anon' AS n UNION SELECT 'total_active_anon' UNION SELECT 'total_active_file'
			UNION SELECT 'total_rss' UNION SELECT 'total_workingset_refault_anon') WHERE source = 'memcg';
		INSERT INTO counter_value SELECT id, 'total_inactive_file', CASE WHEN id = 10 THEN 0 ELSE $cache END
			FROM counter_sample WHERE source = 'memcg';
		INSERT INTO counter_value SELECT id, 'total_cache', CASE WHEN id = 10 THEN 0 ELSE $cache END
			FROM counter_sample WHERE source = 'memcg';
		INSERT INTO counter_value SELECT id, 'total_workingset_refault_file', MAX(0, (id - $refault_from) * 100000)
			FROM counter_sample WHERE source = 'memcg';
		$extra
		WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < $INSERTIONS - 1)
		INSERT INTO mm_filemap_add_to_page_cache (seq, ts, cpu, pid, pfn, i_ino, \"index\", s_dev, \"order\")
			SELECT 100 + i, 1000000001 + i * 10000, 0, 42, 0, $ino, $index, 8388609, 0 FROM k;
		$reads
		UPDATE run SET events = $EVENTS + 2 + $more;" > /dev/null
	mv "$tmp/w.db" "$db"
}

n=$(sqlite3 -batch "$db" "SELECT COUNT(*) FROM mm_filemap_add_to_page_cache" 2>/dev/null || echo 0)
if [ "$n" != "$INSERTIONS" ]; then
	echo "whatif-bench: making $db ($EVENTS filemap events; once, a few minutes)"
	rm -f "$db"
	make_db
fi
echo "whatif-bench: $db, $(du -m "$db" | cut -f1) MB, $EVENTS events, $ROUNDS rounds"

# timed CMD...: "wall user+sys maxrss_kB" of one run
timed() {
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" > /dev/null
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/t"
}
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

: > "$tmp/w"
: > "$tmp/r"
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	cp "$db" "$tmp/run.db"	# whatif writes its tables: each round on a fresh copy
	w=$(timed "$bin" whatif "$tmp/run.db" --set "$change")
	r=$(timed sqlite3 -batch "$tmp/run.db" "$REF_SQL")
	if [ "$KIND" = files ]; then
		# the path this kind times: the vfs model must have been on
		v=$(sqlite3 -batch "$tmp/run.db" "SELECT value FROM whatif_assumption WHERE item = 'model: vfs' LIMIT 1")
		case "$v" in
		off*|'') echo "whatif-bench: the vfs model was off on $db: ${v:-no assumption}" >&2; exit 1 ;;
		esac
	fi
	if [ "$KIND" = reads ]; then
		# the path this kind times: the reads must have been used
		v=$(sqlite3 -batch "$tmp/run.db" "SELECT value FROM whatif_assumption WHERE item = 'demand: reads and faults' LIMIT 1")
		case "$v" in
		"$INSERTIONS reads"*) ;;
		*) echo "whatif-bench: the reads were not used on $db: ${v:-no assumption}" >&2; exit 1 ;;
		esac
	fi
	echo "round $i: whatif $w; reference $r (wall s, CPU s, peak kB)"
	echo "$w" >> "$tmp/w"
	echo "$r" >> "$tmp/r"
	rm -f "$tmp/run.db"
done
ww=$(cut -d' ' -f1 "$tmp/w" | median)
wc=$(cut -d' ' -f2 "$tmp/w" | median)
wm=$(cut -d' ' -f3 "$tmp/w" | median)
rw=$(cut -d' ' -f1 "$tmp/r" | median)
awk -v ww="$ww" -v wc="$wc" -v wm="$wm" -v rw="$rw" -v n="$EVENTS" 'BEGIN {
	printf "whatif median wall: %.2f s (CPU %.2f s, %.1f M events/s, both simulations; peak %.0f MB; reference %.2f s, ratio %.2f)\n",
		ww, wc, n / ww / 1e6, wm / 1024, rw, (rw > 0 ? ww / rw : 0)
}'
