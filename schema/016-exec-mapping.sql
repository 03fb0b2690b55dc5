-- SPDX-License-Identifier: GPL-2.0
-- 016-exec-mapping.sql: the file ranges the recorded memcg's tasks
-- mapped executable (the lines of /proc/PID/maps with 'x' in their
-- permissions and an inode), which `vmscope record` reads with a memcg, a
-- few tasks each sampling interval. Reclaim treats such pages apart
-- (folio_check_references() activates a referenced page of a VM_EXEC file
-- mapping at its first scan, shrink_active_list() keeps it active while
-- referenced), and no trace event says which pages they are; `vmscope
-- whatif --assume exec=protected` uses them so. One row per file range the
-- first time a task is seen with it: ts is CLOCK_MONOTONIC ns (the `mono`
-- trace clock), pid that task, s_dev the kernel's dev_t (major << 20 |
-- minor) as the filemap events print it, pgoff the first page of the file
-- mapped, pages the length of the mapping in pages, path the file's path as
-- maps printed it (untrusted text: any bytes but a newline).

CREATE TABLE IF NOT EXISTS exec_mapping (
	id INTEGER PRIMARY KEY,
	ts INTEGER NOT NULL,
	pid INTEGER NOT NULL,
	s_dev INTEGER NOT NULL,
	i_ino INTEGER NOT NULL,
	pgoff INTEGER NOT NULL,
	pages INTEGER NOT NULL,
	path TEXT);
