// SPDX-License-Identifier: GPL-2.0
/*
 * counters-store.c - counters that came with a trace, into its database:
 * every file read (cset_load()) and aligned (counters_align()) before
 * anything is written, then the samples, a counter_source row per file and
 * the sysctls stored in the caller's transaction. counters_store() serves
 * `vmscope import --counters` (inside the import's transaction);
 * vms_counters_add() serves `vmscope counters add` on a copy of the
 * database that replaces it only when everything went in.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "vms.h"
#include "vms-import.h"
#include "import.h"
#include "counters-set.h"
#include "counters-align.h"

int vms_counters_clock_known(const char *name)
{
	return cset_clock_parse(name) >= 0;
}

static int sql_fail(struct vms_db *db, const char *what)
{
	return vms_error("%s: %s: %s", vms_db_path(db), what, sqlite3_errmsg(vms_db_sql(db)));
}

/* The samples and values of @f, on the trace clock. Return: 0 or -1. */
static int store_samples(struct vms_db *db, struct cset_file *f, long long *first_id,
			 long long *last_id)
{
	sqlite3 *sql = vms_db_sql(db);
	sqlite3_stmt *ins_s = NULL, *ins_v = NULL;
	long long *ids = malloc(sizeof(*ids) * (f->nsamples ? f->nsamples : 1));
	int i, rc = -1;

	if (!ids)
		return vms_error("out of memory");
	if (sqlite3_prepare_v2(sql, "INSERT INTO counter_sample (ts, ts_end, source, scope)"
			       " VALUES (?, NULL, ?, ?)", -1, &ins_s, NULL) ||
	    sqlite3_prepare_v2(sql, "INSERT OR REPLACE INTO counter_value VALUES (?, ?, ?)", -1,
			       &ins_v, NULL)) {
		sql_fail(db, "cannot prepare the counter inserts");
		goto out;
	}
	for (i = 0; i < f->nsamples; i++) {
		const struct cset_sample *s = &f->samples[i];

		sqlite3_reset(ins_s);
		sqlite3_bind_int64(ins_s, 1, s->ts + f->offset_ns);
		sqlite3_bind_text(ins_s, 2, s->source, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins_s, 3, s->scope, -1, SQLITE_STATIC);
		if (sqlite3_step(ins_s) != SQLITE_DONE) {
			sql_fail(db, "cannot store a counter sample");
			goto out;
		}
		ids[i] = sqlite3_last_insert_rowid(sql);
	}
	for (i = 0; i < f->nvalues; i++) {
		const struct cset_value *v = &f->values[i];

		sqlite3_reset(ins_v);
		sqlite3_bind_int64(ins_v, 1, ids[v->sample]);
		sqlite3_bind_text(ins_v, 2, v->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(ins_v, 3, v->value);
		if (sqlite3_step(ins_v) != SQLITE_DONE) {
			sql_fail(db, "cannot store a counter value");
			goto out;
		}
	}
	*first_id = f->nsamples ? ids[0] : -1;
	*last_id = f->nsamples ? ids[f->nsamples - 1] : -1;
	rc = 0;
out:
	sqlite3_finalize(ins_s);
	sqlite3_finalize(ins_v);
	free(ids);
	return rc;
}

static int store_source(struct vms_db *db, const struct cset_file *f, long long first_id,
			long long last_id)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(vms_db_sql(db), "INSERT INTO counter_source (path, format, clock,"
			       " samples, first_sample, last_sample, first_ts, last_ts, offset_ns,"
			       " aligned_by, residual, detail, added_at)"
			       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL))
		return sql_fail(db, "cannot store the counter source");
	sqlite3_bind_text(st, 1, f->path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, f->format, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, cset_clock_name(f->clock), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, f->nsamples);
	if (f->nsamples) {
		sqlite3_bind_int64(st, 5, first_id);
		sqlite3_bind_int64(st, 6, last_id);
		sqlite3_bind_int64(st, 7, f->samples[0].ts + f->offset_ns);
		sqlite3_bind_int64(st, 8, f->samples[f->nsamples - 1].ts + f->offset_ns);
	}
	sqlite3_bind_int64(st, 9, f->offset_ns);
	sqlite3_bind_text(st, 10, f->aligned_by, -1, SQLITE_STATIC);
	if (f->residual >= 0)
		sqlite3_bind_double(st, 11, f->residual);
	sqlite3_bind_text(st, 12, f->detail, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 13, vms_utc_now(), -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(db, "cannot store the counter source");
}

static int store_sysctl(struct vms_db *db, const char *name, size_t nlen, const char *value)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(vms_db_sql(db), "INSERT OR REPLACE INTO sysctl VALUES (?, ?)", -1,
			       &st, NULL))
		return sql_fail(db, "cannot store a sysctl");
	sqlite3_bind_text(st, 1, name, (int)nlen, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(db, "cannot store a sysctl");
}

/* The counters must meet the trace somewhere, else they are of another run. */
static int check_overlap(struct vms_db *db, const struct cset_file *files, int n)
{
	long long t0 = 0, t1 = 0, lo = 0, hi = 0;
	sqlite3_stmt *st;
	int i, any = 0;

	if (sqlite3_prepare_v2(vms_db_sql(db), "SELECT start_ts, end_ts FROM run WHERE start_ts"
			       " IS NOT NULL", -1, &st, NULL))
		return sql_fail(db, "cannot read the run");
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return 0;	/* no events: nothing to meet */
	}
	t0 = sqlite3_column_int64(st, 0);
	t1 = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	for (i = 0; i < n; i++) {
		const struct cset_file *f = &files[i];
		long long a, b;

		if (!f->nsamples)
			continue;
		a = f->samples[0].ts + f->offset_ns;
		b = f->samples[f->nsamples - 1].ts + f->offset_ns;
		if (!any++ || a < lo)
			lo = a;
		if (any == 1 || b > hi)
			hi = b;
	}
	if (any && (hi < t0 || lo > t1))
		return vms_error("the counters (%.3f .. %.3f s on the trace clock, after alignment)"
				 " do not overlap the trace (%.3f .. %.3f s): are they from another"
				 " machine or boot? Check --counters-clock and --counters-offset",
				 lo / 1e9, hi / 1e9, t0 / 1e9, t1 / 1e9);
	return 0;
}

/* Counters already there (a recording, an earlier add) get mixed with the new ones. */
static void warn_if_sampled(struct vms_db *db)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(vms_db_sql(db), "SELECT COUNT(*) FROM counter_sample WHERE"
			       " source = 'vmstat'", -1, &st, NULL))
		return;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0)
		vms_warning("the database has %lld vmstat samples already: the analyses will take"
			    " them together with these", sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
}

static void note_file(const struct vms_counters_options *opt, const struct cset_file *f)
{
	char *line = NULL;

	if (!opt->note)
		return;
	if (f->nsamples &&
	    asprintf(&line, "%s: %s, %d sample%s, clock %s; %s; %.3f .. %.3f s on the trace clock",
		     f->path, f->format, f->nsamples, f->nsamples == 1 ? "" : "s",
		     cset_clock_name(f->clock), f->detail,
		     (f->samples[0].ts + f->offset_ns) / 1e9,
		     (f->samples[f->nsamples - 1].ts + f->offset_ns) / 1e9) < 0)
		line = NULL;
	else if (!f->nsamples && asprintf(&line, "%s: %s, %d vm.* sysctls (%d others left out)",
					  f->path, f->format, f->nsysctls, f->sysctls_skipped) < 0)
		line = NULL;
	if (line)
		opt->note(opt->arg, line);
	free(line);
}

int counters_store(struct vms_db *db, const struct vms_counters_options *opt)
{
	/* whole seconds apart: 1.7e18 ns is beyond a double's 53 bits */
	double whole = trunc(opt->offset_s);
	struct counters_align_options aopt = {
		.has_offset = opt->has_offset,
		.offset_ns = (long long)whole * 1000000000LL + llround((opt->offset_s - whole) * 1e9),
	};
	struct cset_file *files = calloc(opt->nfiles ? opt->nfiles : 1, sizeof(*files));
	int clock = CLOCK_UNSAID, i, j, rc = -1;

	if (!files)
		return vms_error("out of memory");
	for (i = 0; i < opt->nfiles; i++)
		cset_file_init(&files[i], opt->files[i]);
	if (opt->clock && (clock = cset_clock_parse(opt->clock)) < 0) {
		vms_error("unknown counters clock '%s' (known: realtime, mono, boot, trace)",
			  opt->clock);
		goto out;
	}
	for (i = 0; i < opt->nsysctls; i++)
		if (!strchr(opt->sysctls[i], '=') || *opt->sysctls[i] == '=') {
			vms_error("--sysctl '%s' is not NAME=VALUE", opt->sysctls[i]);
			goto out;
		}
	for (i = 0; i < opt->nfiles; i++)
		if (cset_load(&files[i], opt->files[i], clock))
			goto out;
	warn_if_sampled(db);
		if (counters_align(db, files, opt->nfiles, &aopt) ||
	    check_overlap(db, files, opt->nfiles) ||
	    vms_db_apply_schema_file(db, "009-counter-sources.sql"))
		goto out;
	for (i = 0; i < opt->nfiles; i++) {
		long long first = -1, last = -1;

		if (store_samples(db, &files[i], &first, &last) ||
		    store_source(db, &files[i], first, last))
			goto out;
		for (j = 0; j < files[i].nsysctls; j++)
			if (store_sysctl(db, files[i].sysctls[j].name, strlen(files[i].sysctls[j].name),
					 files[i].sysctls[j].value))
				goto out;
		note_file(opt, &files[i]);
	}
	for (i = 0; i < opt->nsysctls; i++) {
		const char *eq = strchr(opt->sysctls[i], '=');

		if (store_sysctl(db, opt->sysctls[i], eq - opt->sysctls[i], eq + 1))
			goto out;
	}
	rc = 0;
out:
	for (i = 0; i < opt->nfiles; i++)
		cset_file_release(&files[i]);
	free(files);
	return rc;
}

/* Refuse a run that is not finished: a recording still going, an import cut off. */
static int check_finished(struct vms_db *db)
{
	sqlite3_stmt *st;
	char status[32] = "";

	if (sqlite3_prepare_v2(vms_db_sql(db), "SELECT status FROM run", -1, &st, NULL))
		return sql_fail(db, "cannot read the run");
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(status, sizeof(status), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (strcmp(status, "complete") && strcmp(status, "incomplete"))
		return vms_error("'%s' holds a run that is not finished (status '%s'): finish it"
				 " first (vmscope record --recover)", vms_db_path(db), status);
	return 0;
}

int vms_counters_add(const char *path, const struct vms_counters_options *opt)
{
	struct vms_db *db;
	char *partial = NULL, *q;
	int rc = -1;

	if (asprintf(&partial, "%s.partial-%d", path, (int)getpid()) < 0)
		return vms_error("out of memory");
	vms_remove_stale_partials(path);
	db = vms_db_open(path, VMS_OPEN_READONLY | VMS_OPEN_ANY_STATUS);
	if (!db)
		goto out;
	q = sqlite3_mprintf("VACUUM INTO %Q", partial);
	rc = check_finished(db) || !q || vms_db_exec(db, q) ? -1 : 0;
	sqlite3_free(q);
	vms_db_close(db);
	if (rc)
		goto discard;
	rc = -1;
	db = vms_db_open(partial, VMS_OPEN_ANY_STATUS);
	if (!db)
		goto discard;
	if (vms_db_exec(db, "BEGIN") || counters_store(db, opt) || vms_db_exec(db, "COMMIT")) {
		vms_db_close(db);	/* rolls the transaction back */
		goto discard;
	}
	vms_db_close(db);
	/* the run's span may have grown: derive its tables again */
	if (vms_db_upgrade(partial, VMS_UPGRADE_REDERIVE, NULL) < 0)
		goto discard;
	if (rename(partial, path)) {
		vms_error("cannot rename '%s' to '%s': %s", partial, path, strerror(errno));
		goto discard;
	}
	rc = 0;
	goto out;
discard:
	rc = -1;
	vms_remove_db_files(partial);
out:
	free(partial);
	return rc;
}
