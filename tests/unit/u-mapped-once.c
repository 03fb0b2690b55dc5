// SPDX-License-Identifier: GPL-2.0
/*
 * u-mapped-once.c - the mapped_once question (the 2010 seed): each built-in
 * policy's answer for a mapped page used once, and how replay/evaluate.c
 * asks it, counts its pages and never calls it decisive. The expected
 * answers are worked out here from the kernel sources:
 *  2.6.33.3 shrink_page_list(): "if (sc->order <= PAGE_ALLOC_COSTLY_ORDER &&
 *    referenced && page_mapping_inuse(page) && !(vm_flags & VM_LOCKED))
 *    goto activate_locked;" - page_referenced() counts the referenced PTEs
 *    (and PG_referenced), page_mapping_inuse() is 1 for a mapped page: a page
 *    used once through one PTE is activated, anon or file;
 *  2.6.34 page_check_references(): anon "if (PageAnon(page)) return
 *    PAGEREF_ACTIVATE;", file SetPageReferenced(page) and PAGEREF_KEEP
 *    unless referenced_page (4.19 and 5.2.1: PageSwapBacked for PageAnon,
 *    and "referenced_page || referenced_ptes > 1", VM_EXEC activate);
 *  6.18.2 folio_check_references(): folio_set_referenced(folio); ACTIVATE
 *    on "referenced_folio || referenced_ptes > 1" or VM_EXEC file, else
 *    FOLIOREF_KEEP for file and anon; shrink_folio_list() counts
 *    "stat->nr_ref_keep += nr_pages" for every FOLIOREF_KEEP, which also
 *    comes from "referenced_ptes == -1" (rmap lock contention).
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include <sqlite3.h>

#include "vms.h"
#include "../../replay/replay.h"
#include "tap.h"
#include "scratch-db.h"

enum { Q_SCAN, Q_DEACT_FILE, Q_DEACT_ANON, Q_SLAB, Q_RETRY, Q_MAPPED };

extern const struct vms_policy policy_v6_18, policy_v6_8_cache_trim, policy_v2_6_33_mapped_activate;
extern const struct vms_policy policy_v4_12_actual_reclaim, policy_v5_0_boost_noslab;
extern const struct vms_policy policy_v5_3_refault_anon;

static struct vms_value val(long long v)
{
	struct vms_value x = { v, VMS_PROV_SAMPLED, v, v };

	return x;
}

/* A kswapd pass at priority 12 that scanned 32 inactive file pages and kept @anon, @file. */
static struct decision pass(long long anon, long long file)
{
	struct decision d;

	memset(&d, 0, sizeof(d));
	d.id = 1;
	d.in.reclaimer = VMS_KSWAPD;
	d.in.priority = 12;
	d.in.inactive_anon = val(16000);
	d.in.active_anon = val(8000);
	d.in.inactive_file = val(32000);
	d.in.active_file = val(4000);
	d.in.free_pages = val(100000);
	d.in.high_wmark = val(1000);
	d.in.swappiness = val(60);
	d.in.swap_free = val(100000);
	d.scanned[0] = anon ? 32 : 0;
	d.scanned[2] = 32;
	d.ref_keep[0] = anon;
	d.ref_keep[1] = file;
	return d;
}

static struct vms_db *db;
static const char *last_label;	/* the policy judge() evaluated last */

/* Totals of @policy over the one record @d, on a scratch database. */
static struct eval_totals judge(const struct vms_policy *policy, const struct decision *d)
{
	struct policy_instance p = { .policy = policy, .label = (char *)policy->name };
	struct eval_totals tot;

	if (!db)
		db = scratch_db("u-mapped-once");
	memset(&tot, 0, sizeof(tot));
	last_label = policy->name;
	if (evaluate_policy(db, d, 1, &p, 0, &tot))
		ok(0, "evaluate_policy: %s", vms_last_error());
	return tot;
}

/* "kernel|answer|pages|decisive|firmness" of the last judged policy's mapped_once row, or "none". */

static const char *mapped_row(void)
{
	static char buf[128];
	sqlite3_stmt *st;

	snprintf(buf, sizeof(buf), "none");
	if (sqlite3_prepare_v2(vms_db_sql(db), "SELECT kernel, policy_answer, pages, decisive, firmness"
			       " FROM replay_result WHERE question = 'mapped_once' AND policy = ?", -1, &st,
			       NULL))
		return "cannot read replay_result";
	sqlite3_bind_text(st, 1, last_label, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, sizeof(buf), "%s|%s|%s|%d|%s", sqlite3_column_text(st, 0),
			 sqlite3_column_text(st, 1),
			 sqlite3_column_type(st, 2) == SQLITE_NULL ? "null" :
			 (const char *)sqlite3_column_text(st, 2), sqlite3_column_int(st, 3),
			 sqlite3_column_text(st, 4));
	sqlite3_finalize(st);
	return buf;
}

#define is_row(want, what) is_str(mapped_row(), strlen(mapped_row()), want, what)

int main(void)
{
	struct vms_pass_input in;
	struct vms_kswapd_run run;
	struct vms_scan_decision sd;
	struct eval_totals t;
	struct decision d;

	memset(&in, 0, sizeof(in));
	memset(&run, 0, sizeof(run));
	/* the hooks, per kernel */
	is_int(policy_v6_18.mapped_once(NULL, &in, 1), 0, "6.18: file used once: FOLIOREF_KEEP");
	is_int(policy_v6_18.mapped_once(NULL, &in, 0), 0, "6.18: anon used once: FOLIOREF_KEEP");
	is_int(policy_v2_6_33_mapped_activate.mapped_once(NULL, &in, 1), 1,
	       "2.6.33: file, referenced && page_mapping_inuse(): activate_locked");
	is_int(policy_v2_6_33_mapped_activate.mapped_once(NULL, &in, 0), 1,
	       "2.6.33: anon, referenced && page_mapped(): activate_locked");
	in.order = 4;
	is_int(policy_v2_6_33_mapped_activate.mapped_once(NULL, &in, 1), VMS_UNDECIDABLE,
	       "2.6.33: order 4 > PAGE_ALLOC_COSTLY_ORDER: lumpy, reclaimed: neither answer");
	in.order = 3;
	is_int(policy_v2_6_33_mapped_activate.mapped_once(NULL, &in, 1), 1,
	       "2.6.33: order 3 = PAGE_ALLOC_COSTLY_ORDER: activated");
	in.order = 0;
	is_int(policy_v4_12_actual_reclaim.mapped_once(NULL, &in, 0), 1,
	       "4.19: anon, PageSwapBacked: PAGEREF_ACTIVATE");
	is_int(policy_v4_12_actual_reclaim.mapped_once(NULL, &in, 1), 0,
	       "4.19: file, one PTE, flag clear: PAGEREF_KEEP");
	is_int(policy_v5_0_boost_noslab.mapped_once(NULL, &in, 0), 1, "5.2.1: anon activated");
	is_int(policy_v5_0_boost_noslab.mapped_once(NULL, &in, 1), 0, "5.2.1: file kept");
	is_int(policy_v5_3_refault_anon.mapped_once(NULL, &in, 0), 1, "5.3: anon activated");
	is_int(policy_v5_3_refault_anon.mapped_once(NULL, &in, 1), 0, "5.3: file kept");
	ok(policy_v6_8_cache_trim.mapped_once == NULL,
	   "6.8: no hook, the baseline's FOLIOREF_KEEP is 6.2-6.8's too");
	/* 2.6.33 models nothing else: its other answers are not the baseline's */
	is_int(policy_v2_6_33_mapped_activate.deactivate(NULL, &in, 1), VMS_UNDECIDABLE,
	       "2.6.33: deactivation not modelled: undecidable");
	is_int(policy_v2_6_33_mapped_activate.scan_balance(NULL, &in, &sd), VMS_UNDECIDABLE,
	       "2.6.33: scan balance not modelled: undecidable");
	is_int(policy_v2_6_33_mapped_activate.shrink_slab(NULL, &in), VMS_UNDECIDABLE,
	       "2.6.33: slab not modelled: undecidable");
	is_int(policy_v2_6_33_mapped_activate.kswapd_retry(NULL, &run), VMS_UNDECIDABLE,
	       "2.6.33: kswapd loop not modelled: undecidable");
	is_int(policies_check(builtin_policies, builtin_npolicies), 0, "the registry with it is valid");
	ok(policy_find("v2.6.33-mapped-activate") == &policy_v2_6_33_mapped_activate,
	   "v2.6.33-mapped-activate is built in");

	/* asked only where the kernel kept pages by their references */
	d = pass(0, 0);
	t = judge(&policy_v6_18, &d);
	is_int(t.asked[Q_MAPPED], 0, "nr_ref_keep 0: mapped_once not asked");
	is_row("none", "no mapped_once row");

	/* file pages kept: the baseline keeps them, the kernel did; never decisive */
	d = pass(0, 7);
	t = judge(&policy_v6_18, &d);
	is_int(t.asked[Q_MAPPED], 1, "7 file pages kept: asked once");
	is_int(t.agreed[Q_MAPPED], 1, "baseline: keep, as the kernel");
	is_int(t.decisive[Q_MAPPED], 0, "not decisive: the trace carries the answer");
	is_row("keep|keep|0|0|exact", "baseline row: keep, 0 pages, not decisive");
	t = judge(&policy_v2_6_33_mapped_activate, &d);
	is_int(t.agreed[Q_MAPPED], 0, "2.6.33 activates: differs");
	is_int(t.pages_changed[Q_MAPPED], 7, "2.6.33: the 7 kept pages would have been activated");
	is_int(t.decisive[Q_MAPPED], 0, "2.6.33: not decisive either");
	is_row("keep|activate file|7|0|exact", "2.6.33 row");
	t = judge(&policy_v4_12_actual_reclaim, &d);
	is_int(t.agreed[Q_MAPPED], 1, "4.12: file kept, as 2.6.34+");

	/* both types kept: 4.12-5.4 activate the anon ones only */
	d = pass(5, 7);
	t = judge(&policy_v4_12_actual_reclaim, &d);
	is_int(t.asked[Q_MAPPED], 1, "anon and file kept: one question for the pass");
	is_int(t.pages_changed[Q_MAPPED], 5, "4.12: the 5 anon pages activated");
	is_row("keep|activate anon|5|0|exact", "4.12 row: activate anon");
	t = judge(&policy_v2_6_33_mapped_activate, &d);
	is_int(t.pages_changed[Q_MAPPED], 12, "2.6.33: all 12 activated");
	is_row("keep|activate anon+file|12|0|exact", "2.6.33 row: both types");
	t = judge(&policy_v6_18, &d);
	is_int(t.agreed[Q_MAPPED], 1, "6.18: both kept (5.8+ anon too)");
	/* the other questions of 2.6.33 are counted undecidable, not agreeing */
	t = judge(&policy_v2_6_33_mapped_activate, &d);
	is_int(t.undecidable[Q_SCAN], t.asked[Q_SCAN], "2.6.33: every scan_balance undecidable");
	is_int(t.agreed[Q_SLAB], 0, "2.6.33: no shrink_slab agreement lent by the baseline");

	vms_db_close(db);
	return done_testing();
}
