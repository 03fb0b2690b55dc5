-- SPDX-License-Identifier: GPL-2.0
-- 002-meta.sql: how trace events map onto the typed tables.
-- The importers are driven by these rows and by the column lists of the
-- typed tables (PRAGMA table_info): a field is stored in the column of the
-- same name, or of the name an alias row gives; everything else goes to the
-- table's `extra` JSON column. Users can join `vocab` to decode numbers.

-- Which table holds which event. Several events may share a table (renamed
-- events, one template); such tables have an `event` column naming each row's event.
CREATE TABLE event_table (
	event TEXT PRIMARY KEY,      -- event name as the kernel prints it
	system TEXT NOT NULL,        -- tracefs system: 'vmscan', 'writeback', 'kmem'
	tbl TEXT NOT NULL            -- typed table
);

-- Other names a field has had, in the binary format of some kernel version or
-- in the text the kernel prints (print fmt labels).
CREATE TABLE field_alias (
	tbl TEXT NOT NULL,
	alias TEXT NOT NULL,         -- name in the format or label in the text
	col TEXT NOT NULL,           -- column it is stored in
	note TEXT,
	PRIMARY KEY (tbl, alias)
);

-- Symbolic names of numeric values (stable across 4.14-6.18, see docs/schema.md).
CREATE TABLE vocab (
	domain TEXT NOT NULL,        -- 'lru', 'reclaim_flags', 'throttle_reason'
	name TEXT NOT NULL,
	value INTEGER NOT NULL,
	PRIMARY KEY (domain, name)
);

-- Columns whose text form is a name from `vocab` (a flags domain joins names with '|').
CREATE TABLE column_vocab (
	tbl TEXT NOT NULL,
	col TEXT NOT NULL,
	domain TEXT NOT NULL,
	is_flags INTEGER NOT NULL,   -- 1: '|'-joined bit names, OR-ed; 0: one name
	PRIMARY KEY (tbl, col)
);

INSERT INTO vocab VALUES
	('lru', 'inactive_anon', 0), ('lru', 'active_anon', 1), ('lru', 'inactive_file', 2),
	('lru', 'active_file', 3), ('lru', 'unevictable', 4),
	('reclaim_flags', 'RECLAIM_WB_NONE', 0), ('reclaim_flags', 'RECLAIM_WB_ANON', 1),
	('reclaim_flags', 'RECLAIM_WB_FILE', 2), ('reclaim_flags', 'RECLAIM_WB_SYNC', 4),
	('reclaim_flags', 'RECLAIM_WB_ASYNC', 8), ('reclaim_flags', 'RECLAIM_WB_MIXED', 16),
	('throttle_reason', 'VMSCAN_THROTTLE_WRITEBACK', 1), ('throttle_reason', 'VMSCAN_THROTTLE_ISOLATED', 2),
	('throttle_reason', 'VMSCAN_THROTTLE_NOPROGRESS', 4), ('throttle_reason', 'VMSCAN_THROTTLE_CONGESTED', 8);
