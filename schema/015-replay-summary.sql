-- SPDX-License-Identifier: GPL-2.0
-- 015-replay-summary.sql: the counts of a replay's answers (`vmscope replay`),
-- counted while the policies are evaluated, so that the report reads these
-- few rows instead of grouping every answer of replay_result again (and so
-- that replay_result may hold the differences only: replay_summary.results).
-- Written by replay with the tables of 007-replay.sql, dropped and made anew
-- by every replay; every statement is IF NOT EXISTS. A database replayed
-- before these tables existed has none: its replay_result holds every answer
-- and the report groups those rows as it always did.

-- One row: how the replay stored its answers.
CREATE TABLE IF NOT EXISTS replay_summary (
	results TEXT NOT NULL,         -- 'all': replay_result and replay_trivial hold every answer;
	                               -- 'differences': replay_result holds only the answers that differ
	                               -- from the kernel (agrees = 0), replay_trivial is empty
	policies INTEGER NOT NULL,     -- policies evaluated, the baseline included
	decisions INTEGER NOT NULL,    -- decision records evaluated
	answers INTEGER NOT NULL,      -- answers in all (rows replay_result has with results = 'all')
	first_decision_ts INTEGER,     -- ns: MIN(decision.ts), where the differences' times count from
	result_rows INTEGER NOT NULL,  -- rows written to replay_result (its MAX(rowid))
	last_policy TEXT               -- replay_result.policy of its last row; NULL without rows
	                               -- (both tell counts left by this replay from rows another vmscope wrote)
);

-- Per policy, question and reclaimer: the answers, as replay_result's rows of
-- that group would count them (the whole run).
CREATE TABLE IF NOT EXISTS replay_count (
	policy TEXT NOT NULL,          -- as in replay_result
	question TEXT NOT NULL,        -- as in replay_result
	reclaimer TEXT NOT NULL,       -- decision.reclaimer
	first_answer INTEGER NOT NULL, -- position of the group's first answer among all (0 first; the order
	                               -- of replay_result's rowids with results = 'all')
	first_decidable INTEGER,       -- position of its first decidable answer; NULL when none is
	asked INTEGER NOT NULL,        -- answers (rows)
	decidable INTEGER NOT NULL,    -- agrees IS NOT NULL
	agreed INTEGER NOT NULL,       -- agrees = 1
	undecidable INTEGER NOT NULL,  -- agrees IS NULL
	pages INTEGER,                 -- sum of pages over the differing answers (agrees = 0); NULL when none has pages
	firm INTEGER NOT NULL,         -- differing answers of firmness 'exact' or 'sampled'
	soft INTEGER NOT NULL,         -- differing answers of firmness 'inferred' or 'unknown'
	decisive INTEGER NOT NULL,     -- decisive = 1
	agreed_decisive INTEGER NOT NULL -- decisive = 1 AND agrees = 1
);

-- Per question and trivial predictor: its answers on the decisions where the
-- baseline's answer is decisive (replay_trivial's rows joined with those).
CREATE TABLE IF NOT EXISTS replay_trivial_count (
	question TEXT NOT NULL,
	predictor TEXT NOT NULL,       -- as in replay_trivial
	rank INTEGER NOT NULL,         -- the predictor's place in the question's list (0 first)
	decisions INTEGER NOT NULL,    -- decisive decisions it answered
	agreed INTEGER NOT NULL        -- of those, where it matches the kernel
);

-- Per policy (the baseline excepted), question and pair of answers: the
-- decisions where the policy's answer is not the baseline's.
-- Per kernel answer, on the baseline's decisive decisions: how often the
-- baseline and each trivial predictor agreed (the balanced agreement is the
-- mean over the kernel's answers of agreed / decisions: a predictor that
-- always gives the kernel's most frequent answer gets 100 / the number of
-- answers, whatever their frequencies).
CREATE TABLE IF NOT EXISTS replay_class_count (
	question TEXT NOT NULL,
	predictor TEXT NOT NULL,       -- the baseline policy's label, or a trivial predictor's name
	rank INTEGER NOT NULL,         -- -1 the baseline; else the trivial predictor's place (as in
	                               -- replay_trivial_count)
	kernel_answer TEXT NOT NULL,   -- replay_result.kernel of those decisions
	decisions INTEGER NOT NULL,    -- decisive decisions where the kernel answered so
	agreed INTEGER NOT NULL        -- of those, where the predictor matches the kernel
);

CREATE TABLE IF NOT EXISTS replay_vs_baseline (
	policy TEXT NOT NULL,
	question TEXT NOT NULL,
	baseline_answer TEXT NOT NULL, -- replay_result.policy_answer of the baseline
	policy_answer TEXT NOT NULL,   -- that of the policy
	first_answer INTEGER NOT NULL, -- position of the group's first answer of the policy (as in replay_count)
	decisions INTEGER NOT NULL,
	pages INTEGER                  -- sum of the policy's pages; NULL when none has pages
);
