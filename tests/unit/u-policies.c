// SPDX-License-Identifier: GPL-2.0
/*
 * u-policies.c - the replay's 6.x kernel logic, the baseline and the 6.8
 * policy on hand-built decision inputs, and the policy registry. Every
 * expected answer is worked out here from the kernel source named in the
 * comment (6.18.2 / 6.8.1 mm/vmscan.c), not taken from the code under test.
 * The 4.12-5.4 policies are in u-policies-4.c.
 */
#include <string.h>

#include "vms.h"
#include "../../replay/replay.h"
#include "tap.h"

extern const struct vms_policy policy_v6_18, policy_v6_8_cache_trim;

static struct vms_value val(long long v)
{
	struct vms_value x = { v, VMS_PROV_SAMPLED, v, v };

	return x;
}

/* kswapd pass, swap present, swappiness 60, nothing else special */
static struct vms_pass_input base(void)
{
	struct vms_pass_input in;

	memset(&in, 0, sizeof(in));
	in.reclaimer = VMS_KSWAPD;
	in.priority = 12;
	in.inactive_anon = val(5000);
	in.active_anon = val(100);
	in.inactive_file = val(100000);
	in.active_file = val(1000);
	in.free_pages = val(100000);
	in.high_wmark = val(1000);
	in.swappiness = val(60);
	in.swap_free = val(100000);
	in.swap_total = val(100000);
	in.boost_reclaim = val(0);	/* no boost seen */
	return in;
}

static int balance(const struct vms_policy *p, const struct vms_pass_input *in,
		   struct vms_scan_decision *d)
{
	memset(d, 0, sizeof(*d));
	return p->scan_balance(NULL, in, d);
}

int main(void)
{
	struct vms_scan_decision d;
	struct vms_pass_input in;
	struct vms_kswapd_run run;
	long long v = -1;

	/* inactive_is_low: under 1 GiB the ratio is 1 */
	is_int(kl_inactive_is_low(100, 200), 1, "100 inactive < 200 active: low");
	is_int(kl_inactive_is_low(300, 200), 0, "300 inactive >= 200 active: not low");
	/* 4 GiB = 1048576 pages: ratio int_sqrt(40) = 6 */
	is_int(kl_inactive_is_low(200000, 848576), 0, "4 GiB: 200000*6 = 1.2M >= 848576: not low");
	is_int(kl_inactive_is_low(100000, 948576), 1, "4 GiB: 100000*6 = 600000 < 948576: low");

	/* get_scan_count step 1: no swap -> SCAN_FILE */
	in = base();
	in.swap_free = val(0);
	balance(&policy_v6_18, &in, &d);
	is_int(d.balance, VMS_SCAN_FILE, "no swap: file only");
	/* step 2: memcg reclaim with swappiness 0 */
	in = base();
	in.reclaimer = VMS_MEMCG;
	in.swappiness = val(0);
	balance(&policy_v6_18, &in, &d);
	is_int(d.balance, VMS_SCAN_FILE, "memcg reclaim, swappiness 0: file only");
	/* step 3: priority 0 -> SCAN_EQUAL */
	in = base();
	in.priority = 0;
	balance(&policy_v6_18, &in, &d);
	is_int(d.balance, VMS_SCAN_EQUAL, "priority 0: equal");
	/* step 4: file tiny: 10+10+100 <= 1000 high, anon not low (5000 >= 100), 5000>>2 != 0 */
	in = base();
	in.priority = 2;
	in.inactive_file = val(10);
	in.active_file = val(10);
	in.free_pages = val(100);
	balance(&policy_v6_18, &in, &d);
	is_int(d.balance, VMS_SCAN_ANON, "file tiny: anon only");
	in.reclaimer = VMS_MEMCG;
	balance(&policy_v6_18, &in, &d);
	ok(d.balance != VMS_SCAN_ANON, "file_is_tiny is global reclaim only");
	/* step 5: cache_trim_mode: 8192>>1 != 0, file not low (8192 >= 100), no refaults */
	in = base();
	in.priority = 1;
	in.inactive_file = val(8192);
	in.active_file = val(100);
	balance(&policy_v6_18, &in, &d);
	is_int(d.balance, VMS_SCAN_FILE, "cache_trim_mode: file only");
	/* the same with file refaults: deactivate_file, no cache trim -> FRACT 60:140 at cost 0 */
	in.refault_file = val(10);
	balance(&policy_v6_18, &in, &d);
	is_int(d.balance, VMS_SCAN_FRACT, "file refaults: fractional");
	is_int(d.fraction_anon, 60, "cost 0: anon fraction = swappiness");
	is_int(d.fraction_file, 140, "cost 0: file fraction = 200 - swappiness");
	/*
	 * 6.18 prepare_scan_control(): cache_trim_mode needs !sc->no_cache_trim_mode;
	 * on kswapd's retry sweep (6.9+) the same pass is FRACT, in 6.8 still FILE
	 */
	in.refault_file = val(0);
	in.no_cache_trim_mode = 1;
	balance(&policy_v6_18, &in, &d);
	is_int(d.balance, VMS_SCAN_FRACT, "6.18 retry sweep: no cache_trim_mode, fractional");
	balance(&policy_v6_8_cache_trim, &in, &d);
	is_int(d.balance, VMS_SCAN_FILE, "6.8: no no_cache_trim_mode, still file only");
	in.no_cache_trim_mode = 0;
	in.refault_file = val(10);
	/* cost model: anon 100, file 300: total 400, a 500, f 700, total 1200;
	 * ap = 60*1201/501 = 143, fp = 140*1201/701 = 239 */
	kl_scan_balance(&in, 100, 300, &d);
	is_int(d.fraction_anon, 143, "cost model anon fraction 60*1201/501");
	is_int(d.fraction_file, 239, "cost model file fraction 140*1201/701");

	/* scan targets: prio 12, 4096 pages each: 1 page * 60/200 = 0 anon, 1*140/200 = 0 file */
	in = base();
	in.inactive_anon = val(4096);
	in.inactive_file = val(4096);
	d.balance = VMS_SCAN_FRACT;
	d.fraction_anon = 60;
	d.fraction_file = 140;
	is_int(kl_scan_types(&in, &d), 0, "priority 12: both targets round to 0");
	in.priority = 4;	/* 256 pages: anon 256*60/200 = 76, file 256*140/200 = 179 */
	is_int(kl_scan_types(&in, &d), 3, "priority 4: both types scanned");
	d.balance = VMS_SCAN_FILE;
	is_int(kl_scan_types(&in, &d), 2, "SCAN_FILE: file only");

	/*
	 * 6.18 balance_pgdat(): sc.may_swap = !nr_boost_reclaim; get_scan_count():
	 * !sc->may_swap -> SCAN_FILE. The running value is not recorded: with a
	 * boost on the node the answer is undecidable unless it is SCAN_FILE anyway.
	 */
	in = base();
	in.priority = 4;
	in.refault_file = val(10);	/* FRACT otherwise */
	in.boost_reclaim = val(512);
	is_int(balance(&policy_v6_18, &in, &d), 0, "boosted kswapd: decidable");
	is_int(d.balance, VMS_SCAN_FILE, "boosted kswapd (nr_boost_reclaim 512): may_swap 0, file only");
	in.boost_reclaim.prov = VMS_PROV_UNKNOWN;
	is_int(balance(&policy_v6_18, &in, &d), VMS_UNDECIDABLE,
	       "boost seen, running nr_boost_reclaim unknown: undecidable");
	in.swap_free = val(0);
	is_int(balance(&policy_v6_18, &in, &d), 0, "no swap: file only whatever may_swap was");
	in = base();
	in.priority = 4;
	in.refault_file = val(10);
	in.reclaimer = VMS_DIRECT;
	in.boost_reclaim.prov = VMS_PROV_UNKNOWN;
	is_int(balance(&policy_v6_18, &in, &d), 0, "direct reclaim: .may_swap = 1 always");
	is_int(d.balance, VMS_SCAN_FRACT, "direct reclaim with refaults: fractional");

	/* deactivation bits */
	in = base();
	in.inactive_file = val(100);
	in.active_file = val(50);
	is_int(kl_deactivate_file(&in), 0, "file list not low, no refaults: keep active file");
	in.refault_file = val(1);
	is_int(kl_deactivate_file(&in), 1, "one refault: age the active file list");
	in.inactive_anon = val(10);
	in.active_anon = val(50);
	is_int(kl_deactivate_anon(&in), 1, "inactive anon low: age active anon");
	/* 5.9+ anon workingset: refaults != target_lruvec->refaults[WORKINGSET_ANON] */
	in = base();
	in.refault_anon = val(3);
	is_int(policy_v6_18.deactivate(NULL, &in, 0), 1, "6.18: anon refaults age active anon");
	/* 6.18 prepare_scan_control(): sc->force_deactivate -> both bits, whatever the sizes */
	in = base();
	in.force_deactivate = 1;
	is_int(policy_v6_18.deactivate(NULL, &in, 1), 1, "force_deactivate sweep: age active file");
	is_int(policy_v6_18.deactivate(NULL, &in, 0), 1, "force_deactivate sweep: age active anon");
	ok(!kl_cache_trim_mode(&in), "force_deactivate: DEACTIVATE_FILE set, so no cache_trim_mode");
	/* 5.9+: anon refaults since the last cycle age active anon on a list that is not low */
	in = base();
	in.inactive_anon = val(100);
	in.active_anon = val(50);
	is_int(kl_deactivate_anon(&in), 0, "anon list not low, no anon refaults: keep active anon");
	in.refault_anon = val(1);
	is_int(kl_deactivate_anon(&in), 1, "one anon refault: age the active anon list");
	in.refault_anon = val(0);
	in.refault_file = val(5);
	is_int(kl_deactivate_anon(&in), 0, "file refaults do not age the anon list");
	/* and in the scan balance: anon refaults end file_is_tiny's anon-only choice */
	in.refault_anon = val(1);
	in.priority = 2;
	in.inactive_file = val(10);
	in.active_file = val(10);
	in.free_pages = val(100);
	balance(&policy_v6_18, &in, &d);
	ok(d.balance != VMS_SCAN_ANON, "file tiny but anon refaulting: not anon only");

	/* 5.3+ (6.18 shrink_node_memcgs): shrink_slab() for every memcg visited, boosted or not */
	in = base();
	in.boost = val(512);
	in.boost_reclaim.prov = VMS_PROV_UNKNOWN;
	is_int(policy_v6_18.shrink_slab(NULL, &in), 1, "6.18: boosted kswapd shrinks slab");

	/*
	 * 6.18 balance_pgdat(): if (!sc.nr_reclaimed && sc.priority < 1 &&
	 * !sc.no_cache_trim_mode && sc.cache_trim_mode_failed) restart
	 */
	memset(&run, 0, sizeof(run));
	run.lowest_priority = 1;
	run.cache_trim_mode_failed = 1;
	is_int(policy_v6_18.kswapd_retry(NULL, &run), 1, "6.18: ran to the end, cache trim failed: retry");
	is_int(policy_v6_8_cache_trim.kswapd_retry(NULL, &run), 0, "6.8.1: kswapd_failures++, no retry");
	run.cache_trim_mode_failed = 0;
	is_int(policy_v6_18.kswapd_retry(NULL, &run), 0, "6.18: cache_trim_mode never failed: no retry");
	run.cache_trim_mode_failed = 1;
	run.lowest_priority = 4;
	is_int(policy_v6_18.kswapd_retry(NULL, &run), 0,
	       "6.18: the loop broke at priority 4 (boost, freezer): sc.priority < 1 false, no retry");
	run.lowest_priority = 1;
	run.slab_freed = 1;
	is_int(policy_v6_18.kswapd_retry(NULL, &run), VMS_UNDECIDABLE,
	       "6.18: shrinkers freed objects: sc.nr_reclaimed may hold slab pages, undecidable");

	/* DIV64_U64_ROUND_UP: 2 pages * 1/3 rounds up to 1 */
	in = base();
	in.priority = 12;
	in.inactive_anon = val(8192);	/* 8192 >> 12 = 2 */
	in.inactive_file = val(8192);
	memset(&d, 0, sizeof(d));
	d.balance = VMS_SCAN_FRACT;
	d.fraction_anon = 1;
	d.fraction_file = 2;
	is_int(kl_scan_types(&in, &d), 2, "round down: anon 2*1/3 = 0, file 2*2/3 = 1");
	d.round_up = 1;
	is_int(kl_scan_types(&in, &d), 3, "round up: anon 1, file 2");
	d.denominator = 10;
	d.round_up = 0;
	is_int(kl_scan_types(&in, &d), 0, "denominator 10: 2*1/10 = 0, 2*2/10 = 0");

	/* parameters */
	{
		static const char *const keys[] = { "swappiness" };

		is_int(policy_params("swappiness=10", keys, &v, 1), 0, "k=v parses");
		is_int(v, 10, "value read");
		ok(policy_params("foo=1", keys, &v, 1) < 0, "unknown key refused");
		ok(policy_params("swappiness=abc", keys, &v, 1) < 0, "non-number refused");
		ok(policy_params("swappiness", keys, &v, 1) < 0, "missing value refused");
	}
	/* registry checks */
	{
		struct vms_policy bad = policy_v6_8_cache_trim;

		bad.scan_balance = NULL;
		const struct vms_policy *dup[] = { &policy_v6_18, &policy_v6_18 };
		const struct vms_policy *list[] = { &bad };

		is_int(policies_check(builtin_policies, builtin_npolicies), 0, "built-ins register");
		ok(policies_check(dup, 2) < 0, "duplicate name refused");
		bad.abi = VMS_POLICY_ABI + 1;
		ok(policies_check(list, 1) < 0, "wrong ABI refused");
		bad.abi = VMS_POLICY_ABI;
		bad.kswapd_retry = NULL;
		ok(policies_check(list, 1) < 0, "a policy with no hook refused");
	}
	return done_testing();
}
