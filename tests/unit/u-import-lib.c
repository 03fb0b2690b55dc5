// SPDX-License-Identifier: GPL-2.0
/*
 * u-import-lib.c - libvms.a used as a library, linked without the command
 * line (no main.o, no cmd-*.o): vms_import() of a text trace with a bad
 * line, checked row by row, and vms_sink_run_reader(), whose reader process
 * may fail or be killed by a fault: what it completed before is kept.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "vms.h"
#include "vms-import.h"
#include "tap.h"

static const char trace[] =
	"             cat-6656  [001]   798.128942: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_NOFS\n"
	"             cat-6656  [001]   798.129353: mm_vmscan_memcg_reclaim_end: nr_reclaimed=975\n"
	"%%% not a trace line %%%\n"
	"             cat-6657  [000]   798.129483: mm_vmscan_memcg_reclaim_end: nr_reclaimed=528\n";

struct bad_seen {
	int n;
	long long line;
	char reason[256];
};

static void on_bad(void *arg, unsigned long long n_bad, long long line, const char *reason)
{
	struct bad_seen *b = arg;

	b->n = (int)n_bad;
	b->line = line;
	snprintf(b->reason, sizeof(b->reason), "%s", reason);
}

/* The first column of the first row of @sql on database @path, as text ("" if none). */
static const char *query(const char *path, const char *sql)
{
	static char out[256];
	sqlite3_stmt *st;
	sqlite3 *db;

	out[0] = '\0';
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			snprintf(out, sizeof(out), "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return out;
}

#define is_q(path, sql, want, ...) do {					\
		const char *got_ = query(path, sql);			\
		is_str(got_, strlen(got_), want, __VA_ARGS__);		\
	} while (0)

static void test_import(const char *dir)
{
	struct vms_import_options opt = { 0 };
	struct vms_import_result res;
	struct bad_seen bad = { 0 };
	char file[512], db[512];
	FILE *f;
	int rc;

	snprintf(file, sizeof(file), "%s/trace.txt", dir);
	snprintf(db, sizeof(db), "%s/trace.db", dir);
	f = fopen(file, "w");
	fputs(trace, f);
	fclose(f);
	opt.output = db;
	opt.quiet = 1;
	opt.report_bad = on_bad;
	opt.arg = &bad;
	rc = vms_import(file, &opt, &res);
	is_int(rc, 1, "a text trace with a bad line imports, incomplete");
	is_int(res.events, 3, "its three event lines are stored");
	is_int(res.errors, 1, "its bad line is counted");
	ok(res.detail && strstr(res.detail, "first at line 3"), "the detail names the bad line");
	is_int(bad.n, 1, "report_bad is called once");
	is_int(bad.line, 3, "with the line number");
	is_q(db, "SELECT status FROM run", "incomplete", "run.status");
	is_q(db, "SELECT group_concat(nr_reclaimed) FROM (SELECT nr_reclaimed FROM "
	     "mm_vmscan_memcg_reclaim_end ORDER BY seq)", "975,528", "nr_reclaimed of both end events");
	is_q(db, "SELECT group_concat(pid) FROM (SELECT pid FROM mm_vmscan_memcg_reclaim_end "
	     "ORDER BY seq)", "6656,6657", "their pids");
	is_q(db, "SELECT ts FROM mm_vmscan_memcg_reclaim_begin", "798128942000", "ts in ns");
	is_q(db, "SELECT line || ' ' || text FROM import_error", "3 %%% not a trace line %%%",
	     "the bad line in import_error");
	is_q(db, "SELECT COUNT(*) FROM task", "2", "two tasks");
	vms_import_result_release(&res);

	rc = vms_import(file, &opt, &res);
	is_int(rc, -1, "an existing database is not replaced without force");
	ok(strstr(vms_last_error(), "already exists") != NULL, "and the error says so");
	is_q(db, "SELECT events FROM run", "3", "the database is as it was");
	vms_import_result_release(&res);
	unlink(db);

	snprintf(file, sizeof(file), "%s/empty.txt", dir);
	f = fopen(file, "w");
	fclose(f);
	rc = vms_import(file, &opt, &res);
	is_int(rc, -1, "an empty file imports nothing");
	ok(access(db, F_OK) != 0, "and leaves no database");
	ok(strstr(vms_last_error(), "is empty") != NULL, "the error says it is empty");
	vms_import_result_release(&res);
}

/* --- vms_sink_run_reader() --- */

struct reader_case {
	int rows;		/* rows the reader stores */
	int end;		/* then: 0 return, 1 fail, 2 fault */
	int messages;		/* messages seen by on_message */
	long long rows_before_message;	/* events stored when the message came */
	struct vms_sink *parent;
};

/*
 * The reader: c->rows events of a type the schema does not know (so that
 * they go to event_generic, which the derive step does not read: this stays
 * quick under the sanitizers), each with a payload and a JSON field.
 */
static int decode(struct vms_sink *sink, void *arg)
{
	struct reader_case *c = arg;
	struct vms_table *t = vms_sink_table(sink, "u_test_event");

	for (int i = 0; i < c->rows; i++) {
		vms_sink_begin(sink, t, "test", "u_test_event", 1000 + i, 0, 42);
		vms_sink_set_payload(sink, "payload", 7);
		vms_sink_extra_int(sink, "i", i);
		if (vms_sink_end(sink))
			return -1;
		vms_sink_task(sink, 42, "reader", 6, 1000 + i);
	}
	if (vms_sink_message(sink, 7, "hello", 6))
		return -1;
	if (c->end == 1)
		return vms_error("the reader failed on purpose");
	if (c->end == 2) {
		/* a half-built row, then a fault: the row must not appear */
		vms_sink_begin(sink, t, "test", "u_test_event", 1, 0, 42);
		vms_sink_extra_int(sink, "i", -1);
		raise(SIGSEGV);
	}
	return 0;
}

static int on_message(void *arg, int type, const void *data, size_t len)
{
	struct reader_case *c = arg;

	if (type == 7 && len == 6 && !memcmp(data, "hello", 6))
		c->messages++;
	c->rows_before_message = (long long)vms_sink_events(c->parent);
	return 0;
}

static void test_reader(const char *dir)
{
	static const char *const ends[] = { "returns", "fails", "faults" };
	char path[512], sql[256];

	for (int end = 0; end < 3; end++) {
		struct reader_case c = { .rows = 100000, .end = end };
		struct vms_sink *sink;
		struct vms_db *db;
		int rc, sig;

		snprintf(path, sizeof(path), "%s/reader-%d.db", dir, end);
		db = vms_db_create(path, 1, "test");
		sink = vms_sink_new(db);
		c.parent = sink;
		rc = vms_sink_run_reader(sink, decode, on_message, &c, &sig);
		is_int(rc, end == 1 ? -1 : 0, "a reader that %s: return value", ends[end]);
		is_int(sig, end == 2 ? SIGSEGV : 0, "a reader that %s: signal", ends[end]);
		if (end == 1)
			ok(strstr(vms_last_error(), "failed on purpose") != NULL,
			   "the reader's error message reaches the parent");
		is_int(c.messages, 1, "a reader that %s: its message arrives once", ends[end]);
		is_int(c.rows_before_message, c.rows, "a reader that %s: after the rows before it",
		       ends[end]);
		is_int(vms_sink_events(sink), c.rows, "a reader that %s: every row it completed is stored",
		       ends[end]);
		if (vms_sink_finish(sink) || vms_db_finish(db, end ? "test" : NULL))
			ok(0, "finish: %s", vms_last_error());
		vms_sink_free(sink);
		vms_db_close(db);
		snprintf(sql, sizeof(sql), "SELECT COUNT(*) || ' ' || MIN(json_extract(fields, '$.i'))"
			 " || ' ' || MAX(json_extract(fields, '$.i')) || ' ' || COUNT(DISTINCT seq)"
			 " || ' ' || MIN(payload) || ' ' || MIN(system) FROM event_generic"
			 " WHERE event = 'u_test_event'");
		is_q(path, sql, "100000 0 99999 100000 payload test",
		     "a reader that %s: rows, values and seq", ends[end]);
		is_q(path, "SELECT comm || ' ' || events FROM task", "reader 100000",
		     "a reader that %s: its task", ends[end]);
	}
}

/*
 * The writer thread binds 16 rows per INSERT and sets NULL only what the row
 * in the same place last bound and this one does not: rows that leave
 * columns out, in every pattern across the 16 places, must read back NULL
 * there and nothing else.
 */
static void test_sparse_rows(const char *dir)
{
	char path[512];
	struct vms_sink *sink;
	struct vms_table *t;
	struct vms_db *db;
	int bad = 0;

	snprintf(path, sizeof(path), "%s/sparse.db", dir);
	db = vms_db_create(path, 1, "test");
	sink = vms_sink_new(db);
	t = vms_sink_table(sink, "u_sparse_event");
	if (!sink || !t || vms_sink_set_async(sink, 1)) {
		ok(0, "sparse rows: a sink: %s", vms_last_error());
		return;
	}
	for (int i = 0; i < 1000; i++) {
		vms_sink_begin(sink, t, "test", "u_sparse_event", 1000 + i, 0, 42);
		if (i % 3)
			vms_sink_set_payload(sink, "payload", 7);
		if (i % 7 < 4)
			vms_sink_extra_int(sink, "i", i);
		bad |= vms_sink_end(sink);
	}
	ok(!bad && !vms_sink_set_async(sink, 0), "sparse rows: stored through the writer thread");
	if (vms_sink_finish(sink) || vms_db_finish(db, NULL))
		ok(0, "finish: %s", vms_last_error());
	vms_sink_free(sink);
	vms_db_close(db);
	is_q(path, "SELECT COUNT(*) FROM event_generic WHERE event = 'u_sparse_event' AND"
		   " ((seq - 1) % 3 = 0) != (payload IS NULL)", "0",
	     "sparse rows: payload NULL exactly where the row left it out");
	is_q(path, "SELECT COUNT(*) FROM event_generic WHERE event = 'u_sparse_event' AND"
		   " ((seq - 1) % 7 >= 4) != (fields IS NULL)", "0",
	     "sparse rows: fields NULL exactly where the row left them out");
	is_q(path, "SELECT COUNT(*) || ' ' || SUM(payload IS NULL) FROM event_generic", "1000 334",
	     "sparse rows: every row, a third without payload");
}

int main(void)
{
	char dir[] = "/tmp/u-import-lib-XXXXXX";
	char cmd[600];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_import(dir);
	test_reader(dir);
	test_sparse_rows(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
	return done_testing();
}
