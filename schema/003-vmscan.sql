-- SPDX-License-Identifier: GPL-2.0
-- 003-vmscan.sql: one typed table per vmscan event, columns named after the
-- kernel's fields (the union over kernels 4.14-6.18; a field a kernel lacks is NULL).
--
-- Every event table starts with the same four columns:
--   seq  global order of the event in the run (unique across all event tables;
--        ties in ts keep the order the source gave)
--   ts   ns on the run's trace clock (text traces: microsecond resolution)
--   cpu, pid
-- and ends with `extra`: JSON object of fields (or text labels) the table has
-- no column for, NULL when there were none. Counts are in base pages.

CREATE TABLE mm_vmscan_kswapd_sleep (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nid INTEGER,
	extra TEXT);

CREATE TABLE mm_vmscan_kswapd_wake (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nid INTEGER,
	zid INTEGER,                 -- not printed in text since 5.2: NULL from text traces
	"order" INTEGER,
	extra TEXT);

CREATE TABLE mm_vmscan_wakeup_kswapd (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nid INTEGER,
	zid INTEGER,
	"order" INTEGER,
	gfp_flags TEXT,              -- symbolic, as the traced kernel names the bits; 'none' for 0
	extra TEXT);

CREATE TABLE mm_vmscan_direct_reclaim_begin (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	"order" INTEGER,
	gfp_flags TEXT,
	may_writepage INTEGER,       -- 4.14-5.1 only
	classzone_idx INTEGER,       -- 4.14-5.1 only
	extra TEXT);

CREATE TABLE mm_vmscan_direct_reclaim_end (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nr_reclaimed INTEGER,
	extra TEXT);

CREATE TABLE mm_vmscan_memcg_reclaim_begin (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	"order" INTEGER,
	gfp_flags TEXT,
	may_writepage INTEGER,
	classzone_idx INTEGER,
	extra TEXT);

CREATE TABLE mm_vmscan_memcg_reclaim_end (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nr_reclaimed INTEGER,
	extra TEXT);

CREATE TABLE mm_vmscan_memcg_softlimit_reclaim_begin (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	"order" INTEGER,
	gfp_flags TEXT,
	may_writepage INTEGER,
	classzone_idx INTEGER,
	extra TEXT);

CREATE TABLE mm_vmscan_memcg_softlimit_reclaim_end (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nr_reclaimed INTEGER,
	extra TEXT);

CREATE TABLE mm_vmscan_node_reclaim_begin (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nid INTEGER,
	"order" INTEGER,
	gfp_flags TEXT,
	extra TEXT);

CREATE TABLE mm_vmscan_node_reclaim_end (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nr_reclaimed INTEGER,
	extra TEXT);

CREATE TABLE mm_shrink_slab_start (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	shr TEXT,                    -- shrinker address (hashed in kernel text output): an id
	shrink TEXT,                 -- scan_objects function, 'symbol+0xoff' or an address
	nid INTEGER,
	nr_objects_to_shrink INTEGER, -- deferred work taken over from earlier calls, objects
	gfp_flags TEXT,
	cache_items INTEGER,         -- freeable objects the shrinker reported
	delta INTEGER,               -- new work computed for this call, objects
	total_scan INTEGER,          -- objects this call will try to scan
	priority INTEGER,            -- 4.16+
	pgs_scanned INTEGER,         -- 4.14-4.15 only
	lru_pgs INTEGER,             -- 4.14-4.15 only
	extra TEXT);

CREATE TABLE mm_shrink_slab_end (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	shr TEXT,
	shrink TEXT,
	nid INTEGER,
	unused_scan INTEGER,         -- deferred count taken at start, objects
	new_scan INTEGER,            -- deferred count after adding back unfinished work
	retval INTEGER,              -- objects freed
	total_scan INTEGER,          -- planned work left unscanned (< batch)
	extra TEXT);

CREATE TABLE mm_vmscan_lru_isolate (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	highest_zoneidx INTEGER,     -- classzone_idx up to 5.7; printed 'classzone='
	"order" INTEGER,
	nr_requested INTEGER,
	nr_scanned INTEGER,
	nr_skipped INTEGER,
	nr_taken INTEGER,
	isolate_mode INTEGER,        -- up to 6.7
	lru INTEGER,                 -- vocab 'lru'
	extra TEXT);

CREATE TABLE mm_vmscan_write_folio (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	event TEXT NOT NULL,         -- 'mm_vmscan_write_folio' or (up to 5.x) 'mm_vmscan_writepage'
	pfn INTEGER,
	reclaim_flags INTEGER,       -- vocab 'reclaim_flags'
	extra TEXT);

CREATE TABLE mm_vmscan_lru_shrink_inactive (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nid INTEGER,
	nr_scanned INTEGER,
	nr_reclaimed INTEGER,
	nr_dirty INTEGER,
	nr_writeback INTEGER,
	nr_congested INTEGER,
	nr_immediate INTEGER,
	nr_activate INTEGER,         -- up to 5.1 (one counter)
	nr_activate0 INTEGER,        -- 5.2+: anon pages activated, printed 'nr_activate_anon='
	nr_activate1 INTEGER,        -- 5.2+: file pages activated, printed 'nr_activate_file='
	nr_ref_keep INTEGER,
	nr_unmap_fail INTEGER,
	priority INTEGER,
	reclaim_flags INTEGER,       -- vocab 'reclaim_flags', printed 'flags='
	extra TEXT);

CREATE TABLE mm_vmscan_lru_shrink_active (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nid INTEGER,
	nr_taken INTEGER,
	nr_active INTEGER,
	nr_deactivated INTEGER,
	nr_referenced INTEGER,
	priority INTEGER,
	reclaim_flags INTEGER,
	extra TEXT);

CREATE TABLE mm_vmscan_inactive_list_is_low (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nid INTEGER,
	reclaim_idx INTEGER,
	total_inactive INTEGER,
	inactive INTEGER,
	total_active INTEGER,
	active INTEGER,
	ratio INTEGER,               -- 0: refault-triggered override
	reclaim_flags INTEGER,
	extra TEXT);

CREATE TABLE mm_vmscan_throttled (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nid INTEGER,
	usec_timeout INTEGER,        -- microseconds
	usec_delayed INTEGER,        -- microseconds; printed 'usect_delayed='
	reason INTEGER,              -- vocab 'throttle_reason' (1 << enum vmscan_throttle_state)
	extra TEXT);

CREATE TABLE mm_vmscan_reclaim_pages (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nid INTEGER,
	nr_scanned INTEGER,
	nr_reclaimed INTEGER,
	nr_dirty INTEGER,
	nr_writeback INTEGER,
	nr_congested INTEGER,
	nr_immediate INTEGER,
	nr_activate0 INTEGER,
	nr_activate1 INTEGER,
	nr_ref_keep INTEGER,
	nr_unmap_fail INTEGER,
	extra TEXT);

INSERT INTO event_table VALUES
	('mm_vmscan_kswapd_sleep', 'vmscan', 'mm_vmscan_kswapd_sleep'),
	('mm_vmscan_kswapd_wake', 'vmscan', 'mm_vmscan_kswapd_wake'),
	('mm_vmscan_wakeup_kswapd', 'vmscan', 'mm_vmscan_wakeup_kswapd'),
	('mm_vmscan_direct_reclaim_begin', 'vmscan', 'mm_vmscan_direct_reclaim_begin'),
	('mm_vmscan_direct_reclaim_end', 'vmscan', 'mm_vmscan_direct_reclaim_end'),
	('mm_vmscan_memcg_reclaim_begin', 'vmscan', 'mm_vmscan_memcg_reclaim_begin'),
	('mm_vmscan_memcg_reclaim_end', 'vmscan', 'mm_vmscan_memcg_reclaim_end'),
	('mm_vmscan_memcg_softlimit_reclaim_begin', 'vmscan', 'mm_vmscan_memcg_softlimit_reclaim_begin'),
	('mm_vmscan_memcg_softlimit_reclaim_end', 'vmscan', 'mm_vmscan_memcg_softlimit_reclaim_end'),
	('mm_vmscan_node_reclaim_begin', 'vmscan', 'mm_vmscan_node_reclaim_begin'),
	('mm_vmscan_node_reclaim_end', 'vmscan', 'mm_vmscan_node_reclaim_end'),
	('mm_shrink_slab_start', 'vmscan', 'mm_shrink_slab_start'),
	('mm_shrink_slab_end', 'vmscan', 'mm_shrink_slab_end'),
	('mm_vmscan_lru_isolate', 'vmscan', 'mm_vmscan_lru_isolate'),
	('mm_vmscan_write_folio', 'vmscan', 'mm_vmscan_write_folio'),
	('mm_vmscan_writepage', 'vmscan', 'mm_vmscan_write_folio'),
	('mm_vmscan_lru_shrink_inactive', 'vmscan', 'mm_vmscan_lru_shrink_inactive'),
	('mm_vmscan_lru_shrink_active', 'vmscan', 'mm_vmscan_lru_shrink_active'),
	('mm_vmscan_inactive_list_is_low', 'vmscan', 'mm_vmscan_inactive_list_is_low'),
	('mm_vmscan_throttled', 'vmscan', 'mm_vmscan_throttled'),
	('mm_vmscan_reclaim_pages', 'vmscan', 'mm_vmscan_reclaim_pages');

INSERT INTO field_alias VALUES
	('mm_vmscan_lru_isolate', 'classzone_idx', 'highest_zoneidx', 'field name up to 5.7'),
	('mm_vmscan_lru_isolate', 'classzone', 'highest_zoneidx', 'text label'),
	('mm_vmscan_write_folio', 'flags', 'reclaim_flags', 'text label'),
	('mm_vmscan_lru_shrink_inactive', 'flags', 'reclaim_flags', 'text label'),
	('mm_vmscan_lru_shrink_inactive', 'nr_activate_anon', 'nr_activate0', 'text label'),
	('mm_vmscan_lru_shrink_inactive', 'nr_activate_file', 'nr_activate1', 'text label'),
	('mm_vmscan_lru_shrink_active', 'flags', 'reclaim_flags', 'text label'),
	('mm_vmscan_inactive_list_is_low', 'flags', 'reclaim_flags', 'text label'),
	('mm_vmscan_reclaim_pages', 'nr_activate_anon', 'nr_activate0', 'text label'),
	('mm_vmscan_reclaim_pages', 'nr_activate_file', 'nr_activate1', 'text label'),
	('mm_vmscan_throttled', 'usect_delayed', 'usec_delayed', 'text label (kernel typo)'),
	('mm_shrink_slab_start', 'objects_to_shrink', 'nr_objects_to_shrink', 'text label'),
	('mm_shrink_slab_start', 'cache_items', 'cache_items', 'text label'),
	('mm_shrink_slab_end', 'unused_scan_count', 'unused_scan', 'text label'),
	('mm_shrink_slab_end', 'new_scan_count', 'new_scan', 'text label'),
	('mm_shrink_slab_end', 'last_shrinker_return_val', 'retval', 'text label');

INSERT INTO column_vocab VALUES
	('mm_vmscan_lru_isolate', 'lru', 'lru', 0),
	('mm_vmscan_write_folio', 'reclaim_flags', 'reclaim_flags', 1),
	('mm_vmscan_lru_shrink_inactive', 'reclaim_flags', 'reclaim_flags', 1),
	('mm_vmscan_lru_shrink_active', 'reclaim_flags', 'reclaim_flags', 1),
	('mm_vmscan_inactive_list_is_low', 'reclaim_flags', 'reclaim_flags', 1),
	('mm_vmscan_throttled', 'reason', 'throttle_reason', 1);
