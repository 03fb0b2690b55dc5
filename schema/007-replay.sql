-- SPDX-License-Identifier: GPL-2.0
-- 007-replay.sql: reclaim decisions rebuilt from a run, and what policies
-- would have decided (`vmscope replay`). Written by replay, not by import or
-- record; every statement is IF NOT EXISTS so that `vmscope upgrade` can add
-- these tables to a version 1 database written before they existed.

-- One row per decision point: a reclaim pass (one priority step of one
-- reclaimer in one episode) or, for kswapd, a whole balance_pgdat() run.
CREATE TABLE IF NOT EXISTS decision (
	id INTEGER PRIMARY KEY,
	kind TEXT NOT NULL,            -- 'pass' or 'kswapd_run'
	reclaimer TEXT NOT NULL,       -- 'kswapd', 'direct', 'memcg', 'memcg_softlimit', 'node', 'other'
	pid INTEGER NOT NULL,
	nid INTEGER,
	episode_ts INTEGER,            -- ns: begin of the enclosing episode (NULL when cut by the trace start)
	ts INTEGER NOT NULL,           -- ns: first event of the pass or run
	ts_end INTEGER NOT NULL,       -- ns: last event
	priority INTEGER,              -- pass: its priority (exact); run: lowest priority reached
	"order" INTEGER,               -- allocation order (exact from the episode's begin or kswapd_wake)
	-- inputs (pages); provenance in `provenance`
	inactive_anon INTEGER, active_anon INTEGER, inactive_file INTEGER, active_file INTEGER,
	lru_scope TEXT,                -- 'node' (vmstat), memcg path (memory.stat), NULL when unknown
	free_pages INTEGER,            -- node free pages
	high_wmark INTEGER,            -- sum of the node's zones' high watermarks (boost included)
	boost INTEGER,                 -- sum of the node's zones' watermark_boost
	swappiness INTEGER,
	swap_free INTEGER,             -- pages of free swap (0: no swap)
	refault_file INTEGER,          -- workingset_activate_file since the previous cycle of this root ended
	refault_anon INTEGER,          -- workingset_activate_anon since then
	sample_age_ms REAL,            -- age of the counter sample the sampled inputs come from
	provenance TEXT,               -- JSON: input -> 'exact' | 'sampled' | 'inferred' | 'unknown'
	-- what the kernel did (exact, from events)
	scanned_inactive_anon INTEGER, scanned_active_anon INTEGER,
	scanned_inactive_file INTEGER, scanned_active_file INTEGER,
	reclaimed INTEGER,
	slab_calls INTEGER,            -- mm_shrink_slab_start events in the pass
	slab_freed INTEGER,            -- objects
	runs_since_success INTEGER,    -- kswapd_run: consecutive zero-reclaim runs before this one (model of kswapd_failures)
	restarted INTEGER              -- kswapd_run: the priority loop went back up inside the run (6.9+ cache-trim retry)
);

-- One row per (policy, decision, question) where the policy had a view.
CREATE TABLE IF NOT EXISTS replay_result (
	policy TEXT NOT NULL,          -- name, with parameters as given ('v6.18:swappiness=100')
	decision INTEGER NOT NULL REFERENCES decision(id),
	question TEXT NOT NULL,        -- 'scan_balance', 'deactivate_file', 'deactivate_anon', 'shrink_slab', 'kswapd_retry'
	kernel TEXT NOT NULL,          -- what the recording shows the kernel did
	policy_answer TEXT NOT NULL,   -- what the policy decides
	agrees INTEGER,                -- 1 the answers match, 0 they differ, NULL undecidable
	pages INTEGER,                 -- size of the difference: pages the policy would have scanned from the
	                               -- other type, or objects/pages at stake; NULL when not estimable
	firmness TEXT NOT NULL         -- weakest provenance of the inputs used: 'exact', 'sampled', 'inferred',
	                               -- 'unknown'; 'undecidable' when the recording cannot tell the kernel's choice
);
CREATE INDEX IF NOT EXISTS replay_result_policy ON replay_result (policy, question);
CREATE INDEX IF NOT EXISTS replay_result_decision ON replay_result (decision, question);
