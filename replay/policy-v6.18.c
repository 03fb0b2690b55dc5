// SPDX-License-Identifier: GPL-2.0
/*
 * policy-v6.18.c - the baseline: the recording kernel's own reclaim logic
 * (6.18, classic LRU) as faithfully as the recorded inputs allow. Other
 * policies defer to it for the decisions they take no view on. Parameters:
 * swappiness=0..200 (what-if on vm.swappiness).
 */
#include <stdlib.h>

#include "vms.h"
#include "replay.h"

struct v618 {
	long long swappiness;	/* -1: as recorded */
};

static int v618_init(void **priv, const char *params)
{
	static const char *const keys[] = { "swappiness" };
	struct v618 *p = calloc(1, sizeof(*p));

	if (!p)
		return -1;
	p->swappiness = -1;
	if (policy_params(params, keys, &p->swappiness, 1)) {
		free(p);
		return -1;
	}
	if (p->swappiness != -1 && (p->swappiness < 0 || p->swappiness > 200)) {
		long long bad = p->swappiness;

		free(p);
		return vms_error("swappiness takes 0..200 (5.8+), not %lld", bad);
	}
	*priv = p;
	return 0;
}

static void v618_fini(void *priv)
{
	free(priv);
}

static int v618_deactivate(void *priv, const struct vms_pass_input *in, int file)
{
	return file ? kl_deactivate_file(in) : kl_deactivate_anon(in);
}

static int v618_scan_balance(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out)
{
	const struct v618 *p = priv;
	struct vms_pass_input what_if;

	if (!p || p->swappiness < 0)
		return kl_scan_balance(in, in->anon_cost.v, in->file_cost.v, out);
	what_if = *in;
	what_if.swappiness.v = p->swappiness;
	return kl_scan_balance(&what_if, in->anon_cost.v, in->file_cost.v, out);
}

static int v618_shrink_slab(void *priv, const struct vms_pass_input *in)
{
	return 1;	/* 5.3+: slab is shrunk in every pass, boosted or not */
}

/*
 * 6.9+ balance_pgdat(): if (!sc.nr_reclaimed && sc.priority < 1 &&
 * !sc.no_cache_trim_mode && sc.cache_trim_mode_failed) restart. The loop
 * ran to the end when its first sweep reached priority 1; nr_reclaimed may
 * hold slab pages (reclaim_state), which the recording counts in objects.
 */
static int v618_kswapd_retry(void *priv, const struct vms_kswapd_run *run)
{
	if (run->lowest_priority > 1 || !run->cache_trim_mode_failed)
		return 0;
	return run->slab_freed ? VMS_UNDECIDABLE : 1;
}

/*
 * 6.18 folio_check_references(), classic LRU: with referenced_ptes set,
 * folio_set_referenced(folio); "if (referenced_folio || referenced_ptes >
 * 1) return FOLIOREF_ACTIVATE;" then "if ((vm_flags & VM_EXEC) &&
 * folio_is_file_lru(folio)) return FOLIOREF_ACTIVATE;" else
 * FOLIOREF_KEEP, for file and anon alike ("a mapped file/anon folio"; 5.8+).
 * The pages kept this way are the pass's nr_ref_keep, which also counts
 * referenced_ptes == -1 (rmap lock contention, or a swapbacked folio of an
 * exiting process): kept too.
 */
static int v618_mapped_once(void *priv, const struct vms_pass_input *in, int file)
{
	return 0;	/* keep it on the inactive list, referenced flag set */
}

const struct vms_policy policy_v6_18 = {
	.abi = VMS_POLICY_ABI,
	.name = "v6.18",
	.description = "baseline: 6.18 classic LRU (refault-aware deactivation, cache_trim_mode, "
		       "cost model, boosted kswapd file-only, slab always, retry sweeps, mapped pages "
		       "used once kept)",
	.kernels = "6.18",
	.init = v618_init,
	.fini = v618_fini,
	.deactivate = v618_deactivate,
	.scan_balance = v618_scan_balance,
	.shrink_slab = v618_shrink_slab,
	.kswapd_retry = v618_kswapd_retry,
	.mapped_once = v618_mapped_once,
};
