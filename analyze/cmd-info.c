// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-info.c - `vmscope info`: what a database holds. Source, kernel, clock,
 * time span, events per type, lost events, unreadable lines, tasks and
 * counter sources (and, for counters imported from files, each file, its
 * span on the trace clock and how it was aligned): the first thing to look
 * at before trusting any number computed from a run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "cli.h"
#include "vms-exact-inputs.h"

static const struct cli_help info_help = {
	.synopsis = { "vmscope info DB" },
	.about = "Show what a vmscope database holds: source, kernel, trace clock, time span,\n"
		 "events per type, lost events, unreadable lines, tasks and counter sources.\n",
	.more = "Exit status: 0 shown; 1 DB cannot be read (not a vmscope database, another\n"
		"schema version, corrupt); 2 usage error. See docs/info.md.\n",
};

/*
 * Column @i of @st as text with its control characters as '?' (a comm or a
 * path from the trace may hold terminal escapes), or @dflt when NULL. The
 * copy lives until RECENT more calls, enough for one printf.
 */
static const char *col_text(sqlite3_stmt *st, int i, const char *dflt)
{
	enum { RECENT = 16 };
	static char *recent[RECENT];
	static int next;
	const char *s = (const char *)sqlite3_column_text(st, i);

	if (!s)
		return dflt;
	free(recent[next]);
	recent[next] = strdup(s);
	if (!recent[next])
		return "?";
	s = vms_make_printable(recent[next]);
	next = (next + 1) % RECENT;
	return s;
}

static int show_run(sqlite3 *sql)
{
	sqlite3_stmt *st;
	double span;

	if (sqlite3_prepare_v2(sql, "SELECT status, status_detail, source_kind, source_path,"
			       " source_compression, source_bytes, kernel_release, trace_clock,"
			       " ts_resolution_ns, cpus, page_size, start_ts, end_ts, events,"
			       " tool_version, created_at, command_line FROM run WHERE id = 1",
			       -1, &st, NULL) || sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return vms_error("cannot read the run row: %s", sqlite3_errmsg(sql));
	}
	printf("status:       %s%s%s\n", col_text(st, 0, "?"),
	       sqlite3_column_type(st, 1) == SQLITE_NULL ? "" : " - ", col_text(st, 1, ""));
	if (!strcmp(col_text(st, 2, "?"), "live"))
		printf("source:       live recording (vmscope record)\n");
	else
		printf("source:       %s (%s, compression %s, %lld bytes)\n", col_text(st, 3, "?"),
		       col_text(st, 2, "?"), col_text(st, 4, "none"), sqlite3_column_int64(st, 5));
	printf("kernel:       %s\n", col_text(st, 6, "unknown (the source does not say)"));
	printf("trace clock:  %s, timestamps to %lld ns\n", col_text(st, 7, "unknown"),
	       sqlite3_column_int64(st, 8));
	printf("cpus:         %s\n", col_text(st, 9, "unknown"));
	printf("page size:    %s\n", col_text(st, 10, "unknown"));
	if (sqlite3_column_type(st, 11) != SQLITE_NULL) {
		span = (sqlite3_column_int64(st, 12) - sqlite3_column_int64(st, 11)) / 1e9;
		printf("time span:    %.6f .. %.6f s (%.6f s)\n", sqlite3_column_int64(st, 11) / 1e9,
		       sqlite3_column_int64(st, 12) / 1e9, span);
	} else {
		printf("time span:    no events\n");
	}
	printf("events:       %lld\n", sqlite3_column_int64(st, 13));
	printf("written by:   vmscope %s at %s\n", col_text(st, 14, "?"), col_text(st, 15, "?"));
	printf("command:      %s\n", col_text(st, 16, "?"));
	sqlite3_finalize(st);
	return 0;
}

/* Events per type: each event_table entry, then the generic table's events. */
static int show_event_counts(sqlite3 *sql)
{
	struct vms_buf b = { 0 };
	sqlite3_stmt *st;
	int rc, first = 1;

	/* Build one UNION query over the typed tables the schema declares. */
	if (sqlite3_prepare_v2(sql, "SELECT DISTINCT tbl, (SELECT COUNT(*) FROM pragma_table_info(tbl)"
			       " WHERE name = 'event') FROM event_table ORDER BY tbl", -1, &st, NULL))
		return vms_error("cannot read event_table: %s", sqlite3_errmsg(sql));
	vms_buf_addf(&b, "SELECT event, COUNT(*) AS n, MIN(ts), MAX(ts) FROM (");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *tbl = (const char *)sqlite3_column_text(st, 0);
		int has_event = sqlite3_column_int(st, 1);

		/* tbl is read from the file: quoted as SQL quotes it */
		const char *sep = first ? "" : " UNION ALL ";
		char *one = has_event ?
			sqlite3_mprintf("%sSELECT event, ts FROM \"%w\"", sep, tbl) :
			sqlite3_mprintf("%sSELECT %Q AS event, ts FROM \"%w\"", sep, tbl, tbl);

		if (!one) {
			sqlite3_finalize(st);
			vms_buf_release(&b);
			return vms_error("out of memory");
		}
		vms_buf_add(&b, one, strlen(one));
		sqlite3_free(one);
		first = 0;
	}
	sqlite3_finalize(st);
	vms_buf_addf(&b, " UNION ALL SELECT event, ts FROM event_generic)"
		     " GROUP BY event ORDER BY n DESC, event");
	if (sqlite3_prepare_v2(sql, b.buf, -1, &st, NULL)) {
		vms_buf_release(&b);
		return vms_error("cannot count events: %s", sqlite3_errmsg(sql));
	}
	vms_buf_release(&b);
	printf("\nevents per type:\n");
	first = 1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		printf("  %12lld  %s\n", sqlite3_column_int64(st, 1), col_text(st, 0, "?"));
		first = 0;
	}
	if (first)
		printf("  (none)\n");
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vms_error("cannot count events: %s", sqlite3_errmsg(sql));
}

/* One section: @title, then a line per row of @query, or @none. Return: 0, or -1 (vms_error). */
static int show_simple(sqlite3 *sql, const char *title, const char *query, const char *none)
{
	sqlite3_stmt *st;
	int rows = 0, i, step;

	/* a table of the schema that is missing or unreadable means a damaged database */
	if (sqlite3_prepare_v2(sql, query, -1, &st, NULL))
		return vms_error("cannot show the %s: %s", title, sqlite3_errmsg(sql));
	printf("\n%s:\n", title);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		printf("  ");
		for (i = 0; i < sqlite3_column_count(st); i++)
			printf("%s%s", i ? "  " : "", col_text(st, i, "-"));
		printf("\n");
		rows++;
	}
	if (step != SQLITE_DONE) {
		vms_error("cannot show the %s: %s", title, sqlite3_errmsg(sql));
		sqlite3_finalize(st);
		return -1;
	}
	if (!rows)
		printf("  %s\n", none);
	sqlite3_finalize(st);
	return 0;
}

/*
 * The counter files of `import --counters` and `counters add` (table
 * counter_source, schema 009): nothing for a database older than that table.
 */
/* Does the database have table @name? Return: 1, 0, or -1 (vms_error set). */
static int has_table(sqlite3 *sql, const char *name)
{
	sqlite3_stmt *st;
	int has;

	if (sqlite3_prepare_v2(sql, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND"
			       " name = ?", -1, &st, NULL))
		return vms_error("cannot read the schema: %s", sqlite3_errmsg(sql));
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	has = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return has;
}

static int show_counter_files(sqlite3 *sql)
{
	int has = has_table(sql, "counter_source");

	if (has <= 0)
		return has;
	return show_simple(sql, "counter files (path, format, clock, samples, span on the trace"
			   " clock, aligned by: how)",
			   "SELECT quote(path), format, clock, samples,"
			   " CASE WHEN first_ts IS NULL THEN '-' ELSE printf('%.6f..%.6f', first_ts / 1e9,"
			   " last_ts / 1e9) END, aligned_by || ': ' || detail"
			   " FROM counter_source ORDER BY id",
			   "none (no counters were imported from files)");
}

/*
 * The file ranges the memcg's tasks mapped executable (table exec_mapping,
 * schema 016, written by record with a memcg): nothing for an older database.
 */
static int show_exec_mappings(sqlite3 *sql)
{
	int has = has_table(sql, "exec_mapping");

	if (has <= 0)
		return has;
	return show_simple(sql, "exec mappings of the memcg's tasks (pages, from page, file; the"
			   " largest 8 of all)",
			   "SELECT pages, pgoff, quote(COALESCE(path, '-')) ||"
			   " CASE WHEN rank = 1 THEN printf('  (%d ranges in all)', n) ELSE '' END"
			   " FROM (SELECT pages, pgoff, path, COUNT(*) OVER () AS n,"
			   " ROW_NUMBER() OVER (ORDER BY pages DESC, id) AS rank FROM exec_mapping)"
			   " WHERE rank <= 8 ORDER BY rank",
			   "none (record reads them with a memcg: -m, --cgroup, --memory-limit)");
}

int cmd_info(int argc, const char **argv)
{
	struct vms_buf inputs = { 0 };
	const char *path = NULL;
	struct vms_db *db;
	sqlite3 *sql;
	int rc;
	const struct cli_option opts[] = {
		OPT_ARG("DB", "database", &path),
		OPT_END(),
	};

	if (cli_parse_options(argc, argv, opts, &info_help, &rc))
		return rc;
	db = vms_db_open(path, VMS_OPEN_READONLY | VMS_OPEN_ANY_STATUS);
	if (!db)
		return error_last();
	sql = vms_db_sql(db);
	printf("database:     %s (schema %d)\n", path, VMS_SCHEMA_VERSION);
	if (show_run(sql) || show_event_counts(sql)) {
		rc = error_last();
		goto out;
	}
	if (!vms_exact_inputs_describe(sql, &inputs) && inputs.buf)
		printf("\ndecision inputs (replay):\n  %s\n", vms_make_printable(inputs.buf));
	vms_buf_release(&inputs);
	if (show_simple(sql, "lost events (cpu, count, source)",
			"SELECT COALESCE(cpu, 'all'), COALESCE(SUM(count), 'unknown'), source"
			" FROM lost_events GROUP BY cpu, source ORDER BY cpu", "none reported") ||
	    show_simple(sql, "unreadable lines or records (first 5 of the import_error table)",
			"SELECT 'line ' || COALESCE(line, '-') || ':', reason FROM import_error"
			" ORDER BY rowid LIMIT 5", "none") ||
	    show_simple(sql, "counter sources (source, scope, samples, first, last)",
			"SELECT source, CASE scope WHEN '' THEN 'machine' ELSE scope END, COUNT(*),"
			" printf('%.6f', MIN(ts) / 1e9), printf('%.6f', MAX(ts) / 1e9)"
			" FROM counter_sample GROUP BY source, scope ORDER BY source, scope",
			"none (this source has no counters; `vmscope record` samples them,"
			" `vmscope import --counters` reads them from files)") ||
	    show_counter_files(sql) ||
	    show_exec_mappings(sql) ||
	    show_simple(sql, "sysctls", "SELECT name || ' = ' || value FROM sysctl ORDER BY name",
			"not recorded") ||
	    show_simple(sql, "tasks with most events (pid, comm, events)",
			"SELECT pid, quote(comm), events FROM task ORDER BY events DESC LIMIT 8",
			"none")) {
		fflush(stdout);
		rc = error_last();
	}
out:
	vms_db_close(db);
	return rc;
}
