#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t4100-report-plot-agree.sh - report, plot and compare read each concept from
# one definition, so they agree on the same database: the kswapd failure
# streaks (kswapd_run: report kswapd-failures against plot kswapd, which also
# zooms in on a streak too short to see), the kswapd pids (kswapd_pid: a
# program called kswapd-something is not kswapd, in plot scan as in the
# report), the shrinker names (shrinker_name: report shrinkers against plot
# shrinkers, names and objects scanned) and the episode percentiles (compare
# against report episodes). On a hand-made trace with the kswapd-fail
# pattern, then on the bundled kswapd-fail and thrash recordings.
#
# The plot's data files come from `vmscope plot --keep DIR` (docs/plot.md).
# Bodies chain their commands with &&: test_expect_success runs them in an
# `if`, where the shell ignores set -e.

. "$(dirname "$0")/test-lib.sh"

SAMPLES="$SRC_DIR/samples/traces"
export VMSCOPE_PLOTDIR="$SRC_DIR/plots"

# --- the checks, in Python: they read report/compare JSON and plot .dat files
cat > agree.py <<'EOF'
import json, re, sys

def dat_blocks(path):
    """The blocks of a plot data file: (column names, rows of fields)."""
    blocks, cur = [], None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("# block"):
            cur = [None, []]
            blocks.append(cur)
        elif not line or line.startswith("#") or cur is None:
            continue
        elif cur[0] is None:
            cur[0] = line.split()[1:]
        else:
            f = line.split()
            if any(x != "NaN" for x in f):
                cur[1].append(f)
    return blocks

def tables(path):
    return {t["table"]: t for t in json.load(open(path))["tables"]}

def sanitize(s):
    """plot_sanitize() (plots/dat.c), cut to 40 bytes."""
    ok = re.compile(r"[A-Za-z0-9_.:/+\-\[\]]")
    out = "".join(c if ok.match(c) else "_" for c in s)[:40]
    return out or "_"

def fail(msg):
    print(msg)
    sys.exit(1)

def streaks(report, kswapd_dat):
    """report kswapd-failures 'zero-reclaim runs' rows == plot kswapd block 2."""
    rows = tables(report)["episodes"]["rows"]
    want = [(r[0], r[2], "%.6f" % r[3], int(re.match(r"(\d+) kswapd runs", r[6]).group(1)))
            for r in rows if r[1] == "zero-reclaim runs"]
    b = dat_blocks(kswapd_dat)
    node_of = {f[0]: f[1] for f in b[0][1]}
    got = []
    for f in b[2][1]:
        node = int(node_of[f[0]].split("node")[1])
        runs = int(float(f[3]))
        got.append((node, "episode" if runs >= 16 else "partial", "%.6f" % float(f[1]), runs))
    failed = sum(1 for f in b[1][1] if f[4] == "1")
    if want != got:
        fail("streaks: report %s, plot %s" % (want, got))
    if failed < sum(w[3] for w in want):
        fail("plot draws %d failed runs, fewer than the streaks' %s" % (failed, want))
    print("streaks agree: %s; %d failed runs drawn" % (got, failed))

def zoom(note, kswapd_dat):
    """The plot's zoom panel covers the hopeless streak: from its first run to run 16's end."""
    v = dict(re.findall(r"(\w+)=([-0-9.e]+);", open(note).read()))
    if v.get("zoom") != "1":
        fail("no zoom panel: %s" % v)
    s = [f for f in dat_blocks(kswapd_dat)[2][1] if int(float(f[3])) >= 16][0]
    if not (float(v["zmin"]) <= float(s[1]) and float(s[4]) <= float(v["zmax"])):
        fail("zoom %s..%s misses the streak %s..%s" % (v["zmin"], v["zmax"], s[1], s[4]))
    print("zoom %s..%s shows the streak %s..%s (hopeless at %s)" % (v["zmin"], v["zmax"],
          s[1], s[2], s[4]))

def bin_totals(dat, binw_ms, cols):
    """Sums over the bins of rate columns (per s) times each bin's width."""
    b = dat_blocks(dat)[0]
    xmin = float(re.search(r"window ([-0-9.]+)\.\.", open(dat).read()).group(1))
    w = binw_ms / 1e3
    tot = {c: 0.0 for c in cols}
    for k, f in enumerate(b[1]):
        width = 2 * (float(f[0]) - (xmin + k * w))
        for c in cols:
            tot[c] += float(f[b[0].index(c) + 1]) * width
    return tot

def kswapd_pages(report, scan_dat, binw_ms):
    """Pages kswapd reclaimed: plot scan (kswapd_pid) == report episodes (kswapd rows)."""
    rows = tables(report)["per-node"]["rows"]
    want = sum(r[11] for r in rows if r[0] == "kswapd")
    t = bin_totals(scan_dat, binw_ms, ["kswapd_file_reclaimed/s", "kswapd_anon_reclaimed/s"])
    got = round(sum(t.values()))
    if want != got:
        fail("kswapd pages reclaimed: report %s, plot scan %s" % (want, got))
    print("kswapd reclaimed %d pages in the report and in plot scan" % got)

def shrinkers(report, dat, binw_ms):
    """The plotted shrinkers: the report's names, its top by objects scanned, same totals."""
    scanned = {}
    for r in tables(report)["shrinkers"]["rows"]:
        scanned[sanitize(r[0])] = scanned.get(sanitize(r[0]), 0) + (r[4] or 0)
    cols = [c for c in dat_blocks(dat)[0][0] if c.endswith(":scanned/s")]
    t = bin_totals(dat, binw_ms, cols)
    got = [(c[:-len(":scanned/s")], round(t[c])) for c in cols]
    top = sorted(scanned.items(), key=lambda x: (-x[1], x[0]))[:len(got)]
    if sorted(got) != sorted(top) or [g[1] for g in got] != [x[1] for x in top]:
        fail("shrinkers: plot %s, report's top %s" % (got, top))
    print("shrinkers agree: %s" % got)

def percentiles(report, compare, kind, label):
    """compare's episode p50/p99/max == report episodes' per-node row (one node)."""
    rows = [r for r in tables(report)["per-node"]["rows"] if r[0] == kind]
    if len(rows) != 1:
        fail("want one %s node row, got %s" % (kind, rows))
    r = rows[0]
    want = {"p50": r[6], "p99": r[8], "max": r[9]}
    got = {}
    for m in tables(compare).values():
        for row in m["rows"]:
            for p in want:
                if row[0] == "%s %s (ms)" % (label, p):
                    got[p] = row[1]
    if want != got:
        fail("%s percentiles: report %s, compare %s" % (kind, want, got))
    print("%s episodes: p50/p99/max %s in both" % (kind, got))

globals()[sys.argv[1]](*[float(a) if re.match(r"^[0-9.]+$", a) else a for a in sys.argv[2:]])
EOF

agree() {
	python3 agree.py "$@"
}

# plot_keep DB KIND DIR [ARGS]: the figure and its data in DIR, vmscope's note in DIR.note
plot_keep() {
	db=$1 kind=$2 dir=$3
	shift 3
	rm -rf "$dir" &&
	vmscope plot "$db" "$kind" -o "$dir.png" --keep "$dir" "$@" 2> "$dir.note" &&
	test -f "$dir/$kind-a.dat"
}

# binw DIR: the bin width (ms) the plot used
binw() {
	sed -n 's/.*binw_ms=\([0-9.e]*\);.*/\1/p' "$1.note"
}

# sample NAME: the bundled recording as NAME.db, at this vmscope's schema version
# (with the kswapd_run table the plot reads): upgraded when it is older
sample() {
	xz -dc "$SAMPLES/$1.db.xz" > "$1.db" &&
	if vmscope upgrade -h > /dev/null 2>&1; then vmscope upgrade -q "$1.db"; fi &&
	if [ -z "$(sql "$1.db" "SELECT name FROM sqlite_schema WHERE name = 'kswapd_run'")" ]; then
		echo "samples/traces/$1.db.xz has no kswapd_run table: it was derived by a vmscope"
		echo "before schema/920-kswapd.sql; regenerate it (samples/README.md)"
		return 1
	fi
}

# --- a hand-made trace with the kswapd-fail pattern -------------------------
# Microseconds after 100 s (T = seconds from the start of the run):
#   T=0       wakeup_kswapd nid=0 by stress-5000
#   T=1.000   3 kswapd0 (pid 90) runs, 1 ms apart, each reclaiming 32 pages,
#             the first with two shrinker calls (super_cache_scan 40 scanned,
#             xfs_buftarg_shrink_scan [xfs] 10 scanned)
#   T=1.003   16 runs 0.2 ms apart without any LRU event (nothing to isolate);
#             kswapd_sleep at T=1.103 (after the kernel's 0.1 s nap): hopeless
#   T=2.000   direct reclaim by kswapd-fake-7000 (not kswapd), 8 pages on node 0
#   T=60.000  direct reclaim by stress-5000, no LRU event: the run is 60 s long
BASE_US=100000000
ev() {
	t=$((BASE_US + $4))
	printf '%16s-%-7d (%7d) [%03d] ..... %d.%06d: %s: %s\n' "$1" "$2" "$2" "$3" \
		$((t / 1000000)) $((t % 1000000)) "$5" "$6"
}
shrink() {
	ev "$1" "$2" "$3" "$4" mm_vmscan_lru_shrink_inactive \
		"nid=0 nr_scanned=$5 nr_reclaimed=$6 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
}
slab() {	# T_US SHRINK SHR SCANNED FREED
	ev kswapd0 90 2 "$1" mm_shrink_slab_start "$2 $3: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 1000 delta $4 total_scan $4 priority 12"
	ev kswapd0 90 2 $(($1 + 10)) mm_shrink_slab_end "$2 $3: nid: 0 unused scan count 0 new scan count 0 total_scan 0 last shrinker return val $5"
}
make_trace() {
	echo '# tracer: nop'
	echo '#'
	ev stress 5000 5 0 mm_vmscan_wakeup_kswapd "nid=0 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
	for k in 0 1 2; do
		w=$((1000000 + 1000 * k))
		ev kswapd0 90 2 $w mm_vmscan_kswapd_wake "nid=0 order=0"
		shrink kswapd0 90 2 $((w + 100)) 40 32
		if [ $k = 0 ]; then
			slab $((w + 200)) super_cache_scan+0x0/0x1a0 00000000aaaa0001 40 30
			slab $((w + 300)) "xfs_buftarg_shrink_scan+0x0/0x30 [xfs]" 000000003a7e2f1c 10 5
		fi
	done
	k=0
	while [ $k -lt 16 ]; do
		ev kswapd0 90 2 $((1003000 + 200 * k)) mm_vmscan_kswapd_wake "nid=0 order=0"
		k=$((k + 1))
	done
	ev kswapd0 90 2 1103000 mm_vmscan_kswapd_sleep "nid=0"
	ev kswapd-fake 7000 4 2000000 mm_vmscan_direct_reclaim_begin "order=0 gfp_flags=GFP_KERNEL"
	shrink kswapd-fake 7000 4 2000100 16 8
	ev kswapd-fake 7000 4 2000200 mm_vmscan_direct_reclaim_end "nr_reclaimed=8"
	ev stress 5000 5 60000000 mm_vmscan_direct_reclaim_begin "order=0 gfp_flags=GFP_KERNEL"
	ev stress 5000 5 60000100 mm_vmscan_direct_reclaim_end "nr_reclaimed=0"
}

test_expect_success SQLITE3 'the hand-made trace imports; kswapd_pid is kswapd0, not kswapd-fake' '
	make_trace > fail.txt &&
	vmscope import -q -o fail.db fail.txt &&
	assert_eq "$(sql fail.db "SELECT pid FROM kswapd_pid")" 90 "kswapd pids" &&
	assert_eq "$(sql fail.db "SELECT COUNT(*), SUM(failed), MAX(streak) FROM kswapd_run")" \
		"19|16|16" "runs, failed runs, longest streak"
'

test_expect_success SQLITE3 'report kswapd-failures: 16 runs without LRU events, then hopeless' '
	vmscope report fail.db kswapd-failures --format json > fail-kf.json &&
	vmscope report fail.db kswapd-failures > fail-kf.txt &&
	grep -q "zero-reclaim runs  *episode  *1.003000" fail-kf.txt &&
	grep -q "16 kswapd runs (pid 90) reclaimed 0 pages, 0 pages scanned; 16 of them with no lru_shrink_inactive event (nothing isolated); hopeless from 1.103000 s (end of run 16)" fail-kf.txt &&
	grep -q "ended at 2.000100 s: pid 7000 reclaimed 8 pages on the node" fail-kf.txt
'

test_expect_success GNUPLOT,SQLITE3 'plot kswapd draws the report'\''s streak, in a zoom panel at the default window' '
	plot_keep fail.db kswapd fk &&
	agree streaks fail-kf.json fk/kswapd-a.dat &&
	agree zoom fk.note fk/kswapd-a.dat &&
	grep -q "^# block 2: kswapd failure streaks" fk/kswapd-a.dat
'

test_expect_success GNUPLOT,SQLITE3 'zoomed in with --from/--to: the same streak, no zoom panel' '
	plot_keep fail.db kswapd fkz --from 0.9 --to 1.2 &&
	agree streaks fail-kf.json fkz/kswapd-a.dat &&
	grep -q "zoom=0;" fkz.note
'

test_expect_success GNUPLOT,SQLITE3 'plot scan counts kswapd0 as kswapd and kswapd-fake as direct' '
	vmscope report fail.db episodes --format json > fail-ep.json &&
	plot_keep fail.db scan fs &&
	agree kswapd_pages fail-ep.json fs/scan-a.dat "$(binw fs)" &&
	python3 - fs/scan-a.dat "$(binw fs)" <<-\EOF
	import sys
	sys.argv = ["agree.py", "x"] + sys.argv[1:]
	exec(open("agree.py").read().split("globals()")[0])
	t = bin_totals(sys.argv[2], float(sys.argv[3]), ["direct_file_reclaimed/s"])
	assert round(t["direct_file_reclaimed/s"]) == 8, t
	EOF
'

test_expect_success GNUPLOT,SQLITE3 'plot shrinkers names them as report shrinkers, [module] kept' '
	vmscope report fail.db shrinkers --format json > fail-sh.json &&
	plot_keep fail.db shrinkers fsh &&
	agree shrinkers fail-sh.json fsh/shrinkers-a.dat "$(binw fsh)" &&
	grep -q "xfs_buftarg_shrink_scan_\[xfs\]:scanned/s" fsh/shrinkers-a.dat
'

# --- the bundled recordings -------------------------------------------------

test_expect_success SQLITE3 'the kswapd-fail recording: report finds the 16-run episode' '
	sample kswapd-fail &&
	vmscope report kswapd-fail.db kswapd-failures --format json > kf.json &&
	vmscope report kswapd-fail.db kswapd-failures > kf.txt &&
	grep -q "zero-reclaim runs  *episode" kf.txt &&
	grep -q "16 kswapd runs (pid 45) reclaimed 0 pages" kf.txt &&
	grep -q "node_unreclaimable  *episode" kf.txt
'

test_expect_success GNUPLOT,SQLITE3 'the kswapd-fail recording: plot kswapd draws it, zoomed, at the default window' '
	plot_keep kswapd-fail.db kswapd kk &&
	agree streaks kf.json kk/kswapd-a.dat &&
	agree zoom kk.note kk/kswapd-a.dat &&
	vmscope plot kswapd-fail.db kswapd -o kk.txt &&
	grep -q "zoom: .* the failure streak of 16 kswapd runs: node hopeless" kk.txt
'

test_expect_success GNUPLOT,SQLITE3 'the kswapd-fail recording: zoomed in as a user would, the same streak' '
	plot_keep kswapd-fail.db kswapd kkz --from 36 --to 36.5 &&
	agree streaks kf.json kkz/kswapd-a.dat
'

test_expect_success GNUPLOT,SQLITE3 'the kswapd-fail recording: kswapd pages and shrinkers agree' '
	assert_eq "$(sql kswapd-fail.db "SELECT group_concat(pid) FROM kswapd_pid")" 45 "kswapd pids" &&
	assert_eq "$(sql kswapd-fail.db "SELECT COUNT(*) FROM task WHERE comm = '\''kswapd-fail'\''")" 1 \
		"the workload called kswapd-fail" &&
	vmscope report kswapd-fail.db episodes --format json > kf-ep.json &&
	plot_keep kswapd-fail.db scan ks &&
	agree kswapd_pages kf-ep.json ks/scan-a.dat "$(binw ks)" &&
	vmscope report kswapd-fail.db shrinkers --format json > kf-sh.json &&
	plot_keep kswapd-fail.db shrinkers ksh &&
	agree shrinkers kf-sh.json ksh/shrinkers-a.dat "$(binw ksh)"
'

test_expect_success SQLITE3 'compare and report episodes: the same percentiles (kswapd-fail, thrash)' '
	vmscope compare kswapd-fail.db kswapd-fail.db --format json > kf-cmp.json &&
	agree percentiles kf-ep.json kf-cmp.json kswapd "Kswapd awake" &&
	sample thrash &&
	vmscope report thrash.db episodes --format json > th-ep.json &&
	vmscope compare thrash.db thrash.db --format json > th-cmp.json &&
	agree percentiles th-ep.json th-cmp.json memcg "Memcg reclaim"
'

test_done
