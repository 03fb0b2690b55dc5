-- SPDX-License-Identifier: GPL-2.0
-- 013-required-fields.sql: the fields every kernel from 4.14 to 6.18 prints
-- for an event, which the reports and the replay cannot do without. A text
-- line of the event that lacks one is not stored: it becomes an import_error
-- row with its line number, and the run is marked incomplete (a field absent
-- from every line would otherwise be a column of NULLs imported as complete).
-- Fields that came or went between those versions are not listed.

CREATE TABLE required_field (
	tbl TEXT NOT NULL,           -- typed table
	col TEXT NOT NULL,           -- its column
	PRIMARY KEY (tbl, col)
);

INSERT INTO required_field (tbl, col) VALUES
	('mm_vmscan_kswapd_sleep', 'nid'),
	('mm_vmscan_kswapd_wake', 'nid'),
	('mm_vmscan_kswapd_wake', 'order'),
	('mm_vmscan_wakeup_kswapd', 'nid'),
	('mm_vmscan_wakeup_kswapd', 'order'),
	('mm_vmscan_direct_reclaim_begin', 'order'),
	('mm_vmscan_direct_reclaim_end', 'nr_reclaimed'),
	('mm_vmscan_memcg_reclaim_begin', 'order'),
	('mm_vmscan_memcg_reclaim_end', 'nr_reclaimed'),
	('mm_vmscan_memcg_softlimit_reclaim_end', 'nr_reclaimed'),
	('mm_vmscan_node_reclaim_end', 'nr_reclaimed'),
	('mm_vmscan_lru_isolate', 'nr_scanned'),
	('mm_vmscan_lru_isolate', 'nr_taken'),
	('mm_vmscan_lru_shrink_inactive', 'nid'),
	('mm_vmscan_lru_shrink_inactive', 'nr_scanned'),
	('mm_vmscan_lru_shrink_inactive', 'nr_reclaimed'),
	('mm_vmscan_lru_shrink_inactive', 'priority'),
	('mm_vmscan_lru_shrink_inactive', 'reclaim_flags'),
	('mm_vmscan_lru_shrink_active', 'nid'),
	('mm_vmscan_lru_shrink_active', 'nr_taken'),
	('mm_vmscan_lru_shrink_active', 'nr_deactivated'),
	('mm_vmscan_lru_shrink_active', 'priority'),
	('mm_vmscan_lru_shrink_active', 'reclaim_flags'),
	('mm_shrink_slab_end', 'retval');
