-- SPDX-License-Identifier: GPL-2.0
-- 008-exact-inputs.sql: the exact decision inputs of a live recording, kept
-- in the kernel by a BPF program on the memcg rstat tracepoints
-- (record/exact-inputs.c, record/bpf/exact-inputs.bpf.c) and read by replay
-- (replay/exact-inputs.c). Every statement is IF NOT EXISTS: a database
-- written before these tables existed simply has no exact inputs.

-- One row per recording: where the decision inputs come from.
CREATE TABLE IF NOT EXISTS exact_input_run (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	source TEXT NOT NULL,          -- 'bpf' (exact inputs recorded) or 'sampled' (counters only)
	reason TEXT,                   -- 'sampled': why there are no exact inputs; 'bpf': what they leave out
	                               -- (NULL: nothing)
	memcg TEXT,                    -- the memcg directory tracked
	memcg_id INTEGER,              -- its cgroup id (the directory's inode; the tracepoints' memcg_id)
	scope TEXT,                    -- cgroup ids whose flush refreshes its view: it and its ancestors
	nodes INTEGER,                 -- NUMA nodes: the tracepoints carry no node, values are per memcg
	attached_ts INTEGER,           -- ns (mono): the program attached; deltas count from here
	records INTEGER,               -- rows written to exact_input
	dropped INTEGER,               -- records the ring buffer had no room for (lost)
	updates INTEGER,               -- item updates of the memcg counted
	untracked INTEGER,             -- updates of the memcg for items not tracked
	flushes INTEGER,               -- flushes in scope seen (effective or not)
	bpf_runs INTEGER,              -- runs of the programs (kernel.bpf_stats_enabled=1 while recording; else NULL)
	bpf_run_ns INTEGER             -- nanoseconds the kernel spent in them (same condition)
);

-- One row per tracked item: its kernel name and number (from BTF) and the
-- start value that makes the running deltas absolute.
CREATE TABLE IF NOT EXISTS exact_input_item (
	col TEXT PRIMARY KEY,          -- column of exact_input
	kernel_name TEXT NOT NULL,     -- enumerator, e.g. 'NR_INACTIVE_FILE'
	enum TEXT NOT NULL,            -- 'node_stat_item', 'memcg_stat_item', 'vm_event_item'
	item INTEGER NOT NULL,         -- its value in this kernel
	start_value INTEGER,           -- pages/events at attach time (memory.stat); NULL when not printed
	start_provenance TEXT NOT NULL -- 'exact': memory.stat read after a flush the program saw, so
	                               -- start + delta is the kernel's value; 'start-offset': the start
	                               -- value may miss updates not yet flushed at the read (the deltas
	                               -- are exact, the level is sampled); 'delta-only': no start value
	                               -- (differences are exact, the level is not)
);

-- One row per record of the program: the memcg's running values (start +
-- exact delta) at a decision point, a flush, or a reclaim begin/end; the
-- flushed view (start + the deltas flushed so far) at a flush_cpu record.
CREATE TABLE IF NOT EXISTS exact_input (
	id INTEGER PRIMARY KEY,
	ts INTEGER NOT NULL,           -- ns, mono clock (the trace's)
	kind TEXT NOT NULL,            -- 'isolate' (mm_vmscan_lru_isolate of a task in the memcg: before the
	                               -- batch leaves the list), 'flush' (memcg_flush_stats of the memcg or
	                               -- an ancestor), 'flush_cpu' (one CPU's turn in an effective flush:
	                               -- cgroup_rstat_locked; the values are the flushed view after it, cpu
	                               -- the CPU flushed), 'reclaim_begin', 'reclaim_end' (memcg reclaim)
	pid INTEGER,
	cpu INTEGER,
	memcg_id INTEGER,              -- flush: the memcg flushed; reclaim_*: the task's memcg; else the tracked one
	lru INTEGER,                   -- isolate: enum lru_list of the batch
	flush_force INTEGER,           -- flush: forced (periodic flusher)
	flush_needed INTEGER,          -- flush: enough updates pending; the kernel flushed iff force or this
	stats_updates INTEGER,         -- flush: updates pending
	inactive_anon INTEGER, active_anon INTEGER, inactive_file INTEGER, active_file INTEGER,
	unevictable INTEGER,           -- pages
	workingset_activate_anon INTEGER, workingset_activate_file INTEGER,
	workingset_refault_anon INTEGER, workingset_refault_file INTEGER,
	workingset_restore_anon INTEGER, workingset_restore_file INTEGER,
	pgscan_direct INTEGER, pgsteal_direct INTEGER, pgrefill INTEGER,  -- vm events of the memcg
	swap INTEGER                   -- MEMCG_SWAP, pages
);
CREATE INDEX IF NOT EXISTS exact_input_pid_ts ON exact_input (pid, ts);
