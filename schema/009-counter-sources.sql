-- SPDX-License-Identifier: GPL-2.0
-- 009-counter-sources.sql: where counters that came with a trace came from
-- (`vmscope import --counters`, `vmscope counters add`): one row per file,
-- its samples (a range of counter_sample ids), their span after alignment to
-- the trace clock, and how that alignment was found. A live recording
-- samples on the trace clock and has no rows here.

CREATE TABLE IF NOT EXISTS counter_source (
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL,          -- the file as given on the command line
	format TEXT NOT NULL,        -- 'mmtests proc-vmstat', 'snapshot proc-meminfo', 'csv', 'sysctl', ...
	clock TEXT NOT NULL,         -- the file's clock: 'realtime', 'mono', 'boot', 'trace', 'unsaid'
	samples INTEGER NOT NULL,    -- counter_sample rows it gave
	first_sample INTEGER,        -- counter_sample.id of its first and last sample (NULL: none)
	last_sample INTEGER,
	first_ts INTEGER,            -- ns on the trace clock, after alignment
	last_ts INTEGER,
	offset_ns INTEGER NOT NULL,  -- added to the file's times to put them on the trace clock
	aligned_by TEXT NOT NULL,    -- 'trace-date', 'same-clock', 'user-offset', 'automatic', 'none'
	residual REAL,               -- automatic: reclaim unmatched, relative to the trace's (0.02 = 2%)
	detail TEXT NOT NULL,        -- the alignment in words, as info prints it
	added_at TEXT NOT NULL       -- UTC, ISO 8601
);
