-- SPDX-License-Identifier: GPL-2.0
-- 910-derived.sql: what the analyzers need, derived once when a run is
-- finished (lib/derive.c fills these tables in one ordered pass, inside the
-- transaction that finishes the run), so that `vmscope report` does not pair
-- or rescan the per-event tables. Part of schema version 2 (`vmscope upgrade`
-- drops these tables and derives them again, lib/upgrade.c). The interval
-- views of 006-views.sql are replaced: reclaim_interval and kswapd_interval
-- by tables, shrink_slab_interval by a view over the pairs in
-- shrink_slab_call; same names, columns and rows as before.
--
-- Time buckets: bucket b holds the events with
--   derive_info.origin_ts + b * bucket_ns <= ts < origin_ts + (b + 1) * bucket_ns;
-- bucket_ns divides one second and origin_ts is the start of the run as the
-- report counts it, so a bucket lies inside one whole second of the run.
-- A window is summed exactly from the buckets it covers whole plus the raw
-- rows of the buckets it cuts, found through the seq ranges of event_bucket.

DROP VIEW IF EXISTS reclaim_interval;
DROP VIEW IF EXISTS kswapd_interval;
DROP VIEW IF EXISTS shrink_slab_interval;

CREATE TABLE IF NOT EXISTS derive_info (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	origin_ts INTEGER NOT NULL,	-- ns, trace clock: start of bucket 0
	bucket_ns INTEGER NOT NULL,	-- ns, width of a bucket; divides 1e9
	slab_resorted INTEGER NOT NULL,	-- 1: some task's slab events were out of time order in seq
	tool_version TEXT NOT NULL);	-- vmscope that derived the tables

-- Same columns as the former views (006-views.sql documents their meaning).
CREATE TABLE IF NOT EXISTS reclaim_interval (
	kind TEXT NOT NULL, pid INTEGER, cpu INTEGER, nid INTEGER,
	begin_seq INTEGER, begin_ts INTEGER, end_seq INTEGER, end_ts INTEGER,
	duration_ns INTEGER, "order" INTEGER, gfp_flags TEXT, nr_reclaimed INTEGER);

CREATE TABLE IF NOT EXISTS kswapd_interval (
	nid INTEGER, pid INTEGER, wake_seq INTEGER, wake_ts INTEGER,
	sleep_seq INTEGER, sleep_ts INTEGER, duration_ns INTEGER,
	wakes INTEGER, max_order INTEGER);

-- One do_shrink_slab() call per row, as pairs of event seqs: a start with
-- its end (end_seq NULL: none), or an end without its start (start_seq
-- NULL). rowid: the order the pairing pass wrote them in (event_bucket ranges).
CREATE TABLE IF NOT EXISTS shrink_slab_call (
	start_seq INTEGER,	-- mm_shrink_slab_start.seq
	end_seq INTEGER);	-- mm_shrink_slab_end.seq

-- The same rows and columns as the former window-function view, read through
-- the pairs (two lookups by seq per call).
CREATE VIEW IF NOT EXISTS shrink_slab_interval AS
SELECT s.pid AS pid, s.cpu AS cpu, s.shr AS shr, s.shrink AS shrink, s.nid AS nid,
	s.seq AS start_seq, s.ts AS start_ts, e.seq AS end_seq, e.ts AS end_ts,
	e.ts - s.ts AS duration_ns, s.gfp_flags AS gfp_flags, s.priority AS priority,
	s.nr_objects_to_shrink AS nr_objects_to_shrink, s.cache_items AS cache_items,
	s.delta AS delta, s.total_scan AS total_scan, e.unused_scan AS unused_scan,
	e.new_scan AS new_scan, e.retval AS freed, e.total_scan AS left_unscanned
FROM shrink_slab_call c JOIN mm_shrink_slab_start s ON s.seq = c.start_seq
LEFT JOIN mm_shrink_slab_end e ON e.seq = c.end_seq
UNION ALL
SELECT e.pid, e.cpu, e.shr, e.shrink, e.nid, NULL, NULL, e.seq, e.ts, NULL, NULL, NULL,
	NULL, NULL, NULL, NULL, e.unused_scan, e.new_scan, e.retval, e.total_scan
FROM shrink_slab_call c JOIN mm_shrink_slab_end e ON e.seq = c.end_seq
WHERE c.start_seq IS NULL;

-- Rows per event type and time bucket. tbl is the event table (or
-- 'shrink_slab_call', whose "seq" is its rowid and whose time is its start's,
-- else its end's); min_seq/max_seq bound the bucket's rows.
CREATE TABLE IF NOT EXISTS event_bucket (
	tbl TEXT NOT NULL, event TEXT NOT NULL, bucket INTEGER NOT NULL,
	n INTEGER NOT NULL, min_seq INTEGER NOT NULL, max_seq INTEGER NOT NULL,
	PRIMARY KEY (tbl, event, bucket)) WITHOUT ROWID;

-- mm_vmscan_lru_shrink_inactive summed per bucket, task and reclaimer:
-- in_memcg / in_direct as the audit section defines them (report-audit.md).
CREATE TABLE IF NOT EXISTS inactive_bucket (
	bucket INTEGER NOT NULL, pid INTEGER NOT NULL,
	in_memcg INTEGER NOT NULL, in_direct INTEGER NOT NULL,
	events INTEGER NOT NULL, nr_scanned INTEGER, nr_reclaimed INTEGER,
	scanned_anon INTEGER, scanned_file INTEGER,
	PRIMARY KEY (bucket, pid, in_memcg, in_direct)) WITHOUT ROWID;

-- The name every reader shows for a shrinker: its scan_objects symbol as
-- traced (shrink) without the offset, " [module]" kept ('super_cache_scan',
-- 'i915_gem_shrinker_scan [i915]'); shrink itself when it has no offset,
-- '?' when it is NULL. One row per shrink value of the slab events.
CREATE TABLE IF NOT EXISTS shrinker_name (
	shrink TEXT UNIQUE,	-- mm_shrink_slab_start/_end.shrink (one row NULL when some are)
	name TEXT NOT NULL);

-- The calls of shrink_slab_interval summed per bucket of start_ts (orphan = 0) or, for
-- end events without a start, of end_ts (orphan = 1), shrinker and priority.
-- A sum is NULL when none of its values is known, as SQL's SUM().
CREATE TABLE IF NOT EXISTS shrink_bucket (
	bucket INTEGER NOT NULL, orphan INTEGER NOT NULL, shr TEXT, shrink TEXT,
	name TEXT NOT NULL,	-- shrinker_name.name of shrink
	priority INTEGER,
	calls INTEGER NOT NULL, to_scan INTEGER, scanned INTEGER, freed INTEGER,
	def_taken INTEGER, def_left INTEGER, items_sum INTEGER, items_n INTEGER NOT NULL,
	open INTEGER NOT NULL);

-- The reclaim episodes of the whole run with what happened inside each, as
-- the episodes section defines them (report-episodes.md), in its order
-- (rowid). NULL where that section shows none. inside_lo_ts/inside_hi_ts:
-- the bounds of "inside" (the episode's own events, else its neighbours' or
-- the trace's), against which lost_events are matched.
CREATE TABLE IF NOT EXISTS episode (
	kind TEXT NOT NULL, pid INTEGER NOT NULL, comm TEXT NOT NULL, nid INTEGER,
	begin_cpu INTEGER, end_cpu INTEGER, begin_ts INTEGER, end_ts INTEGER,
	inside_lo_ts INTEGER NOT NULL, inside_hi_ts INTEGER NOT NULL,
	duration_ns INTEGER, scanned INTEGER NOT NULL, reclaimed INTEGER NOT NULL,
	anon INTEGER NOT NULL, file INTEGER NOT NULL, min_priority INTEGER,
	slab_planned INTEGER NOT NULL, slab_scanned INTEGER NOT NULL, slab_freed INTEGER NOT NULL,
	writes INTEGER NOT NULL, throttle_us INTEGER NOT NULL, end_reclaimed INTEGER,
	wakes INTEGER,
	nodes INTEGER NOT NULL,	-- nodes the LRU events inside scanned
	lost TEXT NOT NULL);	-- 'inside', 'cpuN', 'anywhere' (lost_events that may hit it) or ''
