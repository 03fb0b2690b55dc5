-- SPDX-License-Identifier: GPL-2.0
-- 007-replay.sql: reclaim decisions rebuilt from a run, and what policies
-- would have decided (`vmscope replay`). Written by replay, not by import or
-- record; every statement is IF NOT EXISTS so that `vmscope upgrade` can add
-- these tables to a version 1 database written before they existed.

-- One row per decision point: a reclaim pass (one priority step of one
-- reclaimer in one episode) or, for kswapd, a whole balance_pgdat() run.
-- Read it as the view `decision` (below), which has the two JSON texts in
-- place of their ids: most records share their texts (at 10M events, 709,407
-- records had 2 provenances and 140 input ranges), and stored in every row
-- they were two thirds of its bytes and of the time to write it.
CREATE TABLE IF NOT EXISTS decision_row (
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
	provenance_id INTEGER,         -- decision_json.id of its provenance: JSON, input -> 'exact' | 'sampled' |
	                               -- 'inferred' | 'unknown'
	-- what the kernel did (exact, from events)
	scanned_inactive_anon INTEGER, scanned_active_anon INTEGER,
	scanned_inactive_file INTEGER, scanned_active_file INTEGER,
	reclaimed INTEGER,
	slab_calls INTEGER,            -- mm_shrink_slab_start events in the pass
	slab_freed INTEGER,            -- objects
	runs_since_success INTEGER,    -- kswapd_run: consecutive zero-reclaim runs before this one (model of kswapd_failures)
	restarted INTEGER,             -- kswapd_run: the priority loop went back up inside the run (any restart)
	-- the priority loop (exact, from the priority sequence of the episode or run)
	sweep INTEGER,                 -- pass: 0 first run down from priority 12, n after the n-th restart
	no_cache_trim_mode INTEGER,    -- pass: kswapd sweep after a failed first sweep (6.9+ cache-trim retry)
	force_deactivate INTEGER,      -- pass: do_try_to_free_pages() retry sweep with forced deactivation (5.5+)
	-- what the kernel did, per type (exact, from the batch events of the pass)
	reclaimed_anon INTEGER, reclaimed_file INTEGER,
	activated_anon INTEGER, activated_file INTEGER,   -- inactive batches: pages moved to the active list
	rotated_anon INTEGER, rotated_file INTEGER,       -- active batches: nr_referenced (kept active)
	pageout_anon INTEGER, pageout_file INTEGER,       -- mm_vmscan_write_folio events (nr_pageout)
	restored_anon INTEGER, restored_file INTEGER,     -- workingset_restore_* since the node's previous
	                                                  -- vmstat sample, on the first pass after it (sampled)
	swap_total INTEGER,            -- pages of swap configured (SwapTotal)
	boost_reclaim INTEGER,         -- kswapd's running nr_boost_reclaim: 0 when no boost was seen, else NULL (not recorded)
	input_range_id INTEGER,        -- decision_json.id of its input_range: JSON, input -> [lo, hi], the range
	                               -- the kernel's value may have had
	first_sweep_lowest INTEGER,    -- kswapd_run: lowest priority of the first sweep (1: it ran to the end)
	first_sweep_reclaimed INTEGER, -- kswapd_run: LRU pages reclaimed in the first sweep
	first_sweep_slab_freed INTEGER,-- kswapd_run: shrinker objects freed in the first sweep
	retried INTEGER,               -- kswapd_run: restarted after a first sweep that ran to priority 1 and reclaimed nothing
	ref_keep_anon INTEGER, ref_keep_file INTEGER      -- pass: nr_ref_keep of its inactive batches (pages kept on the
	                                                  -- inactive list by their references: mapped and used once, or
	                                                  -- rmap lock contention; exact)
);

-- One row per (policy, decision, question) where the policy had a view.
-- The JSON texts of decision_row, each once.
CREATE TABLE IF NOT EXISTS decision_json (
	id INTEGER PRIMARY KEY,
	json TEXT NOT NULL
);

-- The decision records with their texts, the columns in this order: what
-- the table `decision` that replays of earlier builds wrote held (a database
-- they replayed still has that table; it reads the same).
CREATE VIEW IF NOT EXISTS decision AS SELECT
	r.id, r.kind, r.reclaimer, r.pid, r.nid, r.episode_ts, r.ts, r.ts_end, r.priority,
	r."order", r.inactive_anon, r.active_anon, r.inactive_file, r.active_file, r.lru_scope,
	r.free_pages, r.high_wmark, r.boost, r.swappiness, r.swap_free, r.refault_file,
	r.refault_anon, r.sample_age_ms, p.json AS provenance, r.scanned_inactive_anon,
	r.scanned_active_anon, r.scanned_inactive_file, r.scanned_active_file, r.reclaimed,
	r.slab_calls, r.slab_freed, r.runs_since_success, r.restarted, r.sweep, r.no_cache_trim_mode,
	r.force_deactivate, r.reclaimed_anon, r.reclaimed_file, r.activated_anon, r.activated_file,
	r.rotated_anon, r.rotated_file, r.pageout_anon, r.pageout_file, r.restored_anon,
	r.restored_file, r.swap_total, r.boost_reclaim, g.json AS input_range, r.first_sweep_lowest,
	r.first_sweep_reclaimed, r.first_sweep_slab_freed, r.retried, r.ref_keep_anon, r.ref_keep_file
	FROM decision_row r LEFT JOIN decision_json p ON p.id = r.provenance_id
	LEFT JOIN decision_json g ON g.id = r.input_range_id;

CREATE TABLE IF NOT EXISTS replay_result (
	policy TEXT NOT NULL,          -- name, with parameters as given ('v6.18:swappiness=100')
	decision INTEGER NOT NULL REFERENCES decision_row(id),
	question TEXT NOT NULL,        -- 'scan_balance', 'deactivate_file', 'deactivate_anon', 'shrink_slab', 'kswapd_retry',
	                               -- 'mapped_once'
	kernel TEXT NOT NULL,          -- what the recording shows the kernel did
	policy_answer TEXT NOT NULL,   -- what the policy decides
	agrees INTEGER,                -- 1 the answers match, 0 they differ, NULL undecidable
	pages INTEGER,                 -- size of the difference: pages the policy would have scanned from the
	                               -- other type, or objects/pages at stake; NULL when not estimable
	firmness TEXT NOT NULL,        -- provenance of the weakest input whose range (decision.input_range) can
	                               -- change the answer: 'exact' (no input can), 'sampled', 'inferred',
	                               -- 'unknown'; 'undecidable' when the recording cannot tell the kernel's
	                               -- choice or lacks an input the policy needs
	decisive INTEGER               -- 1 when the question's deciding input varies here (not settled by swap,
	                               -- sizes or structure alone; see docs/replay.md), 0 otherwise
);
CREATE INDEX IF NOT EXISTS replay_result_policy ON replay_result (policy, question);
CREATE INDEX IF NOT EXISTS replay_result_decision ON replay_result (decision, question);

-- One row per trivial predictor of a question, for each decision where the
-- question was asked and is decisive (replay_result.decisive): whether the
-- predictor's answer matches what the kernel did. The predictors do not
-- depend on a policy; replay writes these rows once, with the baseline.
CREATE TABLE IF NOT EXISTS replay_trivial (
	decision INTEGER NOT NULL REFERENCES decision_row(id),
	question TEXT NOT NULL,        -- as in replay_result
	predictor TEXT NOT NULL,       -- 'file only', 'always aged', ... (docs/replay.md); rows in the predictors' order
	agrees INTEGER NOT NULL        -- 1 its answer matches the kernel's, 0 it differs
);
