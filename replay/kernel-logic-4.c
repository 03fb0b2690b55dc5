// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-logic-4.c - the classic-LRU decisions of 4.12-5.4 as pure functions
 * of a decision record's inputs, read from the 4.14.5, 4.19.72, 5.2.1 and
 * 5.3.1 mm/vmscan.c: inactive_list_is_low() with its actual_reclaim
 * argument (no may_deactivate bits, no anon workingset), and
 * get_scan_count() with the reclaim_stat recent_scanned/recent_rotated
 * fractions (no cost model, no cache_trim_mode). The 4.12-5.2 and 5.3-5.4
 * policies differ in where file refaults count.
 */
#include <string.h>

#include "replay.h"

/*
 * LRU list @i (0 inactive anon .. 3 active file) as lruvec_lru_size() gives
 * it: 4.12-5.4 read the lists themselves, not a flushed copy of the stats,
 * so the exact list sizes of a recording with exact inputs when it has them.
 */
static long long lru(const struct vms_pass_input *in, int i)
{
	const struct vms_value *v[4] = { &in->inactive_anon, &in->active_anon, &in->inactive_file,
					 &in->active_file };

	return in->have_lru_size ? in->lru_size[i] : v[i]->v;
}

int kl4_inactive_list_is_low(const struct vms_pass_input *in, int file, int refaults_seen)
{
	long long inactive = lru(in, file ? 2 : 0);
	long long active = lru(in, file ? 3 : 1);
	long long gb, ratio;

	/* "If we don't have swap space, anonymous page deactivation is pointless." */
	if (!file && in->swap_total.v <= 0)
		return 0;
	/* refaults != lruvec->refaults: disable active list protection */
	if (file && refaults_seen && in->refault_file.v > 0) {
		ratio = 0;
	} else {
		gb = (inactive + active) >> (30 - 12);
		ratio = gb ? kl_int_sqrt(10 * gb) : 1;
	}
	return inactive * ratio < active;
}

int kl4_scan_balance(const struct vms_pass_input *in, int refaults_in_shortcut, int boost_rules,
		     int round_up, struct vms_scan_decision *out)
{
	long long swappiness = in->swappiness.v, ap, fp;
	long long rs0 = in->recent_scanned[0].v, rr0 = in->recent_rotated[0].v;
	long long rs1 = in->recent_scanned[1].v, rr1 = in->recent_rotated[1].v;
	int may_swap = boost_rules ? kl_may_swap(in) : 1;

	memset(out, 0, sizeof(*out));
	out->round_up = round_up;
	/* !sc->may_swap || mem_cgroup_get_nr_swap_pages(memcg) <= 0 */
	if (in->swap_free.v <= 0 || may_swap == 0) {
		out->balance = VMS_SCAN_FILE;
		return 0;
	}
	if (in->reclaimer == VMS_MEMCG && swappiness == 0) {	/* !global_reclaim(sc) && !swappiness */
		out->balance = VMS_SCAN_FILE;
		return 0;
	}
	if (in->priority == 0 && swappiness) {
		out->balance = VMS_SCAN_EQUAL;
		goto out;
	}
	/* the cache trap: file + free under the high watermarks, and enough inactive anon */
	if (in->reclaimer != VMS_MEMCG &&
	    lru(in, 2) + lru(in, 3) + in->free_pages.v <= in->high_wmark.v &&
	    !kl4_inactive_list_is_low(in, 0, 0) && (lru(in, 0) >> in->priority)) {
		out->balance = VMS_SCAN_ANON;
		goto out;
	}
	/* enough inactive page cache: the shortcut (refaults count here only from 5.3) */
	if (!kl4_inactive_list_is_low(in, 1, refaults_in_shortcut) &&
	    (lru(in, 2) >> in->priority)) {
		out->balance = VMS_SCAN_FILE;
		goto out;
	}
	/* SCAN_FRACT: anon_prio = swappiness; the halving get_scan_count() does is in the inputs */
	ap = swappiness * (rs0 + 1) / (rr0 + 1);
	fp = (200 - swappiness) * (rs1 + 1) / (rr1 + 1);
	out->balance = VMS_SCAN_FRACT;
	out->fraction_anon = (unsigned long long)ap;
	out->fraction_file = (unsigned long long)fp;
	out->denominator = (unsigned long long)(ap + fp + 1);
out:
	return may_swap == VMS_UNDECIDABLE && out->balance != VMS_SCAN_FILE ? VMS_UNDECIDABLE : 0;
}

/*
 * 4.19 and 5.2.1 page_check_references(): "if (referenced_ptes) { if
 * (PageSwapBacked(page)) return PAGEREF_ACTIVATE;" before the file rule
 * (SetPageReferenced(page); activate when "referenced_page ||
 * referenced_ptes > 1" or VM_EXEC, else PAGEREF_KEEP). So a mapped anon
 * (swap-backed: the anon LRU) page used once is activated; a file page is
 * kept. The anon test is gone by 5.10 (its VM_EXEC test reads "&&
 * !PageSwapBacked(page)"; 5.8 by the kernel's history, the anon workingset).
 */
int kl4_mapped_once(void *priv, const struct vms_pass_input *in, int file)
{
	return !file;
}
