-- SPDX-License-Identifier: GPL-2.0
-- 001-run.sql: provenance of one recording (a vmscope database holds one run).
-- Everything an analyzer needs to know about where the events came from:
-- source file, kernel, trace clock, CPUs, sysctls, event formats, lost events,
-- tasks, and the lines an importer could not parse.

CREATE TABLE run (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	status TEXT NOT NULL CHECK (status IN ('importing', 'recording', 'complete', 'incomplete')),
	status_detail TEXT,          -- why a run is incomplete (file and place of the error)
	source_kind TEXT NOT NULL,   -- 'trace-cmd-dat', 'tracefs-text', 'trace-cmd-report', 'live'
	source_path TEXT,            -- input file as given on the command line
	source_compression TEXT,     -- 'none', 'gzip', 'zstd', 'xz'
	source_bytes INTEGER,        -- size of the (decompressed) input, bytes
	kernel_release TEXT,         -- uname -r of the traced kernel, NULL when unknown
	uname TEXT,                  -- full uname string when the source has it
	trace_clock TEXT,            -- 'mono', 'local', ... NULL when unknown (text traces)
	ts_resolution_ns INTEGER,    -- 1 for binary sources, 1000 for text with microseconds
	page_size INTEGER,           -- bytes
	cpus INTEGER,
	start_ts INTEGER,            -- first event, ns on the trace clock
	end_ts INTEGER,              -- last event, ns on the trace clock
	events INTEGER,              -- events stored, all tables together
	tool_version TEXT,           -- vmscope version that wrote the database
	command_line TEXT,
	created_at TEXT,             -- UTC, ISO 8601
	finished_at TEXT             -- UTC, ISO 8601; NULL while importing or recording
);

-- Reclaim-shaping sysctls (vm.swappiness, ...) when the source records them.
CREATE TABLE sysctl (
	name TEXT PRIMARY KEY,       -- e.g. 'vm.swappiness'
	value TEXT NOT NULL
);

-- Event formats found in the source, for provenance. For .dat files the text
-- is rebuilt from the parsed format (fields with offset/size/sign, print fmt).
CREATE TABLE event_format (
	system TEXT NOT NULL,
	name TEXT NOT NULL,
	kernel_id INTEGER,           -- event id on the traced kernel (per boot)
	format TEXT NOT NULL,
	PRIMARY KEY (system, name)
);

-- Events the kernel or the tracer reported as lost.
CREATE TABLE lost_events (
	cpu INTEGER,                 -- NULL when the source does not say
	ts INTEGER,                  -- ns; where in the stream the loss was noticed, NULL if unknown
	count INTEGER,               -- events lost; NULL when the count is unknown
	source TEXT NOT NULL         -- 'ring-buffer' (gap in a CPU buffer), 'cpustats' (overrun at end),
	                             -- 'text' (a LOST/DROPPED line in a text trace)
);

-- Per-CPU ring buffer statistics as saved by trace-cmd (overrun, dropped events, ...).
CREATE TABLE cpu_stats (
	cpu INTEGER NOT NULL,
	name TEXT NOT NULL,          -- 'overrun', 'commit overrun', 'dropped events', 'entries', ...
	value REAL NOT NULL,
	PRIMARY KEY (cpu, name)
);

-- Tasks seen in the trace. A pid can have several names (exec, or comm changes).
CREATE TABLE task (
	pid INTEGER NOT NULL,
	comm TEXT NOT NULL,          -- untrusted text from the trace
	first_ts INTEGER,            -- ns
	last_ts INTEGER,             -- ns
	events INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (pid, comm)
);

-- Lines or records an importer could not decode. Nothing is skipped silently.
CREATE TABLE import_error (
	line INTEGER,                -- 1-based line number (text), NULL for binary sources
	byte_offset INTEGER,         -- offset in the (decompressed) input
	reason TEXT NOT NULL,
	text TEXT                    -- the offending line, at most 512 bytes
);
