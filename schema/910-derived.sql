-- SPDX-License-Identifier: GPL-2.0
-- 910-derived.sql: what the analyzers need, derived once when a run is
-- finished (lib/derive.c fills these tables in one ordered pass, inside the
-- transaction that finishes the run), so that `vmscope report` does not pair
-- or rescan the per-event tables. Part of schema version 1. The three
-- interval views of 006-views.sql become tables with the same names and
-- columns, holding exactly what the views return.
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

-- rowid: the order the pairing pass wrote the calls in (event_bucket ranges)
CREATE TABLE IF NOT EXISTS shrink_slab_interval (
	pid INTEGER, cpu INTEGER, shr TEXT, shrink TEXT, nid INTEGER,
	start_seq INTEGER, start_ts INTEGER, end_seq INTEGER, end_ts INTEGER,
	duration_ns INTEGER, gfp_flags TEXT, priority INTEGER,
	nr_objects_to_shrink INTEGER, cache_items INTEGER, delta INTEGER, total_scan INTEGER,
	unused_scan INTEGER, new_scan INTEGER, freed INTEGER, left_unscanned INTEGER);

-- Rows per event type and time bucket. tbl is the event table (or
-- 'shrink_slab_interval', whose "seq" is its rowid and whose time is
-- COALESCE(start_ts, end_ts)); min_seq/max_seq bound the bucket's rows.
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

-- shrink_slab_interval summed per bucket of start_ts (orphan = 0) or, for
-- end events without a start, of end_ts (orphan = 1), shrinker and priority.
-- A sum is NULL when none of its values is known, as SQL's SUM().
CREATE TABLE IF NOT EXISTS shrink_bucket (
	bucket INTEGER NOT NULL, orphan INTEGER NOT NULL, shr TEXT, shrink TEXT, priority INTEGER,
	calls INTEGER NOT NULL, to_scan INTEGER, scanned INTEGER, freed INTEGER,
	def_taken INTEGER, def_left INTEGER, items_sum INTEGER, items_n INTEGER NOT NULL,
	open INTEGER NOT NULL);

-- The reclaim episodes of the whole run with what happened inside each, as
-- the episodes section defines them (report-episodes.md), in its order
-- (rowid). NULL where that section shows none. inside_lo_ts/inside_hi_ts:
-- the bounds of "inside" (the episode's own events, else its neighbours' or
-- the trace's), against which the section matches lost_events when it runs.
CREATE TABLE IF NOT EXISTS episode (
	kind TEXT NOT NULL, pid INTEGER NOT NULL, comm TEXT NOT NULL, nid INTEGER,
	begin_cpu INTEGER, end_cpu INTEGER, begin_ts INTEGER, end_ts INTEGER,
	inside_lo_ts INTEGER NOT NULL, inside_hi_ts INTEGER NOT NULL,
	duration_ns INTEGER, scanned INTEGER NOT NULL, reclaimed INTEGER NOT NULL,
	anon INTEGER NOT NULL, file INTEGER NOT NULL, min_priority INTEGER,
	slab_planned INTEGER NOT NULL, slab_scanned INTEGER NOT NULL, slab_freed INTEGER NOT NULL,
	writes INTEGER NOT NULL, throttle_us INTEGER NOT NULL, end_reclaimed INTEGER,
	wakes INTEGER);
