-- SPDX-License-Identifier: GPL-2.0
-- 006-views.sql: begin/end pairs as intervals, the units the analyzers work in.
-- Pairs are matched per task (per node for kswapd) in time order (ts, then
-- seq for equal timestamps; a live recording merges CPUs page by page, so seq
-- alone can be a few events out of time order). An
-- interval cut by the start of the trace has NULL begin columns; one cut by
-- the end has NULL end columns: both are kept, never dropped.

-- Direct, memcg, memcg soft-limit and node reclaim calls.
CREATE VIEW reclaim_interval AS
WITH ev AS (
	SELECT 'direct' AS kind, seq, ts, cpu, pid, 1 AS is_begin, NULL AS nid, "order", gfp_flags, NULL AS nr_reclaimed
		FROM mm_vmscan_direct_reclaim_begin
	UNION ALL SELECT 'direct', seq, ts, cpu, pid, 0, NULL, NULL, NULL, nr_reclaimed
		FROM mm_vmscan_direct_reclaim_end
	UNION ALL SELECT 'memcg', seq, ts, cpu, pid, 1, NULL, "order", gfp_flags, NULL
		FROM mm_vmscan_memcg_reclaim_begin
	UNION ALL SELECT 'memcg', seq, ts, cpu, pid, 0, NULL, NULL, NULL, nr_reclaimed
		FROM mm_vmscan_memcg_reclaim_end
	UNION ALL SELECT 'memcg_softlimit', seq, ts, cpu, pid, 1, NULL, "order", gfp_flags, NULL
		FROM mm_vmscan_memcg_softlimit_reclaim_begin
	UNION ALL SELECT 'memcg_softlimit', seq, ts, cpu, pid, 0, NULL, NULL, NULL, nr_reclaimed
		FROM mm_vmscan_memcg_softlimit_reclaim_end
	UNION ALL SELECT 'node', seq, ts, cpu, pid, 1, nid, "order", gfp_flags, NULL
		FROM mm_vmscan_node_reclaim_begin
	UNION ALL SELECT 'node', seq, ts, cpu, pid, 0, NULL, NULL, NULL, nr_reclaimed
		FROM mm_vmscan_node_reclaim_end
), w AS (
	SELECT *, LAG(is_begin) OVER p AS prev_is_begin,
		LEAD(is_begin) OVER p AS next_is_begin, LEAD(seq) OVER p AS next_seq,
		LEAD(ts) OVER p AS next_ts, LEAD(nr_reclaimed) OVER p AS next_nr_reclaimed
	FROM ev WINDOW p AS (PARTITION BY kind, pid ORDER BY ts, seq)
)
SELECT kind, pid, cpu, nid, seq AS begin_seq, ts AS begin_ts,
	CASE WHEN next_is_begin = 0 THEN next_seq END AS end_seq,
	CASE WHEN next_is_begin = 0 THEN next_ts END AS end_ts,
	CASE WHEN next_is_begin = 0 THEN next_ts - ts END AS duration_ns,  -- ns
	"order", gfp_flags,
	CASE WHEN next_is_begin = 0 THEN next_nr_reclaimed END AS nr_reclaimed -- pages
FROM w WHERE is_begin = 1
UNION ALL
SELECT kind, pid, cpu, NULL, NULL, NULL, seq, ts, NULL, NULL, NULL, nr_reclaimed
FROM w WHERE is_begin = 0 AND (prev_is_begin IS NULL OR prev_is_begin = 0);

-- kswapd awake intervals per node: from the first kswapd_wake after a sleep to
-- the next kswapd_sleep. `wakes` counts balance_pgdat() runs inside; more than
-- one means kswapd went round again without sleeping (a re-wake).
CREATE VIEW kswapd_interval AS
WITH ev AS (
	SELECT nid, seq, ts, pid, 0 AS is_sleep, "order" FROM mm_vmscan_kswapd_wake
	UNION ALL SELECT nid, seq, ts, pid, 1, NULL FROM mm_vmscan_kswapd_sleep
), g AS (
	SELECT *, COALESCE(SUM(is_sleep) OVER (PARTITION BY nid ORDER BY ts, seq
		ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS grp
	FROM ev
)
SELECT nid, MIN(pid) AS pid,
	MIN(CASE WHEN is_sleep = 0 THEN seq END) AS wake_seq,
	MIN(CASE WHEN is_sleep = 0 THEN ts END) AS wake_ts,
	MAX(CASE WHEN is_sleep = 1 THEN seq END) AS sleep_seq,
	MAX(CASE WHEN is_sleep = 1 THEN ts END) AS sleep_ts,
	MAX(CASE WHEN is_sleep = 1 THEN ts END) - MIN(CASE WHEN is_sleep = 0 THEN ts END) AS duration_ns,
	SUM(1 - is_sleep) AS wakes,
	MAX("order") AS max_order
FROM g GROUP BY nid, grp;

-- One do_shrink_slab() call: start and end of the same shrinker in the same task.
CREATE VIEW shrink_slab_interval AS
WITH ev AS (
	SELECT seq, ts, cpu, pid, 1 AS is_start, shr, shrink, nid, nr_objects_to_shrink, gfp_flags,
		cache_items, delta, total_scan, priority, NULL AS unused_scan, NULL AS new_scan,
		NULL AS retval, NULL AS end_total_scan
		FROM mm_shrink_slab_start
	UNION ALL SELECT seq, ts, cpu, pid, 0, shr, shrink, nid, NULL, NULL, NULL, NULL, NULL, NULL,
		unused_scan, new_scan, retval, total_scan
		FROM mm_shrink_slab_end
), w AS (
	SELECT *, LAG(is_start) OVER p AS prev_is_start, LAG(shr) OVER p AS prev_shr,
		LEAD(is_start) OVER p AS next_is_start, LEAD(shr) OVER p AS next_shr,
		LEAD(seq) OVER p AS next_seq, LEAD(ts) OVER p AS next_ts,
		LEAD(unused_scan) OVER p AS next_unused_scan, LEAD(new_scan) OVER p AS next_new_scan,
		LEAD(retval) OVER p AS next_retval, LEAD(end_total_scan) OVER p AS next_end_total_scan
	FROM ev WINDOW p AS (PARTITION BY pid ORDER BY ts, seq)
)
SELECT pid, cpu, shr, shrink, nid, seq AS start_seq, ts AS start_ts,
	CASE WHEN next_is_start = 0 AND next_shr IS shr THEN next_seq END AS end_seq,
	CASE WHEN next_is_start = 0 AND next_shr IS shr THEN next_ts END AS end_ts,
	CASE WHEN next_is_start = 0 AND next_shr IS shr THEN next_ts - ts END AS duration_ns,
	gfp_flags, priority, nr_objects_to_shrink, cache_items, delta, total_scan,
	CASE WHEN next_is_start = 0 AND next_shr IS shr THEN next_unused_scan END AS unused_scan,
	CASE WHEN next_is_start = 0 AND next_shr IS shr THEN next_new_scan END AS new_scan,
	CASE WHEN next_is_start = 0 AND next_shr IS shr THEN next_retval END AS freed,  -- objects
	CASE WHEN next_is_start = 0 AND next_shr IS shr THEN next_end_total_scan END AS left_unscanned
FROM w WHERE is_start = 1
UNION ALL
SELECT pid, cpu, shr, shrink, nid, NULL, NULL, seq, ts, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	unused_scan, new_scan, retval, end_total_scan
FROM w WHERE is_start = 0 AND (prev_is_start IS NULL OR prev_is_start = 0 OR prev_shr IS NOT shr);
