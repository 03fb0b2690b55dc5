-- SPDX-License-Identifier: GPL-2.0
-- 005-counters.sql: counter samples that give the events their context:
-- /proc/vmstat, /proc/meminfo, /proc/zoneinfo (watermarks, node_unreclaimable),
-- per-node vmstat and a memcg's memory.stat. One sample is one read of one
-- file, stamped on the trace clock before and after the read.

CREATE TABLE counter_sample (
	id INTEGER PRIMARY KEY,
	ts INTEGER NOT NULL,         -- ns on the run's trace clock, before the read
	ts_end INTEGER,              -- ns, after the read (NULL when unknown)
	source TEXT NOT NULL,        -- 'vmstat', 'meminfo', 'zoneinfo', 'node_vmstat', 'memcg'
	scope TEXT NOT NULL DEFAULT '' -- '' whole machine; 'node0'; 'node0/Normal' (zoneinfo); memcg path
);

CREATE TABLE counter_value (
	sample INTEGER NOT NULL REFERENCES counter_sample(id),
	name TEXT NOT NULL,          -- counter name as the file spells it ('pgscan_kswapd', 'MemFree', 'min')
	value INTEGER NOT NULL,      -- vmstat: pages or events; meminfo: kB; zoneinfo: pages; memory.stat: bytes or events
	PRIMARY KEY (sample, name)
) WITHOUT ROWID;

-- One row per counter reading, for plain queries.
CREATE VIEW counter AS
	SELECT s.ts AS ts, s.ts_end AS ts_end, s.source AS source, s.scope AS scope,
	       v.name AS name, v.value AS value
	FROM counter_sample s JOIN counter_value v ON v.sample = s.id;
