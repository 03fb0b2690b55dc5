// SPDX-License-Identifier: GPL-2.0
/*
 * u-policies-4.c - the 4.12-5.4 reclaim logic (kernel-logic-4.c) and the
 * policies built on it (v4.12-actual-reclaim, v5.0-boost-noslab,
 * v5.3-refault-anon) on hand-built inputs. Each expected answer is worked
 * out here from the kernel function quoted in the comment (4.14.5, 4.19.72,
 * 5.2.1, 5.3.1 mm/vmscan.c), where it differs from 6.18.
 */
#include <string.h>

#include "vms.h"
#include "../../replay/replay.h"
#include "tap.h"

extern const struct vms_policy policy_v6_18, policy_v4_12_actual_reclaim,
	policy_v5_3_refault_anon, policy_v5_0_boost_noslab;

static struct vms_value val(long long v)
{
	struct vms_value x = { v, VMS_PROV_SAMPLED, v, v };

	return x;
}

/* memcg reclaim, swap, swappiness 60, recent_* of an anon list that rotates little */
static struct vms_pass_input base(void)
{
	struct vms_pass_input in;

	memset(&in, 0, sizeof(in));
	in.reclaimer = VMS_MEMCG;
	in.priority = 12;
	in.inactive_anon = val(8192);
	in.active_anon = val(100);
	in.inactive_file = val(8192);
	in.active_file = val(100);
	in.free_pages = val(100000);
	in.high_wmark = val(1000);
	in.swappiness = val(60);
	in.swap_free = val(100000);
	in.swap_total = val(100000);
	in.boost_reclaim = val(0);
	in.recent_scanned[0] = val(1000);
	in.recent_rotated[0] = val(100);
	in.recent_scanned[1] = val(1000);
	in.recent_rotated[1] = val(900);
	return in;
}

static void *priv_round_up(const struct vms_policy *p, const char *params)
{
	void *priv = NULL;

	if (p->init(&priv, params))
		return NULL;
	return priv;
}

int main(void)
{
	struct vms_scan_decision d;
	struct vms_pass_input in;
	void *down, *up;
	int r;

	down = priv_round_up(&policy_v4_12_actual_reclaim, "");
	up = priv_round_up(&policy_v4_12_actual_reclaim, "round_up=1");
	ok(down && up, "v4.12 takes round_up=0|1");
	ok(policy_v4_12_actual_reclaim.init(&down, "round_up=2") < 0, "round_up=2 refused");

	/*
	 * 5.2.1 inactive_list_is_low(): "If we don't have swap space, anonymous
	 * page deactivation is pointless": !file && !total_swap_pages -> false
	 */
	in = base();
	in.inactive_anon = val(10);
	in.active_anon = val(50);
	is_int(kl4_inactive_list_is_low(&in, 0, 1), 1, "swap configured: 10 < 50, anon low");
	in.swap_total = val(0);
	is_int(kl4_inactive_list_is_low(&in, 0, 1), 0, "no swap configured: anon never low");
	/* refaults zero the file ratio only when the caller counts them (actual_reclaim) */
	in = base();
	in.refault_file = val(5);
	is_int(kl4_inactive_list_is_low(&in, 1, 1), 1, "refaults, actual_reclaim: 8192*0 < 100, low");
	is_int(kl4_inactive_list_is_low(&in, 1, 0), 0, "refaults, !actual_reclaim: 8192*1 >= 100");

	/*
	 * Before 5.9 there is no anon workingset: 5.3.1 shrink_list() ages anon
	 * by inactive_list_is_low() only, where 6.18 also counts anon refaults.
	 */
	in = base();
	in.refault_anon = val(7);
	is_int(policy_v5_3_refault_anon.deactivate(NULL, &in, 0), 0, "5.3: anon refaults do not age anon");
	is_int(policy_v6_18.deactivate(NULL, &in, 0), 1, "6.18: they do");

	/*
	 * 4.14.5/5.2.1 get_scan_count(): !inactive_list_is_low(lruvec, true, sc,
	 * false) && inactive_file >> priority -> SCAN_FILE: refaults do not count
	 * (4.12-5.2); 5.3.1 inactive_list_is_low(): if (file && refaults) in every
	 * call, so the shortcut is off and FRACT follows.
	 */
	in = base();
	in.priority = 1;
	in.refault_file = val(5);
	policy_v4_12_actual_reclaim.scan_balance(down, &in, &d);
	is_int(d.balance, VMS_SCAN_FILE, "4.12: refaults do not stop SCAN_FILE");
	policy_v5_3_refault_anon.scan_balance(NULL, &in, &d);
	is_int(d.balance, VMS_SCAN_FRACT, "5.3: refaults turn the shortcut off");
	/*
	 * 5.2.1 SCAN_FRACT: ap = 60 * (1000 + 1) / (100 + 1) = 594,
	 * fp = 140 * (1000 + 1) / (900 + 1) = 155, denominator = ap + fp + 1 = 750
	 */
	is_int(d.fraction_anon, 594, "recent_* anon fraction 60*1001/101");
	is_int(d.fraction_file, 155, "recent_* file fraction 140*1001/901");
	is_int(d.denominator, 750, "denominator ap + fp + 1");
	/*
	 * priority 12: each list 8192 >> 12 = 2 pages. Round down (4.14.5
	 * div64_u64): anon 2*594/750 = 1, file 2*155/750 = 0 -> anon only.
	 * Round up (4.19.72/5.2.1 DIV64_U64_ROUND_UP): anon 2, file 1 -> both.
	 */
	in.priority = 12;
	in.inactive_file = val(8192);
	in.active_file = val(9000);	/* file low: no SCAN_FILE shortcut */
	in.refault_file = val(0);
	policy_v4_12_actual_reclaim.scan_balance(down, &in, &d);
	is_int(d.balance, VMS_SCAN_FRACT, "file list low: fractional");
	is_int(kl_scan_types(&in, &d), 1, "4.12-4.19 round down: anon only");
	policy_v4_12_actual_reclaim.scan_balance(up, &in, &d);
	is_int(kl_scan_types(&in, &d), 3, "4.20+ round up: anon and file");
	policy_v5_3_refault_anon.scan_balance(NULL, &in, &d);
	is_int(kl_scan_types(&in, &d), 3, "5.3 rounds up too");

	/*
	 * 5.2.1 get_scan_count() cache trap: file + free <= high in global
	 * reclaim, and !inactive_list_is_low(anon) && inactive_anon >> priority
	 * -> SCAN_ANON; with anon low it falls through to the file shortcut.
	 */
	in = base();
	in.reclaimer = VMS_DIRECT;
	in.priority = 2;
	in.inactive_file = val(100);
	in.active_file = val(10);
	in.free_pages = val(100);
	policy_v4_12_actual_reclaim.scan_balance(down, &in, &d);
	is_int(d.balance, VMS_SCAN_ANON, "file tiny, anon not low: anon only");
	in.active_anon = val(90000);	/* anon low */
	policy_v4_12_actual_reclaim.scan_balance(down, &in, &d);
	is_int(d.balance, VMS_SCAN_FILE, "file tiny, anon low: the file shortcut (100 >= 10, 100>>2)");
	in.swap_total = val(0);
	in.active_anon = val(100);
	policy_v4_12_actual_reclaim.scan_balance(down, &in, &d);
	is_int(d.balance, VMS_SCAN_ANON, "no swap configured yet swap free: anon not 'low', anon only");

	/*
	 * 5.0.1/5.2.1 balance_pgdat(): sc.may_swap = sc.may_shrinkslab =
	 * !nr_boost_reclaim; shrink_node(): if (sc->may_shrinkslab) shrink_slab()
	 */
	in = base();
	in.reclaimer = VMS_KSWAPD;
	in.boost = val(512);
	in.boost_reclaim = val(512);
	is_int(policy_v5_0_boost_noslab.shrink_slab(NULL, &in), 0, "5.0: boosted kswapd skips slab");
	in.boost_reclaim.prov = VMS_PROV_UNKNOWN;
	is_int(policy_v5_0_boost_noslab.shrink_slab(NULL, &in), VMS_UNDECIDABLE,
	       "5.0: zone boost seen, running nr_boost_reclaim unknown: undecidable");
	in.boost_reclaim = val(0);
	is_int(policy_v5_0_boost_noslab.shrink_slab(NULL, &in), 1, "5.0: unboosted kswapd shrinks slab");
	in.reclaimer = VMS_DIRECT;
	in.boost_reclaim.prov = VMS_PROV_UNKNOWN;
	is_int(policy_v5_0_boost_noslab.shrink_slab(NULL, &in), 1, "5.0: direct reclaim .may_shrinkslab = 1");
	in.reclaimer = VMS_KSWAPD;
	in.boost_reclaim = val(512);
	in.active_file = val(9000);	/* FRACT otherwise */
	r = policy_v5_0_boost_noslab.scan_balance(NULL, &in, &d);
	is_int(r, 0, "5.0 boosted kswapd: decidable");
	is_int(d.balance, VMS_SCAN_FILE, "5.0 boosted kswapd: may_swap 0, file only");
	r = policy_v4_12_actual_reclaim.scan_balance(down, &in, &d);
	is_int(d.balance, VMS_SCAN_FRACT, "4.12 (no boosting before 5.0): fractional");

	policy_v4_12_actual_reclaim.fini(down);
	policy_v4_12_actual_reclaim.fini(up);
	return done_testing();
}
