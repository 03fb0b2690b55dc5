-- SPDX-License-Identifier: GPL-2.0
-- 930-whatif.sql: results of `vmscope whatif`, a forward simulation of
-- reclaim under other knobs or another policy. Written by whatif, not by
-- import or record; every statement is IF NOT EXISTS so that whatif can add
-- these tables to a database written before they existed (same schema
-- version). A run of whatif replaces the rows of its own scenario.

-- One row per (scenario, metric): the recorded value, the simulation with
-- the recording's own knobs and policy (baseline) and with the changes.
CREATE TABLE IF NOT EXISTS outcome (
	scenario TEXT NOT NULL,        -- the changes as given: '--set memcg.swappiness=0 --policy v6.18'
	metric TEXT NOT NULL,          -- 'refault_file', 'refault_anon', 'reclaimed_file', 'reclaimed_anon',
	                               -- 'swapout', 'reclaim_episodes', 'reclaim_seconds'
	recorded REAL,                 -- from the recording (NULL when it does not say)
	baseline REAL,                 -- simulated with the recording's knobs and the baseline policy
	whatif REAL,                   -- simulated with the changes
	change_pct REAL,               -- 100 * (whatif - recorded) / recorded; NULL when recorded is 0 or NULL
	firmness TEXT NOT NULL         -- how firm the recorded value is: 'exact' (events), 'sampled' (counters),
	                               -- 'machine-wide' (a counter of the whole machine)
);

-- One row per (scenario, counter sample of the simulated lruvec): recorded
-- and simulated cumulative counts, and the simulated LRU sizes (pages).
CREATE TABLE IF NOT EXISTS whatif_series (
	scenario TEXT NOT NULL,
	ts INTEGER NOT NULL,           -- ns on the trace clock: the counter sample
	recorded_refault_file INTEGER, baseline_refault_file INTEGER, whatif_refault_file INTEGER,
	recorded_reclaimed INTEGER, baseline_reclaimed INTEGER, whatif_reclaimed INTEGER, -- file + anon
	recorded_file INTEGER, whatif_file INTEGER,  -- file pages on the LRU lists (inactive + active)
	recorded_anon INTEGER, whatif_anon INTEGER   -- anon pages on the LRU lists
);

-- What the simulation took as given: knob values and where they come
-- from, the demand model and the model's simplifications.
CREATE TABLE IF NOT EXISTS whatif_assumption (
	scenario TEXT NOT NULL,
	item TEXT NOT NULL,            -- 'memcg.swappiness', 'demand', 'model: clean pages', ...
	value TEXT,                    -- the value used ('60', 'counters', ...)
	source TEXT NOT NULL,          -- 'recorded sysctl', '--assume', '--set', 'model', ...
	firmness TEXT NOT NULL         -- 'exact', 'sampled', 'inferred', 'assumed'
);
CREATE INDEX IF NOT EXISTS outcome_scenario ON outcome (scenario, metric);

-- With --rerun: one row per (scenario, metric) comparing the prediction
-- with a real rerun of the workload under the changes (another recording).
-- The errors are 100 * (predictor - rerun) / rerun, NULL when the rerun
-- recorded 0. direction: whether whatif - baseline and rerun - recorded
-- have the same sign, a change within 5% (or 64 pages) counting as none;
-- NULL without a change (a repeat shows the spread of the workload) and
-- for the metrics that are not page counts (episodes, seconds, failures).
CREATE TABLE IF NOT EXISTS whatif_rerun (
	scenario TEXT NOT NULL,
	metric TEXT NOT NULL,
	rerun_path TEXT NOT NULL,      -- the rerun's database, as given
	rerun REAL,                    -- what the rerun recorded
	whatif_error_pct REAL,         -- of whatif
	scaled REAL,                   -- recorded x whatif / baseline (whatif where the baseline is 0)
	scaled_error_pct REAL,         -- of scaled
	trivial_error_pct REAL,        -- of recorded: the trivial predictor (nothing changes)
	direction TEXT                 -- 'right', 'wrong', or NULL
);
