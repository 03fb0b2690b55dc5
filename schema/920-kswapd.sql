-- SPDX-License-Identifier: GPL-2.0
-- 920-kswapd.sql: what kswapd is and what each of its runs did, defined once
-- for every reader (report kswapd-failures and episodes, plot kswapd and
-- scan, compare). Part of schema version 2. kswapd_run is filled by the
-- derive step (lib/derive-kswapd.c) when a run is finished.

-- The kswapd threads: the pids of the kswapd_wake and kswapd_sleep events
-- (those tracepoints fire in kswapd itself), and tasks named as the kernel
-- names them, kswapdN (kswapdN:M for the per-node threads of 4.x), for a
-- kswapd that neither woke nor slept in the trace. Not comm LIKE 'kswapd%':
-- a program may be called kswapd-something.
CREATE VIEW IF NOT EXISTS kswapd_pid AS
SELECT pid FROM mm_vmscan_kswapd_wake
UNION SELECT pid FROM mm_vmscan_kswapd_sleep
UNION SELECT pid FROM task
	WHERE comm GLOB 'kswapd[0-9]*' AND substr(comm, 7) NOT GLOB '*[^0-9:]*';

-- One row per kswapd run: a kswapd_wake of a node, to the node's next
-- kswapd_wake or kswapd_sleep (the run's end; NULL: the trace ends in it).
-- Its LRU work is the mm_vmscan_lru_shrink_inactive events of the waking pid
-- strictly between the two, in (ts, seq) order. A run that reclaimed no page
-- is a failure (the kernel's balance_pgdat() adds 1 to kswapd_failures when
-- sc.nr_reclaimed is 0), also when it has no LRU event: shrink_inactive_list()
-- returns before its tracepoint when it isolated nothing. streak numbers the
-- consecutive failures of the node; a run that reclaimed sets it to 0, and a
-- page reclaimed on the node by another task (which resets kswapd_failures)
-- between the end of the previous run and the end of this one makes this run
-- count from 1. At streak 16 (MAX_RECLAIM_RETRIES) the node is hopeless.
-- Rules and caveats: docs/report-kswapd-failures.md, section 3.2.
CREATE TABLE IF NOT EXISTS kswapd_run (
	nid INTEGER NOT NULL,
	run INTEGER NOT NULL,		-- 1, 2, ... per node in time order
	pid INTEGER NOT NULL,		-- the kswapd that woke
	wake_seq INTEGER NOT NULL,
	wake_ts INTEGER NOT NULL,	-- ns, trace clock
	end_seq INTEGER,		-- the next kswapd_wake or kswapd_sleep of the node
	end_ts INTEGER,			-- NULL: the trace ends during the run
	end_sleep INTEGER,		-- 1: ended by kswapd_sleep, 0: by the next wake
	lru_events INTEGER NOT NULL,	-- its mm_vmscan_lru_shrink_inactive events
	nr_scanned INTEGER NOT NULL,	-- pages, summed over them
	nr_reclaimed INTEGER NOT NULL,
	min_priority INTEGER,		-- lowest priority reached; NULL without events
	reset_seq INTEGER,		-- first lru_shrink_inactive of another task on the
					-- node that reclaimed, since the previous run ended
	failed INTEGER NOT NULL,	-- 1: reclaimed no page
	streak INTEGER NOT NULL,	-- its place among consecutive failures; 0: reclaimed
	PRIMARY KEY (nid, run)) WITHOUT ROWID;
