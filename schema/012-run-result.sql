-- SPDX-License-Identifier: GPL-2.0
-- 012-run-result.sql: what the recorded workload itself measured, and its
-- times, when whoever ran it stored them (samples/run-scenario does, after the
-- recording). vmscope record leaves the table empty; compare reads it.

CREATE TABLE IF NOT EXISTS run_result (
	name TEXT PRIMARY KEY,       -- 'elapsed', 'user', 'system', or the workload's own result
	value REAL NOT NULL,         -- in unit
	unit TEXT NOT NULL,          -- 's', 'files/s', ...
	lower_is_better INTEGER NOT NULL DEFAULT 1 CHECK (lower_is_better IN (0, 1))
);
