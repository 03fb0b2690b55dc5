// SPDX-License-Identifier: GPL-2.0
/*
 * u-evaluate.c - replay/evaluate.c on hand-built decision records: which
 * questions are asked, when a policy agrees with the recorded kernel, and
 * the "pages at stake" of every branch (scan balance both ways, deactivation
 * of each list, slab and kswapd retry without pages). A test policy gives
 * fixed answers, so every expected number is worked out here from the rules
 * written at the top of evaluate.c and in replay/cmd-replay.c's table note.
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

enum { Q_SCAN, Q_DEACT_FILE, Q_DEACT_ANON, Q_SLAB, Q_RETRY };

/* What the test policy answers; VMS_DEFER hands a question to the baseline. */
static int want_balance = VMS_SCAN_FILE, want_deactivate = 1, want_slab = 1, want_retry = 1;
/* deactivate only when both file lists are over these (0: want_deactivate) */
static long long both_over_inactive, both_over_active;

static int t_scan(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out)
{
	if (want_balance == VMS_DEFER)
		return VMS_DEFER;
	memset(out, 0, sizeof(*out));
	out->balance = want_balance;
	return 0;
}

static int t_deactivate(void *priv, const struct vms_pass_input *in, int file)
{
	if (both_over_inactive)
		return in->inactive_file.v > both_over_inactive && in->active_file.v > both_over_active;
	return want_deactivate;
}

static int t_slab(void *priv, const struct vms_pass_input *in)
{
	return want_slab;
}

static int t_retry(void *priv, const struct vms_kswapd_run *run)
{
	return want_retry;
}

static const struct vms_policy test_policy = {
	.abi = VMS_POLICY_ABI, .name = "test", .description = "fixed answers",
	.deactivate = t_deactivate, .scan_balance = t_scan, .shrink_slab = t_slab,
	.kswapd_retry = t_retry,
};

static struct vms_value val(long long v)
{
	struct vms_value x = { v, VMS_PROV_SAMPLED, v, v };

	return x;
}

/*
 * A kswapd pass at priority 4 on lists of 16000 inactive anon, 8000 active
 * anon, 32000 inactive file, 4000 active file: targets >> 4 are 1000 inactive
 * anon, 500 active anon, 2000 inactive file, 250 active file.
 */
static struct decision pass(long long scan_ia, long long scan_aa, long long scan_if,
			    long long scan_af)
{
	struct decision d;

	memset(&d, 0, sizeof(d));
	d.id = 1;
	d.in.reclaimer = VMS_KSWAPD;
	d.in.priority = 4;
	d.in.inactive_anon = val(16000);
	d.in.active_anon = val(8000);
	d.in.inactive_file = val(32000);
	d.in.active_file = val(4000);
	d.in.free_pages = val(100000);
	d.in.high_wmark = val(1000);
	d.in.swappiness = val(60);
	d.in.swap_free = val(100000);
	d.scanned[0] = scan_ia;
	d.scanned[1] = scan_aa;
	d.scanned[2] = scan_if;
	d.scanned[3] = scan_af;
	d.reclaimed = 10;
	return d;
}

/* A sampled value @v known to lie in [@lo, @hi]. */
static struct vms_value sampled_range(long long v, long long lo, long long hi)
{
	struct vms_value x = { v, VMS_PROV_SAMPLED, lo, hi };

	return x;
}

/* An inferred value @v whose range reaches @other: a list that raced a flush. */
static struct vms_value either_view(long long v, long long other)
{
	struct vms_value x = { v, VMS_PROV_INFERRED, v < other ? v : other, v < other ? other : v };

	return x;
}

static struct vms_db *db;	/* the scratch database judge() writes */
static int with_trivial;	/* judge() also stores the trivial predictors' rows */

/* Totals of the test policy over @d (evaluate_policy, on a scratch database). */
static struct eval_totals judge(const struct decision *d, int n)
{
	struct policy_instance p = { .policy = &test_policy, .label = "test" };
	struct eval_totals tot;

	if (!db)
		db = scratch_db("u-evaluate");
	memset(&tot, 0, sizeof(tot));
	if (evaluate_policy(db, d, n, &p, with_trivial, &tot))
		ok(0, "evaluate_policy: %s", vms_last_error());
	return tot;
}

/* The firmness stored for the test policy's answer to @question. */
static const char *firmness_of(const char *question)
{
	static char buf[32];
	sqlite3_stmt *st;

	snprintf(buf, sizeof(buf), "no row");
	if (sqlite3_prepare_v2(vms_db_sql(db), "SELECT firmness FROM replay_result WHERE policy = 'test'"
			       " AND question = ?", -1, &st, NULL))
		return "cannot read replay_result";
	sqlite3_bind_text(st, 1, question, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, sizeof(buf), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return buf;
}

/* "question:rows:agreements" of replay_trivial per question, joined by spaces. */
static const char *trivial_rows(void)
{
	static char buf[256];
	sqlite3_stmt *st;
	size_t used = 0;

	buf[0] = 0;
	if (sqlite3_prepare_v2(vms_db_sql(db), "SELECT question, COUNT(*), SUM(agrees) FROM replay_trivial"
			       " GROUP BY question ORDER BY question", -1, &st, NULL))
		return "cannot read replay_trivial";
	while (sqlite3_step(st) == SQLITE_ROW && used < sizeof(buf))
		used += snprintf(buf + used, sizeof(buf) - used, "%s%s:%d:%d", used ? " " : "",
				 (const char *)sqlite3_column_text(st, 0), sqlite3_column_int(st, 1),
				 sqlite3_column_int(st, 2));
	sqlite3_finalize(st);
	return buf;
}

int main(void)
{
	struct eval_totals t;
	struct decision d[2];

	/* scan balance, kernel scanned file only; the policy scans anon and file
	 * (EQUAL): it differs, at stake the anon it would have scanned instead,
	 * 16000 >> 4 = 1000 pages */
	d[0] = pass(0, 0, 64, 0);
	want_balance = VMS_SCAN_EQUAL;
	t = judge(d, 1);
	is_int(t.asked[Q_SCAN], 1, "scan_balance asked once");
	is_int(t.agreed[Q_SCAN], 0, "EQUAL against file only: differs");
	is_int(t.pages_changed[Q_SCAN], 1000, "at stake: inactive anon >> priority = 1000");

	/* the other way: the kernel scanned 48 anon and 64 file, the policy file
	 * only: at stake the 48 anon pages the kernel scanned */
	d[0] = pass(48, 0, 64, 0);
	want_balance = VMS_SCAN_FILE;
	t = judge(d, 1);
	is_int(t.agreed[Q_SCAN], 0, "file only against anon+file: differs");
	is_int(t.pages_changed[Q_SCAN], 48, "at stake: the 48 anon pages scanned");

	/* agreement puts nothing at stake */
	want_balance = VMS_SCAN_EQUAL;
	t = judge(d, 1);
	is_int(t.agreed[Q_SCAN], 1, "EQUAL against anon+file: agrees");
	is_int(t.pages_changed[Q_SCAN], 0, "agreeing: nothing at stake");

	/* the baseline (the policy defers) with swappiness 0: FRACT 0:200, so the
	 * anon target is 0: file only, as the kernel scanned */
	want_balance = VMS_DEFER;
	d[0] = pass(0, 0, 64, 0);
	d[0].in.swappiness = val(0);
	t = judge(d, 1);
	is_int(t.agreed[Q_SCAN], 1, "baseline with swappiness 0: file only, agrees");

	/* deactivation: both inactive lists scanned, neither active list aged;
	 * the policy ages both: each differs by its active target, file
	 * 4000 >> 4 = 250, anon 8000 >> 4 = 500 */
	d[0] = pass(48, 0, 64, 0);
	want_balance = VMS_SCAN_EQUAL;
	want_deactivate = 1;
	t = judge(d, 1);
	is_int(t.asked[Q_DEACT_FILE], 1, "deactivate_file asked");
	is_int(t.asked[Q_DEACT_ANON], 1, "deactivate_anon asked");
	is_int(t.agreed[Q_DEACT_FILE] + t.agreed[Q_DEACT_ANON], 0, "aging against kept: both differ");
	is_int(t.pages_changed[Q_DEACT_FILE], 250, "file at stake: active file >> 4 = 250");
	is_int(t.pages_changed[Q_DEACT_ANON], 500, "anon at stake: active anon >> 4 = 500");

	/* the kernel aged the active anon list (12 pages scanned there) */
	d[0] = pass(48, 12, 64, 0);
	t = judge(d, 1);
	is_int(t.agreed[Q_DEACT_ANON], 1, "aged against aged: agrees");
	is_int(t.pages_changed[Q_DEACT_ANON], 0, "agreeing: nothing at stake");
	/* no inactive anon scanned: the anon list question is not asked */
	d[0] = pass(0, 12, 64, 0);
	t = judge(d, 1);
	is_int(t.asked[Q_DEACT_ANON], 0, "no inactive anon scanned: deactivate_anon not asked");
	/* an active list without a target at this priority: 15 >> 4 = 0 */
	d[0] = pass(48, 0, 64, 0);
	d[0].in.active_file = val(15);
	t = judge(d, 1);
	is_int(t.asked[Q_DEACT_FILE], 0, "active file 15 >> 4 = 0: not asked");

	/* firmness of a pass that raced a flush: each file list at one view,
	 * ranging to the other (exact_view_fill()); the policy ages only when
	 * inactive file > 33000 and active file > 7000. At the view read (30000,
	 * 6000) it keeps; moving one list to the other view (36000, or 8000)
	 * still keeps; the other view as a whole (36000 and 8000) ages: not
	 * exact, but inferred */
	d[0] = pass(48, 0, 64, 0);
	d[0].in.inactive_file = either_view(30000, 36000);
	d[0].in.active_file = either_view(6000, 8000);
	both_over_inactive = 33000;
	both_over_active = 7000;
	t = judge(d, 1);
	is_int(t.agreed[Q_DEACT_FILE], 1, "raced pass: kept, as the kernel");
	is_str(firmness_of("deactivate_file"), strlen(firmness_of("deactivate_file")), "inferred",
	       "only the other view as a whole changes it: inferred");
	/* where the other view keeps too (active file 6500 there), exact */
	d[0].in.active_file = either_view(6000, 6500);
	t = judge(d, 1);
	is_str(firmness_of("deactivate_file"), strlen(firmness_of("deactivate_file")), "exact",
	       "no view changes it: exact");
	/* one list at the other end alone flips it: inferred by the one-at-a-time pass */
	d[0].in.inactive_file = either_view(36000, 30000);
	d[0].in.active_file = either_view(8000, 8000);
	t = judge(d, 1);
	is_int(t.agreed[Q_DEACT_FILE], 0, "aged at the view read: differs from the kept");
	is_str(firmness_of("deactivate_file"), strlen(firmness_of("deactivate_file")), "inferred",
	       "inactive file at the other view alone keeps: inferred");
	/* sampled lists: the sample before the pass, ranging to the sample
	 * after it; moved one at a time (36000, or 8000) the answer holds, the
	 * sample after as a whole (36000 and 8000) ages: sampled, not exact */
	d[0].in.inactive_file = sampled_range(30000, 30000, 36000);
	d[0].in.active_file = sampled_range(6000, 6000, 8000);
	t = judge(d, 1);
	is_int(t.agreed[Q_DEACT_FILE], 1, "sampled lists: kept, as the kernel");
	is_str(firmness_of("deactivate_file"), strlen(firmness_of("deactivate_file")), "sampled",
	       "only the sample after as a whole changes it: sampled");
	/* one of them exact (active file 6000 for sure): nothing moves with the
	 * inactive list, which alone keeps: exact */
	d[0].in.active_file = val(6000);
	d[0].in.active_file.prov = VMS_PROV_EXACT;
	t = judge(d, 1);
	is_str(firmness_of("deactivate_file"), strlen(firmness_of("deactivate_file")), "exact",
	       "a single sampled list that cannot change it: exact");
	both_over_inactive = both_over_active = 0;

	/* slab: no shrinker event in the pass; a policy that shrinks is
	 * undecidable, one that skips agrees; a shrinker call seen and skipped
	 * differs, with no pages at stake */
	d[0] = pass(0, 0, 64, 0);
	want_slab = 1;
	t = judge(d, 1);
	is_int(t.undecidable[Q_SLAB], 1, "shrink without an event: undecidable");
	is_int(t.agreed[Q_SLAB], 0, "undecidable is not agreement");
	want_slab = 0;
	t = judge(d, 1);
	is_int(t.agreed[Q_SLAB], 1, "skip without an event: agrees");
	d[0].slab_calls = 3;
	t = judge(d, 1);
	is_int(t.agreed[Q_SLAB] + t.undecidable[Q_SLAB], 0, "skip against 3 calls: differs");
	is_int(t.pages_changed[Q_SLAB], 0, "slab: no pages at stake");

	/* kswapd retry: asked only for runs whose first sweep reclaimed nothing;
	 * the kernel retried when the run restarted after that sweep */
	d[1] = pass(0, 0, 0, 0);
	d[1].id = 2;
	d[1].is_run = 1;
	d[1].first_lowest = 1;
	d[1].first_reclaimed = 0;
	d[1].retried = 0;
	want_retry = 1;
	t = judge(&d[1], 1);
	is_int(t.asked[Q_RETRY], 1, "a failed first sweep: kswapd_retry asked");
	is_int(t.agreed[Q_RETRY], 0, "retry against a counted failure: differs");
	d[1].retried = 1;
	t = judge(&d[1], 1);
	is_int(t.agreed[Q_RETRY], 1, "retry against a retried run: agrees");
	d[1].first_reclaimed = 5;
	t = judge(&d[1], 1);
	is_int(t.asked[Q_RETRY], 0, "a first sweep that reclaimed: not asked");
	d[1].first_reclaimed = 0;
	d[1].first_lowest = -1;
	t = judge(&d[1], 1);
	is_int(t.asked[Q_RETRY], 0, "no first sweep recorded: not asked");

	/* the trivial predictors, stored on decisive decisions whatever the policy:
	 * scan_balance (swap, both types with a target) against file only: "file
	 * only" and refault-blind 6.18 (cache_trim_mode: 32000 >> 4 inactive file,
	 * ratio not low) agree, anon+file and FRACT 60:140 do not; deactivate_file
	 * (ratio not low, the file list kept): the ratio test and "always kept"
	 * agree, "always aged" not; no anon scanned, slab not decisive (no boost) */
	d[0] = pass(0, 0, 64, 0);
	want_balance = VMS_SCAN_EQUAL;
	with_trivial = 1;
	t = judge(d, 1);
	is_str(trivial_rows(), strlen(trivial_rows()), "deactivate_file:3:2 scan_balance:4:2", "trivial predictors stored");
	is_int(t.decisive[Q_SCAN], 1, "scan_balance decisive");
	is_int(t.agreed_decisive[Q_SCAN], 0, "EQUAL differs on the decisive decision");
	/* without swap the scan balance is not decisive: no rows for it */
	d[0].in.swap_free = val(0);
	t = judge(d, 1);
	is_str(trivial_rows(), strlen(trivial_rows()), "deactivate_file:3:2", "no swap: scan_balance not decisive");
	/* the other policies leave the rows alone */
	with_trivial = 0;
	d[0] = pass(0, 0, 64, 0);
	t = judge(d, 1);
	is_str(trivial_rows(), strlen(trivial_rows()), "deactivate_file:3:2", "without with_trivial: rows kept");

	return done_testing();
}
