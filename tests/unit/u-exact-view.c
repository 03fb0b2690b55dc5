// SPDX-License-Identifier: GPL-2.0
/*
 * u-exact-view.c - replay/exact-inputs.c on hand-made exact_input rows: the
 * view the kernel read at a pass (6.18 prepare_scan_control() reads
 * lruvec_page_state(), which changes only at a stats flush with force or
 * needs_flush set), the refaults since the snapshot_refaults() of the last
 * memcg reclaim end, the list sizes of the isolate record for the scan
 * targets, and what stays sampled (other reclaimers, no isolate near the
 * pass, no snapshot yet, delta-only items across the first flush).
 *
 * The timeline (ns; pid 7 reclaims the memcg):
 *   start view (memory.stat at attach): inactive_file 100, active_file 200
 *   100  flush, needs_flush=1: act_file 10, inactive_file 110, active_file 300
 *   150  reclaim_end (snapshot: act_file 10, the view of flush 100)
 *   160  flush, no force, no needs_flush (the kernel did not flush)
 *   200  flush, force=1: act_file 25, inactive_file 120, active_file 320
 *   300  isolate by pid 7: lists 130/330 (running, newer than the view)
 *   301  the pass's first event
 *   400  reclaim_end; 500 isolate by pid 7; 501 its pass
 *   250  reclaim_begin by pid 5, a task of memcg 43 (another memcg)
 *   190  reclaim_begin by pid 6; 210 its first isolate: flush 200 in between
 * Then reclaims that begin with empty inactive lists, and a second
 * database whose flushes are recorded one CPU's turn at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "vms.h"
#include "../../replay/exact-inputs.h"
#include "../../replay/replay.h"
#include "tap.h"
#include "scratch-db.h"

static const char rows[] =
	"INSERT INTO exact_input_run (id, source, memcg, memcg_id, scope, nodes, attached_ts)"
	" VALUES (1, 'bpf', '/cg', 42, '42 1', 1, 0);"
	"INSERT INTO exact_input_item (col, kernel_name, enum, item, start_value, start_provenance)"
	" VALUES ('inactive_anon', 'NR_INACTIVE_ANON', 'node_stat_item', 0, 5, 'exact'),"
	" ('active_anon', 'NR_ACTIVE_ANON', 'node_stat_item', 1, 6, 'exact'),"
	" ('inactive_file', 'NR_INACTIVE_FILE', 'node_stat_item', 2, 100, 'exact'),"
	" ('active_file', 'NR_ACTIVE_FILE', 'node_stat_item', 3, 200, 'exact'),"
	" ('workingset_activate_anon', 'WORKINGSET_ACTIVATE_ANON', 'node_stat_item', 12, NULL,"
	"  'delta-only'),"
	" ('workingset_activate_file', 'WORKINGSET_ACTIVATE_FILE', 'node_stat_item', 13, NULL,"
	"  'delta-only');"
	"INSERT INTO exact_input (ts, kind, pid, memcg_id, flush_force, flush_needed, inactive_anon,"
	" active_anon, inactive_file, active_file, workingset_activate_anon,"
	" workingset_activate_file) VALUES"
	" (100, 'flush', 1, 1, 0, 1, 5, 6, 110, 300, 3, 10),"
	" (150, 'reclaim_end', 7, 42, NULL, NULL, 5, 6, 115, 310, 3, 12),"
	" (160, 'flush', 1, 42, 0, 0, 5, 6, 118, 315, 3, 20),"
	" (200, 'flush', 9, 1, 1, 0, 5, 6, 120, 320, 4, 25),"
	" (300, 'isolate', 7, 42, NULL, NULL, 5, 6, 130, 330, 4, 27),"
	" (400, 'reclaim_end', 7, 42, NULL, NULL, 5, 6, 131, 331, 4, 27),"
	" (500, 'isolate', 7, 42, NULL, NULL, 5, 6, 132, 332, 4, 27),"
	" (50, 'isolate', 8, 42, NULL, NULL, 5, 6, 100, 200, 0, 0),"
	" (250, 'reclaim_begin', 5, 43, NULL, NULL, 5, 6, 120, 320, 4, 25),"
	" (290, 'reclaim_begin', 7, 42, NULL, NULL, 5, 6, 120, 320, 4, 25),"
	" (190, 'reclaim_begin', 6, 42, NULL, NULL, 5, 6, 120, 320, 4, 25),"
	" (210, 'isolate', 6, 42, NULL, NULL, 5, 6, 121, 321, 4, 25);";

static struct vms_pass_input sampled(enum vms_reclaimer who)
{
	struct vms_pass_input in;

	memset(&in, 0, sizeof(in));
	in.reclaimer = who;
	in.priority = 12;
	in.inactive_file.v = in.active_file.v = 999;
	in.inactive_file.prov = in.active_file.prov = VMS_PROV_SAMPLED;
	in.refault_file.v = 77;
	in.refault_file.prov = VMS_PROV_INFERRED;
	return in;
}

int main(void)
{
	struct exact_view *v = NULL;
	struct vms_pass_input in;
	struct vms_db *db = scratch_db("u-exact-view");

	/* a database whose run has no exact inputs: no view, no error */
	ok(exact_view_open(vms_db_sql(db), &v) == 0 && v == NULL, "no exact_input_run row: no view");
	if (sqlite3_exec(vms_db_sql(db), rows, NULL, NULL, NULL)) {
		ok(0, "cannot insert the rows: %s", sqlite3_errmsg(vms_db_sql(db)));
		return done_testing();
	}
	ok(exact_view_open(vms_db_sql(db), &v) == 0 && v, "exact inputs loaded");

	/* the pass at 301: the view of flush 200 (force), not 160 (no flush happened) */
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 7, 301, 0, &in), 1, "memcg pass right after an isolate: exact");
	is_int(in.inactive_file.v, 120, "inactive_file: the view of the last flush (200)");
	is_int(in.active_file.v, 320, "active_file: the view of the last flush (200)");
	is_int(in.inactive_anon.v, 5, "inactive_anon: the view of the last flush");
	ok(in.inactive_file.prov == VMS_PROV_EXACT && in.inactive_file.lo == 120 &&
	   in.inactive_file.hi == 120, "list sizes exact, no range");
	/* refaults: flush 200 (25) minus the view at the reclaim end 150 (flush 100: 10) */
	is_int(in.refault_file.v, 15, "refault_file: 25 - 10 (snapshot at the reclaim end at 150)");
	ok(in.refault_file.prov == VMS_PROV_EXACT, "refault_file exact");
	is_int(in.refault_anon.v, 1, "refault_anon: 4 - 3");
	ok(in.have_lru_size && in.lru_size[2] == 130 && in.lru_size[3] == 330,
	   "scan targets from the isolate's running lists (130, 330)");

	/* the pass at 501: the snapshot at 400 saw flush 200 as well: no refault */
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 7, 501, 0, &in), 1, "the pass at 501: exact");
	is_int(in.refault_file.v, 0, "same view as at the last reclaim end: refault 0");
	ok(in.refault_file.prov == VMS_PROV_EXACT, "refault 0 is exact");

	/* the pass of pid 8 at 51: before any flush and any reclaim end */
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 8, 51, 0, &in), 1, "before the first flush: the start view");
	is_int(in.inactive_file.v, 100, "inactive_file: memory.stat at the start");
	is_int(in.active_file.v, 200, "active_file: memory.stat at the start");
	is_int(in.refault_file.v, 77, "no snapshot yet: refault_file stays as sampled");
	ok(in.refault_file.prov == VMS_PROV_INFERRED, "and keeps its provenance");

	/* pid 6 began at 190, flush 200 ran before its first isolate at 210: either view */
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 6, 211, 0, &in), 1, "a pass whose decision may precede a flush");
	ok(in.inactive_file.v == 120 && in.inactive_file.lo == 110 && in.inactive_file.hi == 120 &&
	   in.inactive_file.prov == VMS_PROV_INFERRED, "inactive_file 120, range 110..120, inferred");
	ok(in.refault_file.v == 15 && in.refault_file.lo == 0 && in.refault_file.hi == 15 &&
	   in.refault_file.prov == VMS_PROV_INFERRED, "refault_file 15 (25 - 10) or 0 (10 - 10)");
	/* the same pass when its task's previous pass is known to have ended after the flush */
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 6, 211, 205, &in), 1, "the previous pass ended at 205, after flush 200");
	ok(in.inactive_file.v == 120 && in.inactive_file.prov == VMS_PROV_EXACT &&
	   in.refault_file.prov == VMS_PROV_EXACT, "the decision came after the flush: its view, exact");

	/* what stays sampled */
	in = sampled(VMS_KSWAPD);
	is_int(exact_view_fill(v, 7, 301, 0, &in), 0, "kswapd (target: the root) is not the memcg's");
	is_int(in.inactive_file.v, 999, "its inputs are untouched");
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 7, 300 + 6000000, 0, &in), 0, "no isolate within 5 ms: not exact");
	/* a task preempted inside its batch: the isolate after its previous pass is its own */
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 7, 500 + 6000000, 450, &in), 1,
	       "6 ms after its isolate (500), the first isolate since the previous pass: exact");
	is_int(in.inactive_file.v, 120, "with the view of the flush before the isolate");
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 7, 500 + 6000000, 500, &in), 0,
	       "the last isolate is the previous pass's: not exact");
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 7, 500 + 2000000000LL, 450, &in), 0,
	       "more than a second after it: not exact");
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 3, 301, 0, &in), 0, "a task that isolated nothing for the memcg");
	is_int(in.have_lru_size, 0, "no list sizes for it");
	ok(in.inactive_file.prov == VMS_PROV_SAMPLED, "and its inputs stay sampled (no begin record)");
	/* pid 5 began reclaim as a task of memcg 43: another memcg's episode */
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 5, 260, 0, &in), 0, "an episode of another memcg: not exact");
	ok(in.inactive_file.prov == VMS_PROV_UNKNOWN && in.refault_file.prov == VMS_PROV_UNKNOWN,
	   "its list sizes and refaults are unknown, not the recorded memcg's");

	/*
	 * Read back from the decision records (decision_row, read through the
	 * view decision): the list sizes again, and the
	 * memcg's restored refaults since its previous pass (6.18
	 * lru_note_cost_refault(): the IO term of the cost), 47 - 40 = 7.
	 */
	{
		long long restored[2] = { -1, -1 };

		sqlite3_exec(vms_db_sql(db), "UPDATE exact_input SET workingset_restore_file = 40"
			     " WHERE ts = 300; UPDATE exact_input SET workingset_restore_file = 47"
			     " WHERE ts = 500; INSERT INTO decision_row (id, kind, reclaimer, pid, ts, ts_end)"
			     " VALUES (1, 'pass', 'memcg', 7, 301, 302), (2, 'pass', 'memcg', 7, 501, 502),"
			     " (3, 'pass', 'kswapd', 7, 503, 504)", NULL, NULL, NULL);
		exact_view_free(v);
		ok(exact_view_open(vms_db_sql(db), &v) == 0 && v, "exact inputs loaded again");
		memset(&in, 0, sizeof(in));
		in.inactive_file.prov = VMS_PROV_EXACT;
		is_int(exact_view_sizes(v, 1, &in, restored), 1, "decision 1: exact list sizes");
		ok(in.lru_size[2] == 130 && restored[1] == 0, "its lists, no restores before it counted");
		is_int(exact_view_sizes(v, 2, &in, restored), 1, "decision 2: exact list sizes");
		ok(in.lru_size[2] == 132 && restored[1] == 7 && restored[0] == 0,
		   "its lists, and 7 file pages restored since decision 1");
		restored[1] = -1;
		is_int(exact_view_sizes(v, 3, &in, restored), 0, "a kswapd record: not the memcg's");
		is_int(restored[1], -1, "its restores are left alone");
	}

	/*
	 * 6.18 get_scan_count(): the targets are lruvec_lru_size() >> priority,
	 * the lists themselves; the flushed copy (1792 pages, 1792 >> 11 = 0)
	 * would give the file list no target where the list (2149 >> 11 = 1) has one.
	 */
	{
		struct vms_scan_decision d = { .balance = VMS_SCAN_FILE };

		memset(&in, 0, sizeof(in));
		in.priority = 11;
		in.inactive_file.v = 1792;
		is_int(kl_scan_types(&in, &d), 0, "flushed view only: no file target at priority 11");
		in.have_lru_size = 1;
		in.lru_size[2] = 2149;
		is_int(kl_scan_types(&in, &d), 2, "with the exact list size: the file list is scanned");
	}

	/*
	 * 6.18 do_try_to_free_pages(): a memcg reclaim that finds the inactive
	 * lists it may scan empty isolates nothing in its first sweep nor in
	 * the full-walk retry, so its first recorded pass is in the
	 * force_deactivate retry. pid 11 began at 600 with no inactive file
	 * page (5 inactive anon), pid 12 at 800 with 3.
	 */
	sqlite3_exec(vms_db_sql(db), "INSERT INTO exact_input (ts, kind, pid, memcg_id, inactive_anon,"
		     " active_anon, inactive_file, active_file) VALUES"
		     " (600, 'reclaim_begin', 11, 42, 5, 6, 0, 320),"
		     " (800, 'reclaim_begin', 12, 42, 5, 6, 3, 320)", NULL, NULL, NULL);
	exact_view_free(v);
	ok(exact_view_open(vms_db_sql(db), &v) == 0 && v, "exact inputs with empty lists loaded");
	is_int(exact_view_nothing_to_isolate(v, 11, 700, 0), 1,
	       "no inactive file page, anon not scanned: the first sweeps isolate nothing");
	is_int(exact_view_nothing_to_isolate(v, 11, 700, 1), 0,
	       "the same with anon scanned: 5 inactive anon pages to isolate");
	is_int(exact_view_nothing_to_isolate(v, 12, 900, 0), 0, "3 inactive file pages: not empty");
	is_int(exact_view_nothing_to_isolate(v, 11, 600 + 6000000, 0), 1,
	       "a first pass 6 ms after the begin (the task preempted): the same");
	is_int(exact_view_nothing_to_isolate(v, 11, 600 + 2000000000LL, 0), 0,
	       "more than a second after the begin: not known");
	is_int(exact_view_nothing_to_isolate(v, 5, 260, 0), 0, "another memcg's reclaim: not known");
	is_int(exact_view_nothing_to_isolate(NULL, 11, 700, 0), 0, "no exact inputs: not known");

	exact_view_free(v);
	vms_db_close(db);

	/*
	 * 6.18 css_rstat_flush() folds one CPU at a time into the view: with
	 * flush_cpu records the view after each CPU's turn is what a pass
	 * decided between the turns read (not the running values at the
	 * flush). Flush at 100; CPU 0's turn at 101 (view 105/250), CPU 1's
	 * at 103 (110/300); passes at 102 and 104.
	 */
	db = scratch_db("u-exact-view-cpu");
	if (sqlite3_exec(vms_db_sql(db),
			 "INSERT INTO exact_input_run (id, source, memcg, memcg_id, scope, nodes,"
			 " attached_ts) VALUES (1, 'bpf', '/cg', 42, '42 1', 1, 0);"
			 "INSERT INTO exact_input_item (col, kernel_name, enum, item, start_value,"
			 " start_provenance) VALUES"
			 " ('inactive_anon', 'NR_INACTIVE_ANON', 'node_stat_item', 0, 5, 'exact'),"
			 " ('active_anon', 'NR_ACTIVE_ANON', 'node_stat_item', 1, 6, 'exact'),"
			 " ('inactive_file', 'NR_INACTIVE_FILE', 'node_stat_item', 2, 100, 'exact'),"
			 " ('active_file', 'NR_ACTIVE_FILE', 'node_stat_item', 3, 200, 'exact');"
			 "INSERT INTO exact_input (ts, kind, pid, cpu, memcg_id, flush_force,"
			 " flush_needed, inactive_anon, active_anon, inactive_file, active_file) VALUES"
			 " (100, 'flush', 1, 0, 42, 0, 1, 5, 6, 112, 305),"
			 " (101, 'flush_cpu', 1, 0, 42, NULL, NULL, 5, 6, 105, 250),"
			 " (103, 'flush_cpu', 1, 1, 42, NULL, NULL, 5, 6, 110, 300),"
			 " (102, 'isolate', 7, 1, 42, NULL, NULL, 5, 6, 113, 306),"
			 " (104, 'isolate', 7, 1, 42, NULL, NULL, 5, 6, 113, 306)", NULL, NULL, NULL)) {
		ok(0, "cannot insert the rows: %s", sqlite3_errmsg(vms_db_sql(db)));
		return done_testing();
	}
	ok(exact_view_open(vms_db_sql(db), &v) == 0 && v, "per-CPU flush turns loaded");
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 7, 102, 0, &in), 1, "a pass between the two turns: exact");
	ok(in.inactive_file.v == 105 && in.active_file.v == 250,
	   "it read the view after CPU 0's turn only (105/250)");
	in = sampled(VMS_MEMCG);
	is_int(exact_view_fill(v, 7, 104, 0, &in), 1, "a pass after both turns: exact");
	ok(in.inactive_file.v == 110 && in.active_file.v == 300,
	   "the whole flush's view (110/300), not the running values at the flush (112/305)");
	exact_view_free(v);
	vms_db_close(db);
	return done_testing();
}
