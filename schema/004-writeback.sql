-- SPDX-License-Identifier: GPL-2.0
-- 004-writeback.sql: typed tables for the writeback events that matter to
-- reclaim (dirty pages, dirty throttling, flusher work, reclaim's waits) and
-- for kmem:mm_page_alloc_extfrag (the trigger of watermark boosting).
-- Same leading columns (seq, ts, cpu, pid) and trailing `extra` as 003-vmscan.sql.
-- Other writeback events go to event_generic.

CREATE TABLE writeback_dirty_folio (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	event TEXT NOT NULL,         -- 'writeback_dirty_folio' or (up to 5.x) 'writeback_dirty_page'
	name TEXT,                   -- bdi name, e.g. '8:0' (untrusted text)
	ino INTEGER,
	"index" INTEGER,             -- page index in the file
	extra TEXT);

CREATE TABLE folio_wait_writeback (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	event TEXT NOT NULL,         -- 'folio_wait_writeback' or (up to 5.x) 'wait_on_page_writeback'
	name TEXT,
	ino INTEGER,
	"index" INTEGER,
	extra TEXT);

CREATE TABLE balance_dirty_pages (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	bdi TEXT,
	"limit" INTEGER,             -- pages
	setpoint INTEGER,            -- pages
	dirty INTEGER,               -- pages
	wb_setpoint INTEGER,         -- pages; 'bdi_setpoint' up to 6.14
	wb_dirty INTEGER,            -- pages; 'bdi_dirty' up to 6.14
	dirty_ratelimit INTEGER,     -- KB/s
	task_ratelimit INTEGER,      -- KB/s
	dirtied INTEGER,             -- pages
	dirtied_pause INTEGER,       -- pages
	paused INTEGER,              -- ms
	pause INTEGER,               -- ms
	period INTEGER,              -- ms
	think INTEGER,               -- ms
	cgroup_ino INTEGER,
	extra TEXT);

CREATE TABLE global_dirty_state (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	nr_dirty INTEGER,            -- pages; printed 'dirty='
	nr_writeback INTEGER,        -- pages; printed 'writeback='
	nr_unstable INTEGER,         -- pages; up to 5.7, printed 'unstable='
	background_thresh INTEGER,   -- pages; printed 'bg_thresh='
	dirty_thresh INTEGER,        -- pages; printed 'thresh='
	dirty_limit INTEGER,         -- pages; printed 'limit='
	nr_dirtied INTEGER,          -- pages, cumulative; printed 'dirtied='
	nr_written INTEGER,          -- pages, cumulative; printed 'written='
	extra TEXT);

-- writeback_start/_written/_queue/_exec/_wait share one kernel template.
CREATE TABLE writeback_work (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	event TEXT NOT NULL,
	name TEXT,                   -- bdi name
	nr_pages INTEGER,            -- remaining budget of the work, pages (not pages written)
	sb_dev INTEGER,              -- kernel dev_t (major << 20 | minor); text 'M:m' is converted
	sync_mode INTEGER,
	for_kupdate INTEGER,         -- printed 'kupdate='
	range_cyclic INTEGER,
	for_background INTEGER,      -- printed 'background='
	reason TEXT,                 -- 'vmscan' marks work queued by reclaim
	cgroup_ino INTEGER,
	extra TEXT);

CREATE TABLE writeback_pages_written (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	pages INTEGER,
	extra TEXT);

CREATE TABLE wbc_writepage (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	name TEXT,
	nr_to_write INTEGER,         -- printed 'towrt='
	pages_skipped INTEGER,       -- printed 'skip='
	sync_mode INTEGER,           -- printed 'mode='
	for_kupdate INTEGER,         -- printed 'kupd='
	for_background INTEGER,      -- printed 'bgrd='
	for_reclaim INTEGER,         -- up to 6.14, printed 'reclm='
	range_cyclic INTEGER,        -- printed 'cyclic='
	range_start INTEGER,         -- bytes; printed 'start='
	range_end INTEGER,           -- bytes; printed 'end='
	cgroup_ino INTEGER,
	extra TEXT);

CREATE TABLE writeback_queue_io (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	name TEXT,
	older INTEGER,               -- jiffies cut-off
	age INTEGER,                 -- ms
	moved INTEGER,               -- inodes; printed 'enqueue='
	reason TEXT,
	cgroup_ino INTEGER,
	extra TEXT);

CREATE TABLE bdi_dirty_ratelimit (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	bdi TEXT,
	write_bw INTEGER,            -- KB/s
	avg_write_bw INTEGER,        -- KB/s; printed 'awrite_bw='
	dirty_rate INTEGER,          -- KB/s
	dirty_ratelimit INTEGER,     -- KB/s
	task_ratelimit INTEGER,      -- KB/s
	balanced_dirty_ratelimit INTEGER, -- KB/s
	cgroup_ino INTEGER,
	extra TEXT);

-- Reclaim's waits on congestion, up to 5.15 (replaced by mm_vmscan_throttled).
CREATE TABLE writeback_congest_wait (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	event TEXT NOT NULL,         -- 'writeback_congestion_wait' or 'writeback_wait_iff_congested'
	usec_timeout INTEGER,
	usec_delayed INTEGER,
	extra TEXT);

CREATE TABLE mm_page_alloc_extfrag (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	pfn INTEGER,
	alloc_order INTEGER,
	fallback_order INTEGER,
	alloc_migratetype INTEGER,
	fallback_migratetype INTEGER,
	change_ownership INTEGER,
	extra TEXT);                 -- text traces add the printed pageblock_order and fragmenting here

-- Any other event, so that nothing is dropped.
CREATE TABLE event_generic (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	system TEXT,                 -- NULL for text traces (the text does not say)
	event TEXT NOT NULL,
	fields TEXT,                 -- JSON object of the decoded fields (text: the key=value pairs found)
	payload TEXT);               -- the printed payload as the source gave it (text traces)

INSERT INTO event_table VALUES
	('writeback_dirty_folio', 'writeback', 'writeback_dirty_folio'),
	('writeback_dirty_page', 'writeback', 'writeback_dirty_folio'),
	('folio_wait_writeback', 'writeback', 'folio_wait_writeback'),
	('wait_on_page_writeback', 'writeback', 'folio_wait_writeback'),
	('balance_dirty_pages', 'writeback', 'balance_dirty_pages'),
	('global_dirty_state', 'writeback', 'global_dirty_state'),
	('writeback_start', 'writeback', 'writeback_work'),
	('writeback_written', 'writeback', 'writeback_work'),
	('writeback_queue', 'writeback', 'writeback_work'),
	('writeback_exec', 'writeback', 'writeback_work'),
	('writeback_wait', 'writeback', 'writeback_work'),
	('writeback_pages_written', 'writeback', 'writeback_pages_written'),
	('wbc_writepage', 'writeback', 'wbc_writepage'),
	('writeback_queue_io', 'writeback', 'writeback_queue_io'),
	('bdi_dirty_ratelimit', 'writeback', 'bdi_dirty_ratelimit'),
	('writeback_congestion_wait', 'writeback', 'writeback_congest_wait'),
	('writeback_wait_iff_congested', 'writeback', 'writeback_congest_wait'),
	('mm_page_alloc_extfrag', 'kmem', 'mm_page_alloc_extfrag');

INSERT INTO field_alias VALUES
	('balance_dirty_pages', 'bdi_setpoint', 'wb_setpoint', 'field name up to 6.14'),
	('balance_dirty_pages', 'bdi_dirty', 'wb_dirty', 'field name up to 6.14'),
	('global_dirty_state', 'dirty', 'nr_dirty', 'text label'),
	('global_dirty_state', 'writeback', 'nr_writeback', 'text label'),
	('global_dirty_state', 'unstable', 'nr_unstable', 'text label'),
	('global_dirty_state', 'bg_thresh', 'background_thresh', 'text label'),
	('global_dirty_state', 'thresh', 'dirty_thresh', 'text label'),
	('global_dirty_state', 'limit', 'dirty_limit', 'text label'),
	('global_dirty_state', 'dirtied', 'nr_dirtied', 'text label'),
	('global_dirty_state', 'written', 'nr_written', 'text label'),
	('writeback_work', 'kupdate', 'for_kupdate', 'text label'),
	('writeback_work', 'background', 'for_background', 'text label'),
	('wbc_writepage', 'towrt', 'nr_to_write', 'text label'),
	('wbc_writepage', 'skip', 'pages_skipped', 'text label'),
	('wbc_writepage', 'mode', 'sync_mode', 'text label'),
	('wbc_writepage', 'kupd', 'for_kupdate', 'text label'),
	('wbc_writepage', 'bgrd', 'for_background', 'text label'),
	('wbc_writepage', 'reclm', 'for_reclaim', 'text label'),
	('wbc_writepage', 'cyclic', 'range_cyclic', 'text label'),
	('wbc_writepage', 'start', 'range_start', 'text label'),
	('wbc_writepage', 'end', 'range_end', 'text label'),
	('writeback_queue_io', 'enqueue', 'moved', 'text label'),
	('bdi_dirty_ratelimit', 'awrite_bw', 'avg_write_bw', 'text label');

-- Writeback events print the bdi name as "bdi NAME: "; most store it in a field called `name`.
INSERT INTO field_alias VALUES
	('writeback_dirty_folio', 'bdi', 'name', 'text label'),
	('folio_wait_writeback', 'bdi', 'name', 'text label'),
	('writeback_work', 'bdi', 'name', 'text label'),
	('wbc_writepage', 'bdi', 'name', 'text label'),
	('writeback_queue_io', 'bdi', 'name', 'text label');
