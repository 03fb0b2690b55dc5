-- SPDX-License-Identifier: GPL-2.0
-- 017-filemap-access.sql: typed tables for the filemap events that show a
-- workload using pages already in the page cache, which no insertion
-- shows: a read(2) (mm_filemap_get_pages: the range of one read, fired
-- again for each batch of it, with the same last_index), a page fault on a
-- file mapping (mm_filemap_fault: one page) and its fault-around
-- (mm_filemap_map_pages: the window it maps, of which only the cached
-- pages not yet mapped are). `vmscope whatif` reads them as the demand's
-- hits (replay/sim-access.c). Columns as 010-filemap.sql; "index" and
-- last_index are page indexes in the file, both included.

CREATE TABLE IF NOT EXISTS mm_filemap_get_pages (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	i_ino INTEGER, s_dev INTEGER, "index" INTEGER, last_index INTEGER,
	extra TEXT);

CREATE TABLE IF NOT EXISTS mm_filemap_map_pages (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	i_ino INTEGER, s_dev INTEGER, "index" INTEGER, last_index INTEGER,
	extra TEXT);

CREATE TABLE IF NOT EXISTS mm_filemap_fault (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	i_ino INTEGER, s_dev INTEGER, "index" INTEGER,
	extra TEXT);

INSERT OR IGNORE INTO event_table VALUES
	('mm_filemap_get_pages', 'filemap', 'mm_filemap_get_pages'),
	('mm_filemap_map_pages', 'filemap', 'mm_filemap_map_pages'),
	('mm_filemap_fault', 'filemap', 'mm_filemap_fault');
