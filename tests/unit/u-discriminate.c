// SPDX-License-Identifier: GPL-2.0
/*
 * u-discriminate.c - which decisions are decisive for a question, and what
 * its trivial predictors answer (replay/discriminate.c), on hand-built
 * decision records.
 */
#include <string.h>

#include "vms.h"
#include "../../replay/replay.h"
#include "tap.h"

enum { Q_SCAN, Q_DEACT_FILE, Q_DEACT_ANON, Q_SLAB, Q_RETRY };

static struct vms_value val(long long v)
{
	struct vms_value x = { v, VMS_PROV_SAMPLED, v, v };

	return x;
}

static struct decision base(void)
{
	struct decision d;

	memset(&d, 0, sizeof(d));
	d.in.reclaimer = VMS_KSWAPD;
	d.in.priority = 4;
	d.in.inactive_anon = val(5000);
	d.in.active_anon = val(100);
	d.in.inactive_file = val(5000);
	d.in.active_file = val(100);
	d.in.free_pages = val(100000);
	d.in.high_wmark = val(1000);
	d.in.swappiness = val(60);
	d.in.swap_free = val(1000);
	d.in.swap_total = val(1000);
	d.in.boost_reclaim = val(0);
	d.first_lowest = -1;
	return d;
}

int main(void)
{
	struct decision d;

	d = base();
	ok(question_decisive(Q_SCAN, &d), "scan: swap, both lists have a target: decisive");
	d.in.swap_free = val(0);
	ok(!question_decisive(Q_SCAN, &d), "scan: no swap, file only by construction: not decisive");
	d = base();
	d.in.inactive_anon = val(10);	/* 10 >> 4 = 0 */
	ok(!question_decisive(Q_SCAN, &d), "scan: anon has no target at this priority: not decisive");
	d = base();
	d.in.priority = 0;
	ok(!question_decisive(Q_SCAN, &d), "scan: priority 0 (SCAN_EQUAL): not decisive");

	d = base();
	ok(question_decisive(Q_DEACT_FILE, &d), "deactivate_file: ratio not low, refaults decide");
	d.in.active_file = val(90000);
	ok(!question_decisive(Q_DEACT_FILE, &d), "deactivate_file: ratio low, aged whatever refaults say");
	d = base();
	d.in.force_deactivate = 1;
	ok(!question_decisive(Q_DEACT_FILE, &d), "deactivate_file: force_deactivate sweep");

	d = base();
	ok(!question_decisive(Q_SLAB, &d), "slab: no boost seen: every slab policy shrinks");
	d.in.boost_reclaim.prov = VMS_PROV_UNKNOWN;
	ok(question_decisive(Q_SLAB, &d), "slab: kswapd with a boost: decisive");

	d = base();
	d.first_lowest = 3;
	ok(!question_decisive(Q_RETRY, &d), "retry: the loop broke at 3: not decisive");
	d.first_lowest = 1;
	ok(question_decisive(Q_RETRY, &d), "retry: the loop ran to the end: decisive");

	/* trivial predictors: 5000 >> 4 = 312 pages each */
	d = base();
	is_int(trivial_answer(Q_SCAN, 0, &d), 2, "file only");
	is_int(trivial_answer(Q_SCAN, 1, &d), 3, "anon+file");
	is_int(trivial_answer(Q_SCAN, 2, &d), 3, "always FRACT 60:140: 312*60/200 = 93 anon, 218 file");
	d.in.refault_file = val(9);
	/* refault-blind 6.18: no refaults, 5000 >= 100: cache_trim_mode, file only */
	is_int(trivial_answer(Q_SCAN, 3, &d), 2, "refault-blind 6.18: cache_trim_mode, file only");
	is_int(trivial_answer(Q_DEACT_FILE, 0, &d), 0, "refault-blind deactivation: ratio not low, keep");
	is_int(trivial_answer(Q_DEACT_FILE, 1, &d), 1, "always aged");
	is_int(trivial_answer(Q_DEACT_FILE, 2, &d), 0, "always kept");
	d.first_lowest = 4;
	is_int(trivial_answer(Q_RETRY, 2, &d), 0, "retry when the loop ran to the end: not at 4");
	is_int(trivial_answer(Q_RETRY, 1, &d), 1, "always retry");
	ok(trivial_name(Q_SLAB, 2) == NULL, "slab has two trivial predictors");
	return done_testing();
}
