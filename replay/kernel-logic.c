// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-logic.c - the reclaim decisions of the recording's kernel (6.18,
 * classic two-list LRU), written as pure functions of a decision record's
 * inputs, after mm/vmscan.c of Linux 6.18 (get_scan_count(), shrink_list(),
 * inactive_is_low(), shrink_node(), balance_pgdat()). The baseline
 * policy and the 6.x variants are built from these pieces (the 4.12-5.4
 * logic is kernel-logic-4.c). Functions and line numbers are those of the
 * 6.18.2 mm/vmscan.c.
 */
#include <string.h>

#include "replay.h"

/* int_sqrt(): the largest r with r * r <= x, bit by bit */
long long kl_int_sqrt(long long x)
{
	long long r = 0, bit;

	for (bit = 1LL << 30; bit; bit >>= 1)
		if ((r + bit) * (r + bit) <= x)
			r += bit;
	return r;
}

/* inactive_is_low(): inactive * int_sqrt(10 * GiB) < active (ratio 1 under 1 GiB) */
int kl_inactive_is_low(long long inactive, long long active)
{
	long long gb = (inactive + active) >> (30 - 12);	/* 4 KiB pages to GiB */
	long long ratio = gb ? kl_int_sqrt(10 * gb) : 1;

	return inactive * ratio < active;
}

/*
 * prepare_scan_control(): DEACTIVATE_FILE = file refaults since the last
 * cycle, or inactive file low; both bits on a force_deactivate sweep.
 */
int kl_deactivate_file(const struct vms_pass_input *in)
{
	return in->force_deactivate || in->refault_file.v > 0 ||
	       kl_inactive_is_low(in->inactive_file.v, in->active_file.v);
}

/* DEACTIVATE_ANON = inactive anon low, or (5.9+) anon refaults since the last cycle */
int kl_deactivate_anon(const struct vms_pass_input *in)
{
	return in->force_deactivate || in->refault_anon.v > 0 ||
	       kl_inactive_is_low(in->inactive_anon.v, in->active_anon.v);
}

/*
 * cache_trim_mode: enough inactive file at this priority, file is not being
 * deactivated, and (6.9+) not the kswapd retry sweep (no_cache_trim_mode).
 */
int kl_cache_trim_mode(const struct vms_pass_input *in)
{
	return (in->inactive_file.v >> in->priority) != 0 && !kl_deactivate_file(in) &&
	       !in->no_cache_trim_mode;
}

/* file_is_tiny (global reclaim only): file + free below the high watermarks */
int kl_file_is_tiny(const struct vms_pass_input *in)
{
	if (in->reclaimer == VMS_MEMCG)
		return 0;
	return in->inactive_file.v + in->active_file.v + in->free_pages.v <= in->high_wmark.v &&
	       !kl_deactivate_anon(in) && (in->inactive_anon.v >> in->priority) != 0;
}

int kl_may_swap(const struct vms_pass_input *in)
{
	if (in->reclaimer != VMS_KSWAPD)
		return 1;
	if (in->boost_reclaim.prov == VMS_PROV_UNKNOWN)
		return VMS_UNDECIDABLE;
	return in->boost_reclaim.v == 0;
}

int kl_scan_balance(const struct vms_pass_input *in, long long anon_cost, long long file_cost,
		    struct vms_scan_decision *out)
{
	long long swappiness = in->swappiness.v, total, a, f;
	int may_swap = kl_may_swap(in);

	memset(out, 0, sizeof(*out));
	/* get_scan_count(): !sc->may_swap || !can_reclaim_anon_pages() */
	if (in->swap_free.v <= 0 || may_swap == 0) {
		out->balance = VMS_SCAN_FILE;		/* no swap, or boosted kswapd */
		return 0;
	}
	if (in->reclaimer == VMS_MEMCG && swappiness == 0) {
		out->balance = VMS_SCAN_FILE;
		return 0;
	}
	if (in->priority == 0 && swappiness) {
		out->balance = VMS_SCAN_EQUAL;
	} else if (kl_file_is_tiny(in)) {
		out->balance = VMS_SCAN_ANON;
	} else if (kl_cache_trim_mode(in)) {
		out->balance = VMS_SCAN_FILE;
	} else {
		/* 5.8+ calculate_pressure_balance(): each side keeps at least a third of the pressure */
		total = anon_cost + file_cost;
		a = total + anon_cost;
		f = total + file_cost;
		total = a + f;
		out->balance = VMS_SCAN_FRACT;
		out->fraction_anon = (unsigned long long)(swappiness * (total + 1) / (a + 1));
		out->fraction_file = (unsigned long long)((200 - swappiness) * (total + 1) / (f + 1));
	}
	/* kswapd with a boost the recording cannot rule out: may_swap could have been 0 */
	return may_swap == VMS_UNDECIDABLE && out->balance != VMS_SCAN_FILE ? VMS_UNDECIDABLE : 0;
}

int kl_scan_types(const struct vms_pass_input *in, const struct vms_scan_decision *d)
{
	return (kl_scan_target(in, d, 0) > 0 ? 1 : 0) | (kl_scan_target(in, d, 1) > 0 ? 2 : 0);
}

long long kl_scan_target(const struct vms_pass_input *in, const struct vms_scan_decision *d,
			 int want_file)
{
	return kl_list_target(in, d, want_file ? 2 : 0);
}

long long kl_list_target(const struct vms_pass_input *in, const struct vms_scan_decision *d,
			 int lru)
{
	const struct vms_value *size[4] = { &in->inactive_anon, &in->active_anon, &in->inactive_file,
					    &in->active_file };
	int file = lru >= 2;
	/* lruvec_lru_size(): the lists themselves, not the flushed stats (exact inputs) */
	unsigned long long scan = (unsigned long long)((in->have_lru_size ? in->lru_size[lru & 3] :
						       size[lru & 3]->v) >> in->priority);
	unsigned long long den = d->denominator ? d->denominator : d->fraction_anon + d->fraction_file;
	unsigned long long up = d->round_up && den ? den - 1 : 0;	/* DIV64_U64_ROUND_UP */

	switch (d->balance) {
	case VMS_SCAN_FILE:
		return file ? (long long)scan : 0;
	case VMS_SCAN_ANON:
		return file ? 0 : (long long)scan;
	case VMS_SCAN_FRACT:
		return den ? (long long)((scan * (file ? d->fraction_file : d->fraction_anon) + up) / den) : 0;
	case VMS_SCAN_EQUAL:
		break;
	}
	return (long long)scan;
}
