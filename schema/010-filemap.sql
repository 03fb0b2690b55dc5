-- SPDX-License-Identifier: GPL-2.0
-- 010-filemap.sql: typed tables for the page-cache events of the filemap
-- system, the demand that `vmscope whatif` simulates (which page of which
-- file entered or left the page cache, which file pages were faulted or
-- mapped around a fault). Same leading columns (seq, ts, cpu, pid) and
-- trailing `extra` as 003-vmscan.sql. i_ino is the inode number, s_dev the
-- kernel's dev_t (major << 20 | minor), "index" a page index in the file,
-- pfn the page frame, "order" the folio order (6.x; NULL before).

CREATE TABLE IF NOT EXISTS mm_filemap_add_to_page_cache (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	pfn INTEGER, i_ino INTEGER, "index" INTEGER, s_dev INTEGER, "order" INTEGER,
	extra TEXT);

CREATE TABLE IF NOT EXISTS mm_filemap_delete_from_page_cache (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	pfn INTEGER, i_ino INTEGER, "index" INTEGER, s_dev INTEGER, "order" INTEGER,
	extra TEXT);

CREATE TABLE IF NOT EXISTS mm_filemap_fault (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	i_ino INTEGER, s_dev INTEGER, "index" INTEGER,
	extra TEXT);

CREATE TABLE IF NOT EXISTS mm_filemap_map_pages (
	seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,
	i_ino INTEGER, s_dev INTEGER,
	"index" INTEGER,             -- first page mapped around the fault
	last_index INTEGER,          -- last page (inclusive)
	extra TEXT);

INSERT OR IGNORE INTO event_table VALUES
	('mm_filemap_add_to_page_cache', 'filemap', 'mm_filemap_add_to_page_cache'),
	('mm_filemap_delete_from_page_cache', 'filemap', 'mm_filemap_delete_from_page_cache'),
	('mm_filemap_fault', 'filemap', 'mm_filemap_fault'),
	('mm_filemap_map_pages', 'filemap', 'mm_filemap_map_pages');

-- 4.x-5.x printed map_pages' range as start_index/end_index
INSERT OR IGNORE INTO field_alias VALUES
	('mm_filemap_map_pages', 'start_index', 'index', 'name up to 6.x'),
	('mm_filemap_map_pages', 'end_index', 'last_index', 'name up to 6.x');
