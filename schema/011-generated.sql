-- SPDX-License-Identifier: GPL-2.0
-- 011-generated.sql: the catalog of the tables made on first sight of an
-- event this schema has no table for (lib/sink-generate.c). Each such table
-- has the common columns (seq, ts, cpu, pid), one column per field of the
-- event's format, named by the field (INTEGER for numbers, TEXT for strings
-- and, as hex, other arrays; a field named like a common column, or like an
-- earlier column, becomes field_NAME, with a field_alias row), and `extra`
-- for fields a record carries beyond its format. It is listed in
-- event_table too, so that every reader of the schema finds it.

CREATE TABLE IF NOT EXISTS generated_table (
	tbl TEXT PRIMARY KEY,        -- the table: the event's name, or SYSTEM_EVENT when that is taken
	system TEXT NOT NULL,        -- tracefs system of the event
	event TEXT NOT NULL,
	fields INTEGER NOT NULL,     -- columns made from the format (after seq, ts, cpu, pid)
	source TEXT NOT NULL         -- 'format': the .dat's event format, or the kernel's for a live recording
);
