-- SPDX-License-Identifier: GPL-2.0
-- 010-filemap.sql: typed tables for the page-cache events of the filemap
-- system, the demand that `vmscope whatif` simulates (which page of which
-- file entered or left the page cache). They are in event_table, so `vmscope
-- record` records them by default. The other filemap events (mm_filemap_fault,
-- mm_filemap_map_pages, mm_filemap_get_pages: frequent, read by no analyzer)
-- get tables made from their format when recorded. Same leading columns (seq, ts, cpu, pid) and
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

INSERT OR IGNORE INTO event_table VALUES
	('mm_filemap_add_to_page_cache', 'filemap', 'mm_filemap_add_to_page_cache'),
	('mm_filemap_delete_from_page_cache', 'filemap', 'mm_filemap_delete_from_page_cache');
