// SPDX-License-Identifier: GPL-2.0
/*
 * u-sim.c - the whatif simulator (replay/sim-*.c) on hand-built demand
 * whose outcome follows by hand: an LRU loop larger than the cache misses
 * on every access, the same loop in a cache larger than it hits from the
 * second round on, refault activation by distance (mm/workingset.c), and
 * the swappiness knob moving cold anon out to make room for a file loop,
 * the shadow shrinker trimming nodes that hold shadow entries only, and the
 * vfs model: files whose slab counts against the limit, freed by the
 * superblock shrinker as vm.vfs_cache_pressure scales it; written
 * (unmapped) pages reclaimed at their first scan; and watermark boosting:
 * a fallback on a balanced node wakes kswapd, which reclaims the boost
 * from file only, at priorities down to 10; pinned pages reclaim scans and
 * keeps; swap held outside the simulation and anon freed by the workload.
 */
#include <string.h>

#include "vms.h"
#include "../../replay/replay.h"
#include "../../replay/sim.h"
#include "tap.h"

#define FILE_INO 7

/* A memcg lruvec of @limit pages, @swap pages of swap, swappiness @sw, baseline policy. */
static struct sim *memcg(long long limit, long long swap, int sw)
{
	struct sim_config cfg = { 0 };

	cfg.reclaimer = VMS_MEMCG;
	cfg.limit = limit;
	cfg.swap_pages = swap;
	cfg.swappiness = sw;
	cfg.charge_batch = SIM_SWAP_CLUSTER;
	return sim_new(&cfg);
}

/* Read pages 0..@n-1 of FILE_INO @rounds times, in order. Return: 0, or -1. */
static int loop(struct sim *s, long long n, int rounds)
{
	long long i;

	while (rounds-- > 0)
		for (i = 0; i < n; i++)
			if (sim_access(s, FILE_INO, i) < 0)
				return -1;
	return 0;
}

static void test_loop_larger_than_cache(void)
{
	struct sim *s = memcg(100, 0, 60);
	const struct sim_stats *st;

	ok(s && !loop(s, 150, 5), "loop of 150 pages x5 through a 100-page memcg ran");
	st = sim_stats(s);
	/* FIFO on the inactive list (nothing is ever active: active_file stays 0, so no
	 * refault is recent enough), so each page is gone before the loop comes back */
	is_int(st->hits[1], 0, "loop larger than the cache: no hit");
	is_int(st->cold[1], 150, "the first round is 150 cold misses");
	is_int(st->refault[1], 600, "rounds 2-5 refault on every access (4 x 150)");
	is_int(st->activate[1], 0, "no refault is within the workingset size (no active file)");
	is_int(st->reclaimed[1] + sim_lru_size(s, SIM_INACTIVE_FILE) +
	       sim_lru_size(s, SIM_ACTIVE_FILE), 750, "every page charged is resident or reclaimed");
	ok(sim_lru_size(s, SIM_INACTIVE_FILE) + sim_lru_size(s, SIM_ACTIVE_FILE) <= 100,
	   "the lists never exceed the limit");
	ok(st->episodes > 0 && st->reclaimed[1] >= SIM_SWAP_CLUSTER * st->episodes,
	   "each reclaim call freed at least SWAP_CLUSTER_MAX pages (%lld in %lld calls)",
	   st->reclaimed[1], st->episodes);
	is_int(st->reclaimed[0] + st->swapout, 0, "no anon reclaimed (none, and no swap)");
	sim_free(s);
}

static void test_loop_smaller_than_cache(void)
{
	struct sim *s = memcg(200, 0, 60);
	const struct sim_stats *st;

	ok(s && !loop(s, 150, 5), "loop of 150 pages x5 through a 200-page memcg ran");
	st = sim_stats(s);
	is_int(st->cold[1], 150, "enlarged past the loop: the first round misses");
	is_int(st->hits[1], 600, "and every later access hits");
	is_int(st->refault[1], 0, "no refault");
	is_int(st->episodes, 0, "no reclaim");
	sim_free(s);
}

static void test_refault_distance(void)
{
	struct sim *s = memcg(1000, 0, 60);
	const struct sim_stats *st;
	int i;

	ok(s && !sim_populate(s, SIM_INACTIVE_FILE, FILE_INO, 0, 10) &&
	   !sim_populate(s, SIM_ACTIVE_FILE, FILE_INO, 100, 4), "10 inactive, 4 active file pages");
	/* the tail of the inactive list is page 0 (populated first, pushed to the tail) */
	for (i = 0; i < 7; i++)
		sim_evict(s, s->list[SIM_INACTIVE_FILE].tail);
	/* pages 0..6 evicted with shadows 1..7; nonresident age 7 */
	is_int(s->nonresident_age, 7, "seven evictions age the lruvec by 7");
	is_int(sim_access(s, FILE_INO, 0), SIM_REFAULT,
	       "page 0: distance 7 - 1 = 6 > 4 active file pages: inactive");
	is_int(sim_access(s, FILE_INO, 6), SIM_REFAULT_ACTIVE,
	       "page 6: distance 7 - 7 = 0 <= 4: activated (ages to 8, active 5)");
	is_int(sim_access(s, FILE_INO, 3), SIM_REFAULT_ACTIVE,
	       "page 3: distance 8 - 4 = 4 <= 5: activated (ages to 9, active 6)");
	is_int(sim_access(s, FILE_INO, 1), SIM_REFAULT,
	       "page 1: distance 9 - 2 = 7 > 6: inactive");
	is_int(sim_access(s, FILE_INO, 9), SIM_HIT, "page 9 is still resident: a hit");
	st = sim_stats(s);
	is_int(st->refault[1], 4, "four refaults counted");
	is_int(st->activate[1], 2, "two of them activated");
	is_int(sim_lru_size(s, SIM_ACTIVE_FILE), 6, "active file: 4 + 2");
	sim_free(s);
}

static void test_anon_distance_counts_file(void)
{
	struct sim *s = memcg(1000, 100, 60);

	ok(s && !sim_populate(s, SIM_INACTIVE_ANON, SIM_ANON_INO, 0, 3) &&
	   !sim_populate(s, SIM_INACTIVE_FILE, FILE_INO, 0, 5), "3 anon, 5 inactive file pages");
	sim_evict(s, s->list[SIM_INACTIVE_ANON].tail);	/* anon 0, shadow 1 */
	sim_evict(s, s->list[SIM_INACTIVE_FILE].tail);	/* file 0, shadow 2 */
	sim_evict(s, s->list[SIM_INACTIVE_FILE].tail);	/* file 1, shadow 3 */
	/* an anon refault measures against active + inactive file (4) and active anon (0) */
	is_int(sim_access(s, SIM_ANON_INO, 0), SIM_REFAULT_ACTIVE,
	       "anon 0: distance 3 - 1 = 2 <= 3 inactive file (+ 0 active): activated");
	/* a file refault measures against active file (0) and, with swap, all anon (2 + 1) */
	is_int(sim_access(s, FILE_INO, 0), SIM_REFAULT_ACTIVE,
	       "file 0: distance 4 - 2 = 2 <= 0 active file + 3 anon: activated");
	sim_free(s);
}

/*
 * folio_check_references() of a mapped page: a page comes in referenced, the
 * first scan keeps it, the next evicts it unless it was used again, in which
 * case it is activated. A memcg of 3 pages reclaiming one page per charge.
 */
static void test_referenced_kept_once(void)
{
	struct sim *s = memcg(3, 0, 60);

	if (!s) {
		ok(0, "memcg of 3 pages");
		return;
	}
	s->cfg.charge_batch = 1;
	sim_access(s, FILE_INO, 'A');
	sim_access(s, FILE_INO, 'B');
	sim_access(s, FILE_INO, 'C');
	/* D: priority 1 scans 3 >> 1 = 1 page: A, kept; priority 0 scans 3: B, C kept, A evicted */
	sim_access(s, FILE_INO, 'D');
	ok(!sim_resident(s, FILE_INO, 'A'), "A, referenced once and kept once, is evicted at its second scan");
	ok(sim_resident(s, FILE_INO, 'B') && sim_resident(s, FILE_INO, 'C'), "B and C were kept");
	is_int(sim_access(s, FILE_INO, 'B'), SIM_HIT, "B used again: a hit");
	/* E: priority 1 scans B (tail): referenced since it was kept: activated; priority 0: C evicted */
	sim_access(s, FILE_INO, 'E');
	is_int(sim_lru_size(s, SIM_ACTIVE_FILE), 1, "B, referenced after it was kept, is activated");
	ok(!sim_resident(s, FILE_INO, 'C') && sim_resident(s, FILE_INO, 'D') &&
	   sim_resident(s, FILE_INO, 'E'), "C, not used again, is evicted; D and E are resident");
	sim_free(s);
}

/* cold anon beside a file loop that fits only if the anon goes to swap */
static const struct sim_stats *anon_and_loop(int swappiness, struct sim **out)
{
	struct sim *s = memcg(100, 100, swappiness);

	*out = s;
	if (!s || sim_populate(s, SIM_INACTIVE_ANON, SIM_ANON_INO, 0, 50) || loop(s, 80, 10))
		return NULL;
	return sim_stats(s);
}

static void test_swappiness_moves_cold_anon(void)
{
	struct sim *s0, *s60;
	const struct sim_stats *a = anon_and_loop(0, &s0), *b = anon_and_loop(60, &s60);

	ok(a && b, "50 cold anon pages and a loop of 80 file pages x10 in a 100-page memcg");
	if (a && b) {
		/* memcg swappiness 0: SCAN_FILE, 50 pages left for a loop of 80: always misses */
		is_int(a->swapout, 0, "swappiness 0: nothing swapped");
		is_int(a->hits[1], 0, "swappiness 0: the loop never hits");
		is_int(a->refault[1], 720, "swappiness 0: 9 rounds x 80 refaults");
		/* swappiness 60: the cold anon is scanned too and goes to swap; the loop then fits */
		ok(b->swapout > 0, "swappiness 60: cold anon swapped out (%lld)", b->swapout);
		ok(b->refault[1] < a->refault[1] / 2, "swappiness 60: refaults fall (%lld vs %lld)",
		   b->refault[1], a->refault[1]);
	}
	sim_free(s0);
	sim_free(s60);
}

/* A node of @pages pages with watermarks min/low/high, no swap, baseline policy. */
static struct sim *node(long long pages, long long min, long long low, long long high)
{
	struct sim_config cfg = { 0 };

	cfg.reclaimer = VMS_KSWAPD;
	cfg.node_pages = pages;
	cfg.min_wmark = min;
	cfg.low_wmark = low;
	cfg.high_wmark = high;
	cfg.swappiness = 60;
	return sim_new(&cfg);
}

static void test_kswapd_to_high_watermark(void)
{
	struct sim *s = node(1000, 50, 100, 200);
	const struct sim_stats *st;
	/* pages resident at the start are not referenced (a page charged now would be) */
	ok(s && !sim_populate(s, SIM_INACTIVE_FILE, FILE_INO, 0, 900), "900 unreferenced file pages");
	st = s ? sim_stats(s) : NULL;
	ok(st && st->episodes == 0, "900 pages of 1000: free 100, not below low: no reclaim");
	ok(s && sim_access(s, FILE_INO, 900) == SIM_COLD, "the 901st page is charged");
	/*
	 * free 99 < low 100: kswapd runs priorities 12, 11, ... reclaiming size >> priority
	 * each step (cold pages, FIFO) until free >= high: 900 >> 9 = 1, 899 >> 8 = 3,
	 * 896 >> 7 = 7, 889 >> 6 = 13, 876 >> 5 = 27, 849 >> 4 = 53: 796 left, 204 free.
	 */
	is_int(st->episodes, 1, "one kswapd run");
	is_int(st->reclaimed[1], 1 + 3 + 7 + 13 + 27 + 53, "it stopped at the high watermark: 104 reclaimed");
	is_int(sim_lru_size(s, SIM_INACTIVE_FILE), 797, "796 left, plus the page charged");
	is_int(st->kswapd_failures, 0, "a run that reclaimed is no failure");
	sim_free(s);
}

static void test_kswapd_gives_up(void)
{
	struct sim *s = node(100, 5, 20, 30);
	const struct sim_stats *st;
	long long i;

	/* only anon and no swap: nothing can be reclaimed */
	ok(s && !sim_populate(s, SIM_INACTIVE_ANON, SIM_ANON_INO, 0, 80), "80 anon pages, no swap");
	for (i = 0; i < 10 && s; i++)
		sim_access(s, SIM_ANON_INO, 1000 + i);
	st = s ? sim_stats(s) : NULL;
	/* every charge below low wakes kswapd, which fails, until MAX_RECLAIM_RETRIES */
	ok(st && st->kswapd_failures == 10, "10 charges below low: 10 failed kswapd runs (%lld)",
	   st ? st->kswapd_failures : -1);
	for (i = 10; i < 14 && s; i++)
		sim_access(s, SIM_ANON_INO, 1000 + i);
	is_int(st->kswapd_failures, 14, "14 failed runs");
	for (i = 14; i < 15 && s; i++)
		sim_access(s, SIM_ANON_INO, 1000 + i);
	is_int(st->kswapd_failures, 15, "95 pages of 100: 15 failed runs, no direct reclaim yet");
	sim_access(s, SIM_ANON_INO, 1015);
	is_int(st->kswapd_failures, 16, "the 16th failure: kswapd gives up on the node");
	sim_access(s, SIM_ANON_INO, 1016);
	is_int(st->kswapd_failures, 16, "after 16 failures kswapd is not woken again");
	ok(st->over_limit > 0, "below min, direct reclaim fails too (the kernel would OOM)");
	sim_free(s);
}

/*
 * 900 file pages all used since they came in: kswapd's first sweep only keeps
 * them (priorities 12..1 scan 1 + 3 + 7 + ... + 450 = 896 pages, each kept
 * once). 6.9+ restarts a failed run without cache_trim_mode (on at the last
 * pass: 900 >> 1 inactive file, no refault), and the second sweep reclaims
 * the kept pages: 4 more kept, then 7 + 13 + 27 + 53 = 100 reclaimed, and
 * free reaches the high watermark (200). Up to 6.8 the run counts a failure.
 */
static struct sim *referenced_node(struct policy_instance *pol)
{
	struct sim *s = node(1000, 50, 100, 200);
	long long i;

	if (!s)
		return NULL;
	s->cfg.policy = pol;
	sim_populate(s, SIM_INACTIVE_FILE, FILE_INO, 0, 900);
	for (i = 0; i < 900; i++)
		sim_access(s, FILE_INO, i);	/* hits: referenced */
	sim_access(s, FILE_INO, 900);		/* free 99 < low 100: kswapd */
	return s;
}

static void test_kswapd_retry(void)
{
	struct policy_instance v68 = { 0 };
	struct sim *s = referenced_node(NULL);
	const struct sim_stats *st = s ? sim_stats(s) : NULL;

	ok(st && st->episodes == 1, "one kswapd run");
	is_int(st->kswapd_retries, 1, "baseline (6.9+): the failed sweep is retried");
	is_int(st->reclaimed[1], 100, "the retry reclaims 100 pages, to the high watermark");
	is_int(st->kswapd_failures, 0, "no failure counted");
	sim_free(s);
	ok(!policy_open("v6.8-cache-trim", &v68), "open v6.8-cache-trim");
	s = referenced_node(&v68);
	st = s ? sim_stats(s) : NULL;
	ok(st && st->kswapd_retries == 0, "v6.8-cache-trim: no retry");
	is_int(st->reclaimed[1], 0, "v6.8-cache-trim: nothing reclaimed");
	is_int(st->kswapd_failures, 1, "v6.8-cache-trim: a failure counted");
	sim_free(s);
	policy_close(&v68);
}

/*
 * Node of 10,000 pages, watermarks 50/100/200, 8,000 cold file pages and
 * 500 cold anon pages with swap: 1,500 free, balanced. A fallback boosts
 * zone 0 by a pageblock (512) and wakes kswapd at the next charge: free
 * 1,500 is above high + boost (712), so the run is boosted and reclaims
 * the boost from file only: priority 12 takes 8000 >> 12 = 1, 11 takes
 * 7999 >> 11 = 3, then it stays at 10 (boosting does not go below
 * DEF_PRIORITY - 2) taking 7996 >> 10 = 7 a pass: 508 left after 4 pages,
 * 73 passes, 515 reclaimed, no anon. The boost it began with is then gone.
 */
static struct sim *boosted_node(long long boost_max, long long file)
{
	struct sim *s = node(10000, 50, 100, 200);

	if (!s)
		return NULL;
	s->cfg.swap_pages = 1000;
	s->cfg.boost_max[0] = boost_max;
	sim_populate(s, SIM_INACTIVE_FILE, FILE_INO, 0, file);
	sim_populate(s, SIM_INACTIVE_ANON, SIM_ANON_INO, 0, 500);
	return s;
}

static void test_boosted_kswapd(void)
{
	struct sim *s = boosted_node(2048, 8000);
	const struct sim_stats *st = s ? sim_stats(s) : NULL;

	ok(st != NULL, "a balanced node");
	if (!st)
		return;
	ok(sim_access(s, FILE_INO, 100000) == SIM_COLD && st->episodes == 0,
	   "without a boost a charge on a balanced node wakes no kswapd");
	sim_fallback(s, 0);
	is_int(s->zone_boost[0], 512, "a fallback boosts the zone by a pageblock");
	is_int(st->episodes, 0, "kswapd is woken at the next allocation, not by the fallback");
	sim_access(s, FILE_INO, 100001);
	is_int(st->episodes, 1, "the next charge wakes kswapd though the node is balanced");
	is_int(st->boosted_runs, 1, "a boosted run");
	is_int(st->reclaimed[1], 515, "it reclaimed the boost: 1 + 3 + 73 x 7 = 515 file pages");
	is_int(st->boost_reclaimed, 515, "all in boosted passes");
	is_int(s->zone_boost[0], 0, "the run took its boost off");
	sim_free(s);

	s = boosted_node(0, 8000);	/* vm.watermark_boost_factor 0 */
	st = s ? sim_stats(s) : NULL;
	if (s)
		sim_fallback(s, 0);
	ok(st && s->zone_boost[0] == 0 && st->boosts == 0, "factor 0: a fallback boosts nothing");
	if (s)
		sim_access(s, FILE_INO, 100000);
	ok(st && st->episodes == 0, "and wakes no kswapd");
	sim_free(s);

	s = boosted_node(2048, 8000);
	if (s) {
		sim_fallback(s, 0);
		sim_fallback(s, 0);
		sim_fallback(s, 0);
		sim_fallback(s, 0);
		sim_fallback(s, 0);
	}
	ok(s && s->zone_boost[0] == 2048, "boosts add up to the zone's ceiling, no further (%lld)",
	   s ? s->zone_boost[0] : -1);
	sim_free(s);

	/*
	 * 9,400 pages on the lists: 600 free, below high + boost (712): the
	 * run drops boosting and reclaims to 712 as an unboosted run does,
	 * anon included (priority 12: 8900 >> 12 = 2 file, 500 >> 12 = 0 anon
	 * ... until 712 free); no boosted pass.
	 */
	s = boosted_node(2048, 8900);
	st = s ? sim_stats(s) : NULL;
	if (s) {
		sim_fallback(s, 0);
		sim_access(s, FILE_INO, 100000);
	}
	ok(st && st->episodes == 1 && st->boost_reclaimed == 0,
	   "imbalanced with a boost: one run, no boosted pass (%lld)", st ? st->boost_reclaimed : -1);
	ok(st && 10000 - sim_lru_size(s, 0) - sim_lru_size(s, 1) - sim_lru_size(s, 2) -
	   sim_lru_size(s, 3) >= 712, "it reclaimed to the boosted high watermark");
	ok(s && s->zone_boost[0] == 0, "and took the boost off");
	sim_free(s);
}

/*
 * Where an unboosted pass scans anon only, a boosted one must not: 10,000
 * inactive file pages under 30,000 active ones (inactive is low, so no
 * cache_trim_mode) and 40,000 cold anon with swap, swappiness 200: the
 * FRACT balance gives file nothing. A boosted run (2,000 free, balanced)
 * may not swap: it reclaims the boost from file. The same lists below the low
 * watermark without a boost reclaim anon.
 */
static struct sim *anon_heavy_node(long long node_pages, long long boost_max)
{
	struct sim *s = node(node_pages, 50, 100, 200);

	if (!s)
		return NULL;
	s->cfg.swap_pages = 50000;
	s->cfg.swappiness = 200;
	s->cfg.boost_max[0] = boost_max;
	sim_populate(s, SIM_INACTIVE_FILE, FILE_INO, 0, 10000);
	sim_populate(s, SIM_ACTIVE_FILE, FILE_INO, 10000, 30000);
	sim_populate(s, SIM_INACTIVE_ANON, SIM_ANON_INO, 0, 40000);
	return s;
}

static void test_boosted_kswapd_may_not_swap(void)
{
	struct sim *s = anon_heavy_node(82000, 2048);
	const struct sim_stats *st = s ? sim_stats(s) : NULL;

	if (s) {
		sim_fallback(s, 0);
		sim_access(s, FILE_INO, 100000);
	}
	ok(st && st->boosted_runs == 1 && st->reclaimed[1] >= 512,
	   "boosted: the boost reclaimed from file (%lld)", st ? st->reclaimed[1] : -1);
	ok(st && st->reclaimed[0] == 0 && st->swapout == 0, "boosted: no anon scanned out (%lld)",
	   st ? st->reclaimed[0] : -1);
	sim_free(s);

	s = anon_heavy_node(80099, 0);	/* free 99 < low 100: an unboosted run */
	st = s ? sim_stats(s) : NULL;
	if (s)
		sim_access(s, FILE_INO, 100000);
	ok(st && st->episodes == 1 && st->reclaimed[0] > 0,
	   "unboosted, the same lists: anon reclaimed (%lld): the boosted case could tell",
	   st ? st->reclaimed[0] : -1);
	sim_free(s);
}

/*
 * A boosted pass that reclaims nothing ends the run (6.18: "no progress
 * for a boost"): 8,000 file pages all used since they came in, so the
 * first pass (8000 >> 12 = 1 page) only keeps its page. Nothing reclaimed:
 * a kswapd failure, and the boost is taken off all the same.
 */
static void test_boosted_kswapd_no_progress(void)
{
	struct sim *s = boosted_node(2048, 8000);
	const struct sim_stats *st = s ? sim_stats(s) : NULL;
	long long i;

	if (!s) {
		ok(0, "a node");
		return;
	}
	for (i = 0; i < 8000; i++)
		sim_access(s, FILE_INO, i);	/* hits: referenced */
	sim_fallback(s, 0);
	sim_access(s, FILE_INO, 100000);
	is_int(st->boosted_runs, 1, "a boosted run");
	is_int(st->passes, 1, "one pass: it reclaimed nothing and the run stopped");
	is_int(st->reclaimed[1], 0, "nothing reclaimed");
	is_int(st->kswapd_failures, 1, "counted as a failed kswapd run");
	is_int(s->zone_boost[0], 0, "the boost taken off");
	sim_free(s);
}

/* A policy that always scans anon only: the simulation must follow it. */
static int anon_only(void *priv, const struct vms_pass_input *in, struct vms_scan_decision *out)
{
	out->balance = VMS_SCAN_ANON;
	out->fraction_anon = out->fraction_file = 0;
	return 0;
}

static const struct vms_policy anon_only_policy = {
	.abi = VMS_POLICY_ABI,
	.name = "anon-only",
	.description = "test: always SCAN_ANON",
	.scan_balance = anon_only,
};

static void test_policy_decides(void)
{
	struct policy_instance pol = { 0 }, own = { .policy = &anon_only_policy };
	struct sim *s;
	const struct sim_stats *a;

	/* memcg swappiness 0, but the baseline policy with swappiness=60 decides */
	ok(!policy_open("v6.18:swappiness=60", &pol), "open v6.18:swappiness=60");
	s = memcg(100, 100, 0);
	s->cfg.policy = &pol;
	ok(!sim_populate(s, SIM_INACTIVE_ANON, SIM_ANON_INO, 0, 50) && !loop(s, 80, 10),
	   "cold anon and a file loop, swappiness 0, policy v6.18:swappiness=60");
	a = sim_stats(s);
	ok(a->swapout > 0 && a->refault[1] < 720,
	   "the policy's swappiness is used: anon swapped (%lld), fewer refaults than 720 (%lld)",
	   a->swapout, a->refault[1]);
	sim_free(s);
	policy_close(&pol);

	s = memcg(100, 100, 60);
	s->cfg.policy = &own;
	ok(!sim_populate(s, SIM_INACTIVE_ANON, SIM_ANON_INO, 0, 50) && !loop(s, 80, 1),
	   "policy anon-only: 50 anon pages and 80 file pages in 100");
	a = sim_stats(s);
	is_int(a->reclaimed[1], 0, "anon-only: no file page reclaimed");
	/*
	 * the 51st file page finds the memcg full: one call for 32 pages, anon only,
	 * priorities 5..1 take 50 >> 5 = 1, 49 >> 4 = 3, 46 >> 3 = 5, 41 >> 2 = 10,
	 * 31 >> 1 = 15: 34 pages, and 16 + 80 then fit
	 */
	is_int(a->swapout, 34, "anon-only: one reclaim call took 34 anon pages");
	is_int(a->episodes, 1, "anon-only: one reclaim call");
	sim_free(s);
}

/*
 * The shadow shrinker: 300 pages read once through a 64-page memcg, one page
 * per xarray node (index i * 64) or all in a row. Spread out, each eviction
 * leaves a node of one shadow, far more than the 64 >> 3 = 8 shadow-only
 * nodes the kernel keeps: the oldest go, and page 0 comes back cold. In a
 * row, the 236 to 267 evicted pages fill 3 or 4 nodes with shadows and a
 * part of the next (which holds resident pages): nothing is over the limit
 * and page 0 refaults.
 */
static void test_shadow_shrinker(void)
{
	struct sim *spread = memcg(64, 0, 60), *row = memcg(64, 0, 60);
	struct sim_config keep = { .reclaimer = VMS_MEMCG, .limit = 64, .swappiness = 60,
				   .charge_batch = SIM_SWAP_CLUSTER, .keep_shadows = 1 };
	struct sim *kept = sim_new(&keep);
	long long i;
	int failed = 0;

	for (i = 0; i < 300; i++)
		failed |= sim_access(spread, FILE_INO, (uint64_t)i << SIM_XA_SHIFT) < 0 ||
			  sim_access(row, FILE_INO, (uint64_t)i) < 0 ||
			  sim_access(kept, FILE_INO, (uint64_t)i << SIM_XA_SHIFT) < 0;
	ok(spread && row && kept && !failed, "300 pages through three 64-page memcgs");
	ok(sim_stats(spread)->shadows_dropped > 0, "one shadow per node: the shrinker dropped %lld",
	   sim_stats(spread)->shadows_dropped);
	ok(spread->shadow_nodes <= 8 + 2 * 128, "shadow-only nodes left: %lld (limit 8, batches "
	   "of 128 deferred)", spread->shadow_nodes);
	is_int(sim_access(spread, FILE_INO, 0), SIM_COLD, "the oldest shadow is gone: page 0 is cold");
	is_int(sim_stats(row)->shadows_dropped, 0, "in a row: a few shadow-only nodes, none dropped");
	is_int(row->shadow_nodes, sim_stats(row)->reclaimed[1] >> SIM_XA_SHIFT,
	       "the %lld evicted pages fill that many whole nodes with shadows",
	       sim_stats(row)->reclaimed[1]);
	ok(sim_access(row, FILE_INO, 0) >= SIM_REFAULT, "page 0 refaults");
	is_int(sim_stats(kept)->shadows_dropped, 0, "keep_shadows: no shrinker");
	ok(sim_access(kept, FILE_INO, 0) >= SIM_REFAULT, "keep_shadows: page 0 refaults");
	sim_free(spread);
	sim_free(row);
	sim_free(kept);
}

/*
 * A page the kernel protects (sim_access_protected(): exec-mapped, as the
 * recording shows it kept resident while used) is activated at its first
 * referenced scan; an unprotected one is kept once on the inactive list.
 * 64 pages fill a 64-page memcg (page 0 protected, page 1 not, every page
 * comes in referenced); page 64's charge reclaims from the tail: page 0 goes
 * to the active list, page 1 is rotated (kept), and at least a batch of 32
 * is reclaimed from the second pass over the kept pages.
 */
static void test_protected_page(void)
{
	struct sim *s = memcg(64, 0, 60);
	int32_t p0, p1;
	long long i;
	int failed;

	failed = sim_access_protected(s, FILE_INO, 0) < 0;
	for (i = 1; i <= 64; i++)
		failed |= sim_access(s, FILE_INO, i) < 0;
	ok(s && !failed, "65 pages through a 64-page memcg, page 0 protected");
	p0 = sim_slot_find(s, FILE_INO, 0);
	p1 = sim_slot_find(s, FILE_INO, 1);
	ok(p0 != SIM_NONE && s->page[p0].lru == SIM_ACTIVE_FILE,
	   "the protected page was activated at its first scan");
	is_int(sim_lru_size(s, SIM_ACTIVE_FILE), 1, "and it alone");
	ok(p1 != SIM_NONE && s->page[p1].lru != SIM_ACTIVE_FILE,
	   "the unprotected page 1 was not activated (kept once, or reclaimed)");
	ok(sim_stats(s)->reclaimed[1] >= SIM_SWAP_CLUSTER, "at least a batch reclaimed (%lld)",
	   sim_stats(s)->reclaimed[1]);
	sim_free(s);
}

/*
 * 600 one-page files through a 1000-page memcg whose files cost a page of
 * slab each (a 1 KiB dentry, a 3 KiB inode), at vfs_cache_pressure @p,
 * after file 99 of two pages. Without the shrinker (@p 0) the slab is all
 * 600 pages and the pages get what is left.
 */
static struct sim *vfs_files(long long p, struct policy_instance *pol)
{
	struct sim_config cfg = { .reclaimer = VMS_MEMCG, .limit = 1000, .swappiness = 60,
				  .charge_batch = SIM_SWAP_CLUSTER, .vfs = 1, .vfs_pressure = p,
				  .vfs_denom = 100, .dentry_bytes = 1024, .inode_bytes = 3072,
				  .policy = pol };
	struct sim *s = sim_new(&cfg);
	long long i;

	if (!s || sim_access(s, 99, 0) < 0 || sim_access(s, 99, 1) < 0) {
		sim_free(s);
		return NULL;
	}
	for (i = 0; i < 600; i++)
		if (sim_access(s, 100 + i, 0) < 0) {
			sim_free(s);
			return NULL;
		}
	return s;
}

static long long lru_pages(const struct sim *s)
{
	return sim_lru_size(s, SIM_INACTIVE_FILE) + sim_lru_size(s, SIM_ACTIVE_FILE);
}

static void test_vfs_model(void)
{
	struct sim *off = vfs_files(0, NULL), *p100 = vfs_files(100, NULL);
	struct sim *p1000 = vfs_files(1000, NULL);
	const struct sim_stats *a, *b, *c;
	int32_t two;

	ok(off && p100 && p1000, "601 files through three memcgs with a vfs model");
	if (!off || !p100 || !p1000)
		goto out;
	a = sim_stats(off);
	b = sim_stats(p100);
	c = sim_stats(p1000);
	is_int(sim_slab_pages(off), 601, "pressure 0: nothing shrunk, a page of slab per file");
	is_int(a->vfs_freed[0] + a->vfs_freed[1], 0, "pressure 0: no dentry or inode freed");
	ok(lru_pages(off) + sim_slab_pages(off) <= 1000, "pages + slab within the limit (%lld + %lld)",
	   lru_pages(off), sim_slab_pages(off));
	is_int(a->reclaimed[1], 602 - lru_pages(off), "every page not resident was reclaimed");
	ok(b->vfs_freed[1] > 0, "pressure 100: %lld inodes freed", b->vfs_freed[1]);
	is_int(b->inodesteal, b->vfs_freed[1],
	       "each one-page inode freed had its page reclaimed: one shadow cleared per inode");
	ok(sim_slab_pages(p100) < 601, "so the slab shrank (%lld pages)", sim_slab_pages(p100));
	ok(b->reclaimed[1] < a->reclaimed[1], "and fewer pages were reclaimed (%lld, %lld at 0)",
	   b->reclaimed[1], a->reclaimed[1]);
	ok(c->vfs_freed[1] >= b->vfs_freed[1] && c->reclaimed[1] <= b->reclaimed[1],
	   "pressure 1000: more inodes freed (%lld), no more pages reclaimed (%lld)",
	   c->vfs_freed[1], c->reclaimed[1]);
	two = sim_vfs_find(p1000, 99);
	ok(two != SIM_NONE && p1000->inode[two].state != SIM_VFS_FREED &&
	   !sim_resident(p1000, 99, 0), "file 99 (two pages, both evicted) keeps its inode: its "
	   "shadows sit in a node, not the xarray head");
	ok(sim_access(p1000, 99, 0) >= SIM_REFAULT, "so its page 0 refaults");
	ok(p1000->inode[sim_vfs_find(p1000, 100)].state == SIM_VFS_FREED,
	   "the oldest one-page file was freed");
	is_int(sim_access(p1000, 100, 0), SIM_COLD, "its shadow went with it: page 0 is cold");
out:
	sim_free(off);
	sim_free(p100);
	sim_free(p1000);
}

static int never_shrink(void *priv, const struct vms_pass_input *in)
{
	return 0;
}

static const struct vms_policy no_slab_policy = {
	.abi = VMS_POLICY_ABI,
	.name = "no-slab",
	.description = "test: never call the shrinkers",
	.shrink_slab = never_shrink,
};

/* A policy whose shrink_slab() says no keeps every dentry and inode, at any pressure. */
static void test_policy_shrink_slab(void)
{
	struct policy_instance own = { .policy = &no_slab_policy };
	struct sim *s = vfs_files(1000, &own);

	ok(s != NULL, "601 files at pressure 1000, a policy that never shrinks slab");
	if (!s)
		return;
	is_int(sim_stats(s)->vfs_freed[0] + sim_stats(s)->vfs_freed[1], 0, "no dentry or inode freed");
	is_int(sim_slab_pages(s), 601, "a page of slab per file, as at pressure 0");
	ok(sim_stats(s)->use.asked[SIM_Q_SHRINK_SLAB] > 0, "the policy was asked (%lld passes)",
	   sim_stats(s)->use.asked[SIM_Q_SHRINK_SLAB]);
	sim_free(s);
}

/*
 * Pages a write inserted (sim_access_unmapped()) are not mapped: an inactive
 * scan reclaims them though referenced, where a mapped page is kept once.
 * 65 pages through a 64-page memcg, written, and then read through a mapping.
 */
static void test_written_pages(void)
{
	struct sim *w = memcg(64, 0, 60), *m = memcg(64, 0, 60);
	long long i;
	int failed = !w || !m;

	for (i = 0; i < 65 && !failed; i++)
		failed |= sim_access_unmapped(w, FILE_INO, i) < 0 || sim_access(m, FILE_INO, i) < 0;
	ok(!failed, "65 pages through two 64-page memcgs, written and mapped");
	if (failed)
		goto out;
	ok(sim_stats(w)->reclaimed[1] >= SIM_SWAP_CLUSTER, "written: a batch reclaimed (%lld)",
	   sim_stats(w)->reclaimed[1]);
	is_int(sim_stats(w)->scanned[1], sim_stats(w)->reclaimed[1],
	       "written: every page scanned was reclaimed, none kept for its reference");
	ok(sim_stats(m)->scanned[1] > sim_stats(m)->reclaimed[1],
	   "mapped: referenced pages kept once (%lld scanned, %lld reclaimed)",
	   sim_stats(m)->scanned[1], sim_stats(m)->reclaimed[1]);
out:
	sim_free(w);
	sim_free(m);
}

/*
 * A use through a mapping sets the PTE's young bit and nothing else: a page
 * touched three times that way stays inactive (reclaim decides at its scan),
 * where folio_mark_accessed() (sim_access(), a read) activates it at the
 * second use. Both are hits.
 */
static void test_mapped_touches(void)
{
	struct sim *m = memcg(64, 0, 60), *r = memcg(64, 0, 60);
	int failed = !m || !r, k;

	for (k = 0; k < 3 && !failed; k++) {
		failed |= sim_access_mapped(m, FILE_INO, 7, 0) < 0;
		failed |= sim_access(r, FILE_INO, 7) < 0;
	}
	ok(!failed, "one page used three times, through a mapping and by reads");
	if (failed)
		goto out;
	is_int(sim_lru_size(m, SIM_ACTIVE_FILE), 0, "mapped: still inactive");
	is_int(sim_lru_size(m, SIM_INACTIVE_FILE), 1, "mapped: on the inactive list");
	is_int(sim_lru_size(r, SIM_ACTIVE_FILE), 1, "read: activated");
	is_int(sim_stats(m)->hits[1], 2, "mapped: the second and third use are hits");
	is_int(sim_stats(r)->hits[1], 2, "read: the same hits");
out:
	sim_free(m);
	sim_free(r);
}

/*
 * With the recorded reads and faults an insertion only brings a page in
 * (sim_mark_brought_in(): not referenced, not mapped); the uses follow. 65
 * pages through a 64-page memcg, brought in and never used: reclaimed at
 * their first scan. The same brought in and faulted (sim_mark_mapped() and
 * a hit): kept once.
 */
static void test_brought_in_pages(void)
{
	struct sim *b = memcg(64, 0, 60), *f = memcg(64, 0, 60);
	long long i;
	int failed = !b || !f;

	for (i = 0; i < 65 && !failed; i++) {
		failed |= sim_access(b, FILE_INO, i) < 0 || sim_access(f, FILE_INO, i) < 0;
		sim_mark_brought_in(b, FILE_INO, i);
		sim_mark_brought_in(f, FILE_INO, i);
		sim_mark_mapped(f, FILE_INO, i);
		failed |= sim_access(f, FILE_INO, i) != SIM_HIT;
	}
	ok(!failed, "65 pages through two 64-page memcgs: brought in; brought in and faulted");
	if (failed)
		goto out;
	ok(sim_stats(b)->reclaimed[1] >= SIM_SWAP_CLUSTER, "brought in: a batch reclaimed (%lld)",
	   sim_stats(b)->reclaimed[1]);
	is_int(sim_stats(b)->scanned[1], sim_stats(b)->reclaimed[1],
	       "brought in, not used: every page scanned was reclaimed");
	ok(sim_stats(f)->scanned[1] > sim_stats(f)->reclaimed[1],
	   "faulted in: referenced mapped pages kept once (%lld scanned, %lld reclaimed)",
	   sim_stats(f)->scanned[1], sim_stats(f)->reclaimed[1]);
	is_int(sim_stats(f)->activate[1], 0, "no refault activated");
out:
	sim_free(b);
	sim_free(f);
}

/*
 * Pages another reference holds (sim_access_pinned(), a pipe's): reclaim
 * scans them and cannot free them. 60 pinned pages and a loop of 100 others
 * through a 100-page memcg: the loop cycles through the 40 pages left, the
 * pinned pages all stay; unpinned, the loop pushes them out first.
 */
static void test_pinned_pages(void)
{
	struct sim *p = memcg(100, 0, 60), *u = memcg(100, 0, 60);
	long long i, pinned_left = 0, unpinned_left = 0, loop_left = 0;
	int failed = !p || !u;

	for (i = 0; i < 60 && !failed; i++)
		failed |= sim_access_pinned(p, FILE_INO + 1, i) < 0 || sim_access(u, FILE_INO + 1, i) < 0;
	failed = failed || loop(p, 100, 2) || loop(u, 100, 2);
	ok(!failed, "60 pages pinned (or not), then a 100-page loop twice, in 100-page memcgs");
	if (failed)
		goto out;
	for (i = 0; i < 60; i++) {
		pinned_left += sim_resident(p, FILE_INO + 1, i);
		unpinned_left += sim_resident(u, FILE_INO + 1, i);
	}
	is_int(pinned_left, 60, "pinned: all 60 still resident");
	is_int(unpinned_left, 0, "unpinned: all 60 pushed out by the loop");
	for (i = 0; i < 100; i++)
		loop_left += sim_resident(p, FILE_INO, i);
	is_int(sim_stats(p)->reclaimed[1] + loop_left, 200,
	       "pinned: only loop pages reclaimed (200 in: %lld reclaimed, %lld resident)",
	       sim_stats(p)->reclaimed[1], loop_left);
	ok(loop_left <= 40, "pinned: the loop kept at most the 40 pages left (%lld)", loop_left);
	ok(sim_stats(p)->scanned[1] > sim_stats(p)->reclaimed[1] + 60,
	   "pinned: scanned and kept, again and again (%lld scanned, %lld reclaimed)",
	   sim_stats(p)->scanned[1], sim_stats(p)->reclaimed[1]);
	is_int(sim_stats(p)->over_limit, 0, "pinned: reclaim always found room among the others");
out:
	sim_free(p);
	sim_free(u);
}

/*
 * Out of memory: 64 pinned pages fill a 64-page memcg without swap, then
 * 1000 anon pages come: no charge finds room, every one is counted, and
 * after the first the charges skip reclaim (1, 2, 4, ... of them), so the
 * pinned pages are rescanned about log2(1000) times, not 1000 x 16.
 */
static void test_out_of_memory_backoff(void)
{
	struct sim *s = memcg(64, 0, 60);
	long long i;
	int failed = !s;

	for (i = 0; i < 64 && !failed; i++)
		failed |= sim_access_pinned(s, FILE_INO, i) < 0;
	for (i = 0; i < 1000 && !failed; i++)
		failed |= sim_access(s, SIM_ANON_INO, i) < 0;
	ok(!failed, "64 pinned pages, then 1000 anon pages, in a 64-page memcg without swap");
	if (failed)
		goto out;
	is_int(sim_stats(s)->over_limit, 1000, "every anon charge found no room");
	is_int(sim_stats(s)->reclaimed[0] + sim_stats(s)->reclaimed[1], 0, "nothing reclaimed");
	ok(sim_stats(s)->scanned[1] < 100000,	/* at every charge: about 2,000,000 */
	   "the pinned pages rescanned a few times, not at every charge (%lld scanned)",
	   sim_stats(s)->scanned[1]);
out:
	sim_free(s);
}

/* Swap slots held outside the simulation, and anon freed per interval from counters. */
static void test_swap_and_anon_frees(void)
{
	struct sim *s = memcg(100, 10, 100);
	struct whatif_rec r = { 0 };
	struct whatif_sample a = { 0 }, b = { 0 }, smp[5] = { { 0 } };

	if (!s) {
		ok(0, "a memcg with 10 pages of swap");
		return;
	}
	sim_hold_swap(s, 10);
	is_int(sim_swap_used(s), 10, "10 slots held from the start");
	sim_hold_swap(s, -25);
	is_int(sim_swap_used(s), 0, "freeing more than held leaves none, not fewer");
	sim_free(s);
	a.anon = 100, a.swap = 50;
	b.anon = 100, b.swap = 10;
	is_int(whatif_anon_unseen(&a, &b), 40, "40 swapped pages unmapped: 40 unseen");
	b.anon = 80, b.swap = 70, b.reclaimed[0] = 20;
	is_int(whatif_anon_unseen(&a, &b), 0, "20 pages swapped out: none unseen");
	is_int(whatif_anon_new(&a, &b), 0, "and none new");
	b.anon = 110, b.swap = 50, b.swapcached = 10, b.reclaimed[0] = 0, b.refault[0] = 10;
	ok(whatif_anon_unseen(&a, &b) <= 0 && whatif_anon_new(&a, &b) == 0,
	   "10 swapped in, their slots kept in the swap cache: none unseen, none new");
	b.anon = 130, b.swap = 30, b.swapcached = 0, b.refault[0] = 0;
	is_int(whatif_anon_new(&a, &b), 30, "30 allocated while 20 swapped pages are freed: 30 new");
	is_int(whatif_anon_unseen(&a, &b), 20, "and 20 unseen");

	/* 100 anon; 24 swapped out, 4 of them caught in the swap cache unmapped; then 40 freed */
	r.smp = smp;
	r.nsmp = 5;
	smp[0].anon = 100;
	smp[1].anon = 76, smp[1].swap = 24, smp[1].swapcached = 4, smp[1].reclaimed[0] = 24;
	smp[2].anon = 76, smp[2].swap = 24, smp[2].reclaimed[0] = 24;
	smp[3].anon = 60, smp[3].reclaimed[0] = 24;
	smp[4] = smp[3];
	r.has_swap = 1;
	whatif_settle_frees(&r);
	is_int(smp[1].freed + smp[2].freed, 0, "4 pages unmapped in the swap cache on their way out: none freed");
	is_int(smp[3].freed, 40, "the 40 freed, in their interval");
	is_int(r.anon_freed, 40, "40 freed in all");
	/*
	 * 4 mapped pages in the swap cache for an interval (swapped in, their
	 * slots kept), no swap-out; then 30 swapped out, 6 of them unmapped in
	 * the swap cache still
	 */
	memset(smp, 0, sizeof(smp));
	smp[0].anon = smp[1].anon = smp[2].anon = 100;
	smp[1].swap = smp[1].swapcached = 4;
	smp[3].anon = smp[4].anon = 70, smp[3].swap = smp[4].swap = 30, smp[3].swapcached = 6;
	smp[3].reclaimed[0] = smp[4].reclaimed[0] = 30;
	whatif_settle_frees(&r);
	is_int(smp[1].freed + smp[2].freed, 0, "4 pages counted twice for an interval: not freed");
	is_int(smp[3].freed + smp[4].freed, 0, "6 unmapped in the swap cache on their way out: not freed");
	r.has_swap = 0;
	smp[4].anon = 0;
	whatif_settle_frees(&r);
	is_int(r.anon_freed + smp[4].freed, 0, "without swap use in the samples: nothing freed");
}

int main(void)
{
	test_loop_larger_than_cache();
	test_loop_smaller_than_cache();
	test_refault_distance();
	test_referenced_kept_once();
	test_anon_distance_counts_file();
	test_swappiness_moves_cold_anon();
	test_kswapd_to_high_watermark();
	test_kswapd_gives_up();
	test_policy_decides();
	test_kswapd_retry();
	test_shadow_shrinker();
	test_protected_page();
	test_vfs_model();
	test_policy_shrink_slab();
	test_written_pages();
	test_brought_in_pages();
	test_mapped_touches();
	test_pinned_pages();
	test_out_of_memory_backoff();
	test_swap_and_anon_frees();
	test_boosted_kswapd();
	test_boosted_kswapd_may_not_swap();
	test_boosted_kswapd_no_progress();
	return done_testing();
}
