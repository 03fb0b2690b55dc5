#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t4000-plot.sh - `vmscope plot` (docs/plot.md): every kind on a live
# recording with counters and, where the kind needs no counters, on the
# bundled sample trace; PNG (signature, IHDR size), SVG (parses as XML) and
# text (axis labels, 80 columns); --keep, --compare, the window; a trace
# whose comm and shrinker names try to inject gnuplot or shell commands; no
# gnuplot, no scripts, bad options.
#
# Bodies chain their commands with &&: test_expect_success runs them in an
# `if`, where the shell ignores set -e.

. "$(dirname "$0")/test-lib.sh"

KINDS="ratio refaults kswapd scan stalls lru shrinkers"
TRACE_KINDS="kswapd scan stalls shrinkers"	# drawn from events: work on imports
XLABEL="time since the start of the run (s)"
CG=/sys/fs/cgroup/memory/vmscope-t4000-$$

# Runs leave nothing in $TMPDIR: it is checked after each test that plots.
TMPDIR="$TRASH/tmp"
export TMPDIR
mkdir -p "$TMPDIR"
no_tmp_left() {
	left=$(ls "$TMPDIR")
	assert_eq "$left" "" "left in TMPDIR"
}

# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk, after checking the signature.
png_size() {
	sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	test "$sig" = 89504e470d0a1a0a || { echo "$1: not a PNG (signature '$sig')"; return 1; }
	ihdr=$(od -An -c -j12 -N4 "$1" | tr -d ' \n')
	test "$ihdr" = IHDR || { echo "$1: no IHDR chunk first ('$ihdr')"; return 1; }
	set -- $(od -An -tu1 -j16 -N8 "$1")
	echo "$(( ($1 << 24) + ($2 << 16) + ($3 << 8) + $4 )) $(( ($5 << 24) + ($6 << 16) + ($7 << 8) + $8 ))"
}

# png_ok FILE W H
png_ok() {
	size=$(png_size "$1") && assert_eq "$size" "$2 $3" "size of $1"
}

svg_ok() {
	python3 -c 'import xml.dom.minidom, sys; xml.dom.minidom.parse(sys.argv[1])' "$1" ||
		{ echo "$1 does not parse as XML"; return 1; }
}

# labels KIND: the axis labels its text plot must show, one a line
labels() {
	case $1 in
	ratio) printf '%s\n' "$XLABEL" "MiB" "ratio (pages/pages)" ;;
	refaults) printf '%s\n' "$XLABEL" "pages/s" ;;
	kswapd) printf '%s\n' "$XLABEL" ;;
	scan) printf '%s\n' "$XLABEL" "scanned pages/s" "reclaimed pages/s" ;;
	stalls) printf '%s\n' "duration (log scale)" "episodes per bin" ;;
	lru) printf '%s\n' "$XLABEL" "MiB (all zones)" ;;
	shrinkers) printf '%s\n' "$XLABEL" "scanned objects/s" "freed objects/s" ;;
	esac
}

# txt_ok FILE KIND: the axis labels are there, no line is wider than 80
# columns, no more than 25 lines, no form feed
txt_ok() {
	labels "$2" > want-labels &&
	while IFS= read -r l; do
		grep -qF -- "$l" "$1" || { echo "$1: no axis label '$l'"; cat "$1"; return 1; }
	done < want-labels &&
	wide=$(awk 'length($0) > 80 { n++ } END { print n + 0 }' "$1") &&
	assert_eq "$wide" 0 "lines over 80 columns in $1" &&
	test "$(wc -l < "$1")" -le 25 &&
	! grep -q "$(printf '\f')" "$1"
}

# all_formats DB KIND NAME: png (default and --size), svg and txt of one kind
all_formats() {
	vmscope plot "$1" "$2" -o "$3.png" &&
	png_ok "$3.png" 900 600 &&
	vmscope plot "$1" "$2" -o "$3-small.png" --size 640x400 &&
	png_ok "$3-small.png" 640 400 &&
	vmscope plot "$1" "$2" -o "$3.svg" --size 1000x700 &&
	svg_ok "$3.svg" &&
	grep -q 'width="1000"' "$3.svg" &&
	vmscope plot "$1" "$2" -o "$3.txt" &&
	txt_ok "$3.txt" "$2"
}

# --- options -------------------------------------------------------------

test_expect_success 'help: first line, and docs/plot.md SYNOPSIS has it' '
	vmscope plot --help > help.out &&
	first=$(head -n 1 help.out) &&
	case "$first" in "usage: vmscope plot DB KIND"*) ;; *) echo "odd help: $first"; false ;; esac &&
	awk "/^## SYNOPSIS/ { on = 1; next } /^## / { on = 0 } on" "$SRC_DIR/docs/plot.md" > synopsis &&
	grep -qFx -e "$first" synopsis
'

test_expect_success '--list names every kind' '
	vmscope plot --list > list.out &&
	for k in $KINDS; do grep -q "^$k " list.out || { echo "no $k"; exit 1; }; done &&
	assert_eq "$(wc -l < list.out | tr -d " ")" 9 "kinds listed (7 figures of a run, replay and whatif)"
'

test_expect_success 'usage errors exit 2' '
	for args in "" "x.db" "x.db nosuchkind" "x.db scan -o out.pdf" "x.db scan -o noext" \
		    "x.db scan --size 10x10" "x.db scan --size big" "x.db scan -o a.txt --size 800x600" \
		    "x.db scan --from -1" "x.db scan --from 2 --to 1" "x.db scan --bogus" \
		    "x.db scan -o" "x.db scan extra"; do
		rc=0
		vmscope plot $args > /dev/null 2> err || rc=$?
		assert_eq "$rc" 2 "exit status of vmscope plot $args" || exit 1
		grep -q "^usage: vmscope plot" err || { echo "no usage for: $args"; exit 1; }
	done
'

test_expect_success GNUPLOT 'a database that is not there: exit 1, nothing left behind' '
	test_must_fail vmscope plot nosuch.db scan -o n.png 2> err &&
	grep -q "nosuch.db" err &&
	! test -e n.png &&
	no_tmp_left
'

# --- the bundled sample trace (no counters) ------------------------------

test_expect_success 'import the bundled sample trace' '
	vmscope import -q -f -o sample.db "$SRC_DIR/samples/traces/memcg-fileread.dat"
'

for k in $TRACE_KINDS; do
	test_expect_success GNUPLOT "sample trace: $k as PNG, SVG and text" '
		all_formats sample.db $k sample-$k &&
		no_tmp_left
	'
done

test_expect_success GNUPLOT 'sample trace: kinds that need counters say which ones, exit 1' '
	for k in ratio refaults lru; do
		test_must_fail vmscope plot sample.db $k -o c-$k.png 2> err &&
		grep -q "needs /proc/vmstat counter samples" err &&
		grep -q "record the run with .vmscope record." err &&
		! test -e c-$k.png || { cat err; exit 1; }
	done &&
	no_tmp_left
'

test_expect_success GNUPLOT 'sample trace: the timeline names the tasks in reclaim' '
	vmscope plot sample.db kswapd -o names.svg &&
	grep -q "memcg:cat/6779" names.svg &&
	grep -q "memcg:dd/6777" names.svg
'

test_expect_success GNUPLOT 'default output is KIND.png' '
	mkdir -p default && (cd default && vmscope plot ../sample.db stalls) &&
	png_ok default/stalls.png 900 600
'

test_expect_success GNUPLOT '--from/--to: the data covers the window only' '
	vmscope plot sample.db scan --from 3 --to 4 --keep win -o win.png 2> err &&
	head -1 win/scan-a.dat | grep -q "window 3.000000..4.000000 s" &&
	awk "!/^#/ && NF > 1 && \$1 + 0 == \$1 { if (\$1 < 3 || \$1 > 4) bad++ } END { exit bad }" win/scan-a.dat &&
	grep -q "xmin=3; xmax=4;" err
'

test_expect_success GNUPLOT '--keep leaves the script and data, and gnuplot draws them again' '
	vmscope plot sample.db kswapd --keep kept -o kept.png 2> keep.err &&
	test -f kept/kswapd.gp && test -f kept/common.gp && test -f kept/kswapd-a.dat &&
	grep -q "^# columns: y t0_s t1_s kind" kept/kswapd-a.dat &&
	cmp kept/kswapd.png kept.png &&
	rm kept/kswapd.png &&
	(cd kept && gnuplot kswapd.gp) &&
	png_ok kept/kswapd.png 900 600 &&
	rm kept/kswapd.png &&
	cmd=$(sed -n "s/.*to draw again: //p" keep.err) &&
	test -n "$cmd" &&
	(eval "$cmd") &&
	png_ok kept/kswapd.png 900 600 &&
	no_tmp_left
'

test_expect_success GNUPLOT '--keep DIR with -o DIR/KIND.png keeps the one file' '
	vmscope plot sample.db stalls --keep same -o same/stalls.png &&
	png_ok same/stalls.png 900 600
'

test_expect_success GNUPLOT '--compare: the legend names both runs' '
	mkdir -p other && cp sample.db other/second.db &&
	vmscope plot sample.db scan --compare other/second.db -o cmp.svg &&
	svg_ok cmp.svg &&
	grep -q "A:sample.db" cmp.svg && grep -q "B:second.db" cmp.svg &&
	vmscope plot sample.db kswapd --compare other/second.db -o cmp-k.svg &&
	grep -q "A:sample.db kswapd awake" cmp-k.svg && grep -q "B:second.db reclaim calls" cmp-k.svg &&
	grep -q "B:memcg:cat/6779" cmp-k.svg &&
	vmscope plot sample.db stalls --compare other/second.db -o cmp.txt &&
	txt_ok cmp.txt stalls
'

test_expect_success GNUPLOT '--compare of two runs with the same file name uses the paths' '
	mkdir -p a b && cp sample.db a/run.db && cp sample.db b/run.db &&
	vmscope plot a/run.db shrinkers --compare b/run.db -o same-name.svg &&
	grep -q "A:a/run.db" same-name.svg && grep -q "B:b/run.db" same-name.svg
'

test_expect_success GNUPLOT 'an output that cannot be written: exit 1, nothing left behind' '
	test_must_fail vmscope plot sample.db scan -o no/such/dir/x.png 2> err &&
	grep -q "no/such/dir/x.png" err &&
	no_tmp_left
'

# --- no gnuplot, no scripts ----------------------------------------------

test_expect_success 'gnuplot missing: exit 1, says how to install it' '
	mkdir -p emptybin &&
	rc=0 &&
	PATH="$TRASH/emptybin" "$SRC_DIR/vmscope" plot sample.db scan -o nognuplot.png 2> err || rc=$? &&
	assert_eq "$rc" 1 "exit status without gnuplot" &&
	grep -q "apt-get install gnuplot-nox" err &&
	! test -e nognuplot.png
'

test_expect_success GNUPLOT 'scripts not found: says where it looked; VMSCOPE_PLOTDIR finds them' '
	mkdir -p lonely && cp "$SRC_DIR/vmscope" lonely/ &&
	if test -f /usr/local/share/vmscope/plots/common.gp; then
		echo "# vmscope is installed: the not-found case is not tested" >&2
	else
		rc=0 &&
		env -u VMSCOPE_PLOTDIR lonely/vmscope plot sample.db scan -o lonely.png 2> err || rc=$? &&
		assert_eq "$rc" 1 "exit status without scripts" &&
		grep -q "cannot find the gnuplot script scan.gp" err &&
		grep -q "VMSCOPE_PLOTDIR" err
	fi &&
	VMSCOPE_PLOTDIR="$SRC_DIR/plots" lonely/vmscope plot sample.db scan -o lonely.png &&
	png_ok lonely.png 900 600
'

# --- untrusted text ------------------------------------------------------

# A text trace whose task name holds quotes, backticks, system("..."),
# $(...) and a backslash-n. The comm is read up to 64 bytes, so these
# commands touch a relative PWNED: in the directory gnuplot runs in, which
# --keep keeps. The database then gets a real newline in the comm and a
# hostile shrinker name aimed at an absolute path as well.
EVIL_COMM='x"y'"'"'z`touch PWNED`system("touch PWNED")\n$(touch PWNED)'
evil_trace() {
	ENVIRON_COMM="$EVIL_COMM" awk 'BEGIN {
		comm = ENVIRON["ENVIRON_COMM"]
		t = 100.0
		for (i = 0; i < 6; i++) {
			printf "         kswapd0-90      [001] .... %.6f: mm_vmscan_kswapd_wake: nid=0 order=0\n", t
			printf "         kswapd0-90      [001] .... %.6f: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=%d nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n", t + 0.01, (i >= 2 && i <= 4) ? 0 : 30
			printf "         kswapd0-90      [001] .... %.6f: mm_shrink_slab_start: super_cache_scan+0x0/0x1a0 000000009c4e2a71: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 4719 delta 36 total_scan 36 priority 12\n", t + 0.02
			printf "         kswapd0-90      [001] .... %.6f: mm_shrink_slab_end: super_cache_scan+0x0/0x1a0 000000009c4e2a71: nid: 0 unused scan count 0 new scan count 0 total_scan 0 last shrinker return val 30\n", t + 0.021
			printf "         kswapd0-90      [001] .... %.6f: mm_vmscan_kswapd_sleep: nid=0\n", t + 0.1
			printf "%s-4242    [002] .... %.6f: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE\n", comm, t + 0.15
			printf "%s-4242    [002] .... %.6f: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=64 nr_reclaimed=%d nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC\n", comm, t + 0.151, 10 * i
			printf "%s-4242    [002] .... %.6f: mm_vmscan_direct_reclaim_end: nr_reclaimed=%d\n", comm, t + 0.15 + 0.001 * (i + 1) * (i + 1), 10 * i
			printf "%s-4242    [002] .... %.6f: mm_vmscan_throttled: nid=0 usec_timeout=100000 usect_delayed=%d reason=VMSCAN_THROTTLE_WRITEBACK\n", comm, t + 0.19, 2000 * (i + 1)
			t += 0.25
		}
	}'
}

# more hostile text, put straight into the database: a real newline in the
# comm, a shrinker with quotes, backticks, a newline and a '#'
evil_sql() {
	cat <<EOF
UPDATE task SET comm = comm || char(10) || 'set output "x"; system("touch $TRASH/PWNED")'
	WHERE pid = 4242;
UPDATE mm_shrink_slab_start SET shrink = 'evil" \`touch $TRASH/PWNED\` ' || char(10) ||
	'system("touch $TRASH/PWNED")#+0x0 [m"od]';
UPDATE mm_shrink_slab_end SET shrink = (SELECT shrink FROM mm_shrink_slab_start LIMIT 1);
UPDATE shrink_bucket SET name = 'evil" \`touch $TRASH/PWNED\` ' || char(10) ||
	'system("touch $TRASH/PWNED")# [m"od]';
EOF
}

# data_clean FILE: outside comments, nothing but [A-Za-z0-9_.:/+-], [ ] and spaces
data_clean() {
	bad=$(grep -v "^#" "$1" | grep -c "[^]A-Za-z0-9_.:/+ [-]") || true
	assert_eq "$bad" 0 "data lines of $1 with other characters"
}

test_expect_success SQLITE3 'a trace with a hostile comm imports' '
	evil_trace > evil.txt &&
	vmscope import -q -f -o evil.db evil.txt &&
	comm=$(sql evil.db "SELECT comm FROM task WHERE pid = 4242") &&
	assert_eq "$comm" "$EVIL_COMM" "comm stored" &&
	evil_sql | sqlite3 -batch evil.db &&
	assert_eq "$(sql evil.db "SELECT COUNT(*) FROM task WHERE instr(comm, char(10)) > 0")" 1 \
		"comms with a newline" &&
	assert_eq "$(sql evil.db "SELECT COUNT(*) FROM mm_shrink_slab_start WHERE instr(shrink, char(96)) > 0")" 6 \
		"shrinker names with a backtick"
'

for k in $TRACE_KINDS; do
	test_expect_success GNUPLOT,SQLITE3 "hostile names: $k plots, runs nothing" '
		vmscope plot evil.db $k -o evil-$k.png --keep evil-$k &&
		png_ok evil-$k.png 900 600 &&
		vmscope plot evil.db $k -o evil-$k.svg &&
		svg_ok evil-$k.svg &&
		vmscope plot evil.db $k -o evil-$k.txt &&
		txt_ok evil-$k.txt $k &&
		! test -e PWNED && ! test -e evil-$k/PWNED &&
		data_clean evil-$k/$k-a.dat &&
		no_tmp_left
	'
done

test_expect_success GNUPLOT,SQLITE3 'hostile names: the labels are sanitized, not dropped' '
	grep -q "direct:x_y_z_touch_PWNE/4242" evil-kswapd.svg &&
	grep -q "kswapd:node0" evil-kswapd.svg &&
	grep -q "throttled:x_y_z_touch_PWNE/4242:12.0ms" evil-stalls.svg &&
	grep -q "evil___touch_" evil-shrinkers.svg &&
	! grep -q "system" evil-stalls.svg evil-kswapd.svg evil-shrinkers.svg
'

test_expect_success GNUPLOT,SQLITE3 'hostile database and output names reach gnuplot as nothing' '
	name="q\"u'\''o\`touch $TRASH/PWNED\`\$(touch $TRASH/PWNED)" &&
	mkdir -p "$name" &&
	cp evil.db "$name/r;un.db" &&
	vmscope plot "$name/r;un.db" kswapd --compare evil.db -o "$name/out.svg" --keep "$name/keep" &&
	svg_ok "$name/out.svg" &&
	grep -q "A:r_un.db" "$name/out.svg" &&
	! test -e PWNED && ! test -e "$name/keep/PWNED" &&
	no_tmp_left
'

# --- a live recording with counters --------------------------------------

test_expect_success ROOT,TRACEFS,MEMCG 'record a memcg reading a file larger than its limit' '
	mkdir -p "$CG" &&
	test_cleanup "rmdir $CG" &&
	echo $((64 * 1024 * 1024)) > "$CG/memory.limit_in_bytes" &&
	dd if=/dev/urandom of=big bs=1M count=200 status=none &&
	sync &&
	dd if=big iflag=nocache count=0 status=none &&
	vmscope record -q -f -o rec.db -d 4 -i 20 -m "$CG" -- \
		sh -c "echo \$\$ > $CG/cgroup.procs; cat big > /dev/null; cat big > /dev/null" &&
	rm -f big
'

for k in $KINDS; do
	test_expect_success ROOT,TRACEFS,MEMCG,GNUPLOT "recorded run: $k as PNG, SVG and text" '
		all_formats rec.db $k rec-$k &&
		no_tmp_left
	'
done

test_expect_success ROOT,TRACEFS,MEMCG,GNUPLOT,SQLITE3 'recorded run: the ratio data are the counters' '
	vmscope plot rec.db ratio --keep rk -o rk.png &&
	n=$(sql rec.db "SELECT COUNT(*) FROM counter_sample WHERE source = '\''vmstat'\''") &&
	rows=$(awk "!/^#/ && NF && \$1 + 0 == \$1" rk/ratio-a.dat | wc -l) &&
	assert_eq "$rows" "$n" "ratio rows against vmstat samples" &&
	first=$(sql rec.db "SELECT s.ts FROM counter_sample s WHERE source = '\''vmstat'\'' ORDER BY ts LIMIT 1") &&
	want=$(sql rec.db "SELECT v.value FROM counter_value v JOIN counter_sample s ON v.sample = s.id
		WHERE s.source = '\''vmstat'\'' AND s.ts = $first AND v.name = '\''nr_slab_reclaimable'\''") &&
	got=$(awk "!/^#/ && NF && \$1 + 0 == \$1 { print \$2; exit }" rk/ratio-a.dat) &&
	awk -v g="$got" -v w="$want" "BEGIN { d = g - w * 4096 / 1048576; exit !(d < 1e-3 && d > -1e-3) }"
'

test_expect_success ROOT,TRACEFS,MEMCG,GNUPLOT 'recorded run compared with itself: both names in the legend' '
	cp rec.db rec2.db &&
	for k in ratio lru refaults; do
		vmscope plot rec.db $k --compare rec2.db -o rc-$k.svg &&
		svg_ok rc-$k.svg &&
		grep -q "A:rec.db" rc-$k.svg && grep -q "B:rec2.db" rc-$k.svg || exit 1
	done
'

test_expect_success ROOT,TRACEFS,MEMCG,GNUPLOT 'compare needs counters in both runs' '
	test_must_fail vmscope plot rec.db ratio --compare sample.db -o rs.png 2> err &&
	grep -q "sample.db. has none" err
'

test_done
