// SPDX-License-Identifier: GPL-2.0
/*
 * export-perfetto.c - write a run as a Chrome/Perfetto trace-event JSON file
 * (the "JSON Object Format" of the Trace Event Format: {"traceEvents": [...]}),
 * which ui.perfetto.dev, chrome://tracing and catapult open directly.
 *
 * What goes where:
 *  - reclaim episodes (direct, memcg, kswapd, ...) as complete ("X") slices
 *    on the thread of the task that reclaimed, shrinker calls as slices
 *    nested inside them (same thread, inside in time), throttling as slices
 *    on a "throttled" thread beside it;
 *  - failed kswapd runs and the node-hopeless intervals (from the 16th
 *    consecutive failure, MAX_RECLAIM_RETRIES, to the next run that
 *    reclaimed) as slices on a track per node;
 *  - counters (free pages against the watermarks per zone, LRU sizes of the
 *    machine and of the recorded memcg, refault rates, the slab/page-cache
 *    ratio) as counter ("C") tracks of one "vmscope counters" process;
 *  - what-if predictions (table whatif_series) as counter tracks beside the
 *    recorded values, one process per scenario.
 * Every part is one SQL query in time order, written row by row: nothing
 * grows with the run but SQLite's own sorter, so a 10M-event run exports in
 * bounded memory. A missing table (an older database, a trace without
 * counters) is skipped and counted. Text from the trace (task names,
 * shrinker names, memcg paths) goes through the JSON string escaper.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "export.h"

/* Synthetic pids for the tracks that are not tasks: above PID_MAX_LIMIT (2^22). */
#define COUNTERS_PID	8388608
#define NODE_PID_BASE	8392704		/* + node id: kswapd failures of the node */
#define WHATIF_PID_BASE	8396800		/* + scenario number */
#define HOPELESS_STREAK	16		/* MAX_RECLAIM_RETRIES */
/*
 * Throttling goes on a thread of its own under the task's process (tid =
 * base + pid): the event comes at the end of the sleep with its length in
 * jiffies, so its start is known only to a jiffy and would not nest exactly.
 */
#define THROTTLE_TID_BASE 16777216

struct writer {
	FILE *out;
	sqlite3 *sql;
	struct vms_buf str;
	int first;
	struct vms_export_stats *stats;
};

static int has_table(sqlite3 *sql, const char *name)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(sql, "SELECT 1 FROM sqlite_master WHERE name = ?1", -1, &st, NULL))
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* @s as a JSON string literal, valid until the next call. */
static const char *json_str(struct writer *w, const char *s)
{
	vms_buf_reset(&w->str);
	if (vms_json_append_string(&w->str, s ? s : "", s ? strlen(s) : 0) ||
	    vms_buf_add(&w->str, "", 1))
		return "\"\"";
	return w->str.buf;
}

/* Start the next element of traceEvents. */
static void next_event(struct writer *w)
{
	fputs(w->first ? "\n" : ",\n", w->out);
	w->first = 0;
	w->stats->events++;
}

/* ns on the trace clock to the format's microseconds. */
static double us(long long ns)
{
	return ns / 1000.0;
}

static void name_track(struct writer *w, const char *what, long long pid, long long tid,
		       const char *name)
{
	next_event(w);
	fprintf(w->out, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%lld,\"tid\":%lld,\"args\":{\"name\":%s}}",
		what, pid, tid, json_str(w, name));
}

static int step_error(struct writer *w, sqlite3_stmt *st, const char *what)
{
	vms_error("cannot export the %s: %s", what, sqlite3_errmsg(w->sql));
	sqlite3_finalize(st);
	return -1;
}

/* Thread names of the tasks that reclaimed: each is its own process, as pids are all we have. */
static int write_task_names(struct writer *w)
{
	sqlite3_stmt *st;
	int rc;

	if (!has_table(w->sql, "task")) {
		w->stats->skipped++;
		return 0;
	}
	if (sqlite3_prepare_v2(w->sql, "SELECT pid, comm FROM task ORDER BY pid", -1, &st, NULL))
		return step_error(w, NULL, "task names");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long pid = sqlite3_column_int64(st, 0);
		const char *comm = (const char *)sqlite3_column_text(st, 1);

		name_track(w, "process_name", pid, pid, comm);
		name_track(w, "thread_name", pid, pid, comm);
	}
	if (rc != SQLITE_DONE)
		return step_error(w, st, "task names");
	sqlite3_finalize(st);
	if (!has_table(w->sql, "mm_vmscan_throttled"))
		return 0;
	if (sqlite3_prepare_v2(w->sql, "SELECT DISTINCT pid FROM mm_vmscan_throttled ORDER BY pid", -1,
			       &st, NULL))
		return step_error(w, NULL, "throttled tasks");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long pid = sqlite3_column_int64(st, 0);

		name_track(w, "thread_name", pid, THROTTLE_TID_BASE + pid, "throttled");
	}
	if (rc != SQLITE_DONE)
		return step_error(w, st, "throttled tasks");
	sqlite3_finalize(st);
	return 0;
}

/*
 * Episodes, shrinker calls and throttling, merged in time order (longest
 * first at a tie, so that a slice comes before what nests in it).
 */
static int write_reclaim_slices(struct writer *w)
{
	static const char *const parts[] = {
		"SELECT begin_ts AS ts, end_ts - begin_ts AS dur, pid, kind || ' reclaim' AS name,"
		" 'reclaim' AS cat, nid, scanned AS a, reclaimed AS b, min_priority AS c"
		" FROM episode WHERE begin_ts IS NOT NULL AND end_ts IS NOT NULL",
		"SELECT si.start_ts, si.duration_ns, si.pid,"
		" 'shrink ' || COALESCE(n.name, si.shrink, '?'), 'shrinker', si.nid,"
		" si.total_scan, si.freed, si.priority"
		" FROM shrink_slab_interval si LEFT JOIN shrinker_name n ON n.shrink IS si.shrink"
		" WHERE si.start_ts IS NOT NULL AND si.end_ts IS NOT NULL",
		"SELECT ts - 1000 * COALESCE(usec_delayed, 0), 1000 * COALESCE(usec_delayed, 0), pid,"
		" 'throttled', 'throttle', nid, usec_timeout, usec_delayed, reason"
		" FROM mm_vmscan_throttled",
	};
	static const char *const tables[] = { "episode", "shrink_slab_call", "mm_vmscan_throttled" };
	static const char *const arg_names[][3] = {
		{ "scanned", "reclaimed", "min_priority" },
		{ "to_scan", "freed", "priority" },
		{ "usec_timeout", "usec_delayed", "reason" },
	};
	struct vms_buf q = { 0 };
	sqlite3_stmt *st;
	size_t i;
	int n = 0, rc;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!has_table(w->sql, tables[i]) ||
		    (i == 1 && (!has_table(w->sql, "shrink_slab_interval") ||
				!has_table(w->sql, "shrinker_name")))) {
			w->stats->skipped++;
			continue;
		}
		vms_buf_addf(&q, "%sSELECT %zu AS part, * FROM (%s)", n++ ? " UNION ALL " : "", i,
			     parts[i]);
	}
	if (!n) {
		vms_buf_release(&q);
		return 0;
	}
	vms_buf_addf(&q, " ORDER BY ts, dur DESC, part");
	if (!q.buf || sqlite3_prepare_v2(w->sql, q.buf, -1, &st, NULL)) {
		vms_error("cannot export the reclaim slices: %s", sqlite3_errmsg(w->sql));
		vms_buf_release(&q);
		return -1;
	}
	vms_buf_release(&q);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int part = sqlite3_column_int(st, 0), k;
		long long pid = sqlite3_column_int64(st, 3);
		long long tid = part == 2 ? THROTTLE_TID_BASE + pid : pid;

		next_event(w);
		w->stats->slices++;
		fprintf(w->out, "{\"ph\":\"X\",\"name\":%s,", json_str(w, (const char *)sqlite3_column_text(st, 4)));
		fprintf(w->out, "\"cat\":\"%s\",\"pid\":%lld,\"tid\":%lld,\"ts\":%.3f,\"dur\":%.3f,\"args\":{",
			sqlite3_column_text(st, 5), pid, tid, us(sqlite3_column_int64(st, 1)),
			us(sqlite3_column_int64(st, 2) > 0 ? sqlite3_column_int64(st, 2) : 0));
		fprintf(w->out, "\"nid\":%lld", sqlite3_column_type(st, 6) == SQLITE_NULL ? -1LL :
			sqlite3_column_int64(st, 6));
		for (k = 0; k < 3; k++)
			if (sqlite3_column_type(st, 7 + k) != SQLITE_NULL)
				fprintf(w->out, ",\"%s\":%lld", arg_names[part][k], sqlite3_column_int64(st, 7 + k));
		fputs("}}", w->out);
	}
	if (rc != SQLITE_DONE)
		return step_error(w, st, "reclaim slices");
	sqlite3_finalize(st);
	return 0;
}

static void node_slice(struct writer *w, int nid, const char *name, long long begin, long long end,
		       long long streak)
{
	next_event(w);
	w->stats->slices++;
	fprintf(w->out, "{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"kswapd\",\"pid\":%d,\"tid\":%d,"
		"\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"nid\":%d,\"streak\":%lld}}", name,
		NODE_PID_BASE + nid, NODE_PID_BASE + nid, us(begin), us(end > begin ? end - begin : 0),
		nid, streak);
}

/*
 * Failed kswapd runs, and node-hopeless intervals: from the run that made
 * the 16th consecutive failure to the next run that reclaimed (or the end).
 */
static int write_kswapd_failures(struct writer *w)
{
	sqlite3_stmt *st;
	long long hopeless_from = -1, last_end = 0;
	int nid = -1, rc;
	char name[64];

	if (!has_table(w->sql, "kswapd_run")) {
		w->stats->skipped++;
		return 0;
	}
	if (sqlite3_prepare_v2(w->sql, "SELECT nid, wake_ts, COALESCE(end_ts, wake_ts), failed, streak"
			       " FROM kswapd_run ORDER BY nid, run", -1, &st, NULL))
		return step_error(w, NULL, "kswapd runs");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int n = sqlite3_column_int(st, 0);
		long long wake = sqlite3_column_int64(st, 1), end = sqlite3_column_int64(st, 2);
		long long streak = sqlite3_column_int64(st, 4);

		if (n != nid) {
			if (hopeless_from >= 0)
				node_slice(w, nid, "node hopeless", hopeless_from, last_end, HOPELESS_STREAK);
			hopeless_from = -1;
			nid = n;
			snprintf(name, sizeof(name), "kswapd failures, node %d", nid);
			name_track(w, "process_name", NODE_PID_BASE + nid, NODE_PID_BASE + nid, name);
		}
		if (!sqlite3_column_int(st, 3) && hopeless_from >= 0) {
			node_slice(w, nid, "node hopeless", hopeless_from, wake, HOPELESS_STREAK);
			hopeless_from = -1;
		}
		if (sqlite3_column_int(st, 3)) {
			node_slice(w, nid, "kswapd run failed", wake, end, streak);
			if (streak == HOPELESS_STREAK)
				hopeless_from = wake;
		}
		last_end = end;
	}
	if (rc != SQLITE_DONE)
		return step_error(w, st, "kswapd runs");
	if (hopeless_from >= 0)
		node_slice(w, nid, "node hopeless", hopeless_from, last_end, HOPELESS_STREAK);
	sqlite3_finalize(st);
	return 0;
}

/* The counters of one sample, gathered while its rows stream by. */
struct sample {
	long long id, ts;
	char source[16], scope[256];
	long long v[16];
	unsigned have;
};

enum { C_IA, C_AA, C_IF, C_AF, C_SLAB_R, C_SLAB_U, C_REF_F, C_REF_A, C_FREE, C_MIN, C_LOW, C_HIGH,
       C_N };
static const char *const counter_names[C_N] = {
	"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
	"nr_slab_reclaimable", "nr_slab_unreclaimable", "workingset_refault_file",
	"workingset_refault_anon", "free", "min", "low", "high",
};
/* memory.stat spells them without nr_ and in bytes */
static const char *const memcg_names[C_N] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", NULL, NULL,
	"workingset_refault_file", "workingset_refault_anon", NULL, NULL, NULL, NULL,
};

static int counter_index(const struct sample *s, const char *name)
{
	int memcg = !strcmp(s->source, "memcg"), i;

	for (i = 0; i < C_N; i++)
		if ((memcg ? memcg_names[i] : counter_names[i]) &&
		    !strcmp(name, memcg ? memcg_names[i] : counter_names[i]))
			return i;
	return -1;
}

#define HAVE(s, i) ((s)->have & (1u << (i)))

/* Refault rate state per scope kind: the previous sample of the machine and of the memcg. */
struct rate_state {
	long long ts, ref_f, ref_a;
	int valid;
};

static void counter_event(struct writer *w, const char *name, long long ts)
{
	next_event(w);
	w->stats->counters++;
	fprintf(w->out, "{\"ph\":\"C\",\"name\":%s,\"pid\":%d,\"ts\":%.3f,\"args\":{", json_str(w, name),
		COUNTERS_PID, us(ts));
}

static void emit_sample(struct writer *w, const struct sample *s, struct rate_state *machine,
			struct rate_state *memcg)
{
	int is_memcg = !strcmp(s->source, "memcg");
	long long page = is_memcg ? 4096 : 1;	/* memory.stat is in bytes */
	char name[320];
	struct rate_state *r = is_memcg ? memcg : machine;

	if (!strcmp(s->source, "zoneinfo")) {
		if (!HAVE(s, C_FREE) || !HAVE(s, C_MIN) || !strchr(s->scope, '/'))
			return;
		if (!s->v[C_FREE] && !s->v[C_MIN] && !s->v[C_HIGH])
			return;		/* an empty zone (Movable, Device) */
		snprintf(name, sizeof(name), "free pages vs watermarks, %s", s->scope);
		counter_event(w, name, s->ts);
		fprintf(w->out, "\"free\":%lld,\"min\":%lld,\"low\":%lld,\"high\":%lld}}", s->v[C_FREE],
			s->v[C_MIN], s->v[C_LOW], s->v[C_HIGH]);
		return;
	}
	if (HAVE(s, C_IA) && HAVE(s, C_AA) && HAVE(s, C_IF) && HAVE(s, C_AF)) {
		snprintf(name, sizeof(name), "LRU pages, %s", is_memcg ? s->scope : "machine");
		counter_event(w, name, s->ts);
		fprintf(w->out, "\"inactive_anon\":%lld,\"active_anon\":%lld,\"inactive_file\":%lld,"
			"\"active_file\":%lld}}", s->v[C_IA] / page, s->v[C_AA] / page,
			s->v[C_IF] / page, s->v[C_AF] / page);
		if (!is_memcg && HAVE(s, C_SLAB_R) && HAVE(s, C_SLAB_U) && s->v[C_IF] + s->v[C_AF] > 0) {
			counter_event(w, "slab / page cache", s->ts);
			fprintf(w->out, "\"ratio\":%.4f}}", (double)(s->v[C_SLAB_R] + s->v[C_SLAB_U]) /
				(double)(s->v[C_IF] + s->v[C_AF]));
		}
	}
	if (HAVE(s, C_REF_F) && HAVE(s, C_REF_A)) {
		if (r->valid && s->ts > r->ts && s->v[C_REF_F] >= r->ref_f && s->v[C_REF_A] >= r->ref_a) {
			double dt = (s->ts - r->ts) / 1e9;

			snprintf(name, sizeof(name), "refaults per second, %s",
				 is_memcg ? s->scope : "machine");
			counter_event(w, name, s->ts);
			fprintf(w->out, "\"file\":%.1f,\"anon\":%.1f}}", (s->v[C_REF_F] - r->ref_f) / dt,
				(s->v[C_REF_A] - r->ref_a) / dt);
		}
		r->ts = s->ts;
		r->ref_f = s->v[C_REF_F];
		r->ref_a = s->v[C_REF_A];
		r->valid = 1;
	}
}

static int write_counters(struct writer *w)
{
	sqlite3_stmt *st;
	struct sample s = { .id = -1 };
	struct rate_state machine = { 0 }, memcg = { 0 };
	int rc, named = 0;

	if (!has_table(w->sql, "counter_sample") || !has_table(w->sql, "counter_value")) {
		w->stats->skipped++;
		return 0;
	}
	if (sqlite3_prepare_v2(w->sql,
			       "SELECT s.id, s.ts, s.source, s.scope, v.name, v.value"
			       " FROM counter_sample s JOIN counter_value v ON v.sample = s.id"
			       " WHERE (s.source = 'vmstat' AND s.scope = '') OR s.source = 'memcg'"
			       " OR (s.source = 'zoneinfo' AND v.name IN ('free', 'min', 'low', 'high'))"
			       " ORDER BY s.ts, s.id", -1, &st, NULL))
		return step_error(w, NULL, "counters");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0);
		int i;

		if (id != s.id) {
			if (s.id >= 0)
				emit_sample(w, &s, &machine, &memcg);
			memset(&s, 0, sizeof(s));
			s.id = id;
			s.ts = sqlite3_column_int64(st, 1);
			snprintf(s.source, sizeof(s.source), "%s", (const char *)sqlite3_column_text(st, 2));
			snprintf(s.scope, sizeof(s.scope), "%s", (const char *)sqlite3_column_text(st, 3));
			if (!named++)
				name_track(w, "process_name", COUNTERS_PID, COUNTERS_PID, "vmscope counters");
		}
		i = counter_index(&s, (const char *)sqlite3_column_text(st, 4));
		if (i >= 0) {
			s.v[i] = sqlite3_column_int64(st, 5);
			s.have |= 1u << i;
		}
	}
	if (rc != SQLITE_DONE)
		return step_error(w, st, "counters");
	if (s.id >= 0)
		emit_sample(w, &s, &machine, &memcg);
	sqlite3_finalize(st);
	return 0;
}

/* whatif_series: recorded and predicted, one process per scenario. */
static int write_whatif(struct writer *w)
{
	static const char *const series[][3] = {
		{ "refaults (file, cumulative)", "recorded_refault_file", "whatif_refault_file" },
		{ "reclaimed (cumulative)", "recorded_reclaimed", "whatif_reclaimed" },
		{ "file LRU pages", "recorded_file", "whatif_file" },
		{ "anon LRU pages", "recorded_anon", "whatif_anon" },
	};
	sqlite3_stmt *st;
	char scenario[512] = "", title[600];
	int rc, nscen = 0;
	size_t k;

	if (!has_table(w->sql, "whatif_series"))
		return 0;
	if (sqlite3_prepare_v2(w->sql,
			       "SELECT scenario, ts, recorded_refault_file, whatif_refault_file,"
			       " recorded_reclaimed, whatif_reclaimed, recorded_file, whatif_file,"
			       " recorded_anon, whatif_anon FROM whatif_series ORDER BY scenario, ts",
			       -1, &st, NULL))
		return step_error(w, NULL, "what-if series");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *scen = (const char *)sqlite3_column_text(st, 0);
		int pid;

		if (!nscen || strcmp(scen ? scen : "", scenario)) {
			snprintf(scenario, sizeof(scenario), "%s", scen ? scen : "");
			nscen++;
			snprintf(title, sizeof(title), "whatif %s", scenario);
			name_track(w, "process_name", WHATIF_PID_BASE + nscen, WHATIF_PID_BASE + nscen, title);
		}
		pid = WHATIF_PID_BASE + nscen;
		for (k = 0; k < sizeof(series) / sizeof(series[0]); k++) {
			int rec = 2 + 2 * (int)k;

			if (sqlite3_column_type(st, rec) == SQLITE_NULL &&
			    sqlite3_column_type(st, rec + 1) == SQLITE_NULL)
				continue;
			next_event(w);
			w->stats->counters++;
			fprintf(w->out, "{\"ph\":\"C\",\"name\":\"%s\",\"pid\":%d,\"ts\":%.3f,\"args\":{",
				series[k][0], pid, us(sqlite3_column_int64(st, 1)));
			if (sqlite3_column_type(st, rec) != SQLITE_NULL)
				fprintf(w->out, "\"recorded\":%lld%s", sqlite3_column_int64(st, rec),
					sqlite3_column_type(st, rec + 1) != SQLITE_NULL ? "," : "");
			if (sqlite3_column_type(st, rec + 1) != SQLITE_NULL)
				fprintf(w->out, "\"predicted\":%lld", sqlite3_column_int64(st, rec + 1));
			fputs("}}", w->out);
		}
	}
	if (rc != SQLITE_DONE)
		return step_error(w, st, "what-if series");
	sqlite3_finalize(st);
	return 0;
}

int vms_export_perfetto(struct vms_db *db, FILE *out, struct vms_export_stats *stats)
{
	struct writer w = { .out = out, .sql = vms_db_sql(db), .first = 1, .stats = stats };
	int rc;

	memset(stats, 0, sizeof(*stats));
	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"source\":\"vmscope " VMS_VERSION "\"},"
	      "\"traceEvents\":[", out);
	rc = write_task_names(&w) || write_reclaim_slices(&w) || write_kswapd_failures(&w) ||
	     write_counters(&w) || write_whatif(&w);
	fputs("\n]}\n", out);
	vms_buf_release(&w.str);
	if (!rc && ferror(out)) {
		vms_error("cannot write the export");
		rc = 1;
	}
	return rc ? -1 : 0;
}
