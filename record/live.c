// SPDX-License-Identifier: GPL-2.0
/*
 * live.c - a live tracing session for `vmscope record`: a private tracefs
 * instance (so another tracer, trace-cmd or perf, neither disturbs nor is
 * disturbed by it) with the `mono` clock, the chosen events enabled, and its
 * per-CPU raw ring buffers copied page by page into a spool file while the
 * workload runs (events counted, not decoded). When the recording stops, the
 * spooled pages are merged by timestamp across CPUs and decoded into the
 * database through the shared record decoder, as an import of a .dat would.
 * The instance is removed and the spool deleted by live_close().
 *
 * Why a spool: decoding and SQLite inserts cost a few microseconds an event,
 * which a reclaim storm of 100k events/s would take from the machine being
 * traced; copying pages costs about as much as `trace-cmd record` does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>
#include <tracefs.h>
#include <event-parse.h>
#include <kbuffer.h>

#include "vms.h"
#include "live.h"
#include "spool.h"

struct cpu_reader {
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;		/* to count the events of a page */
	void *page;
	int page_size;
	int cpu;
};

struct live_session {
	struct cpu_reader *cpus;
	int ncpus;
	struct tracefs_instance *instance;
	struct vms_sink *sink;
	struct vms_db *db;
	struct spool *spool;
	char *cmdlines;			/* saved_cmdlines as last spooled */
	char **systems;			/* NULL-terminated, for tracefs_local_events_system */
	int nsystems;
	uint64_t captured;		/* events in the spooled pages */
	uint64_t lost_seen;		/* events the pages say were lost before them */
	uint64_t events;		/* events decoded and stored */
	double cmdlines_loaded;
	int decoded;
};

static int add_system(struct live_session *s, const char *system)
{
	char **n;
	int i;

	for (i = 0; i < s->nsystems; i++)
		if (!strcmp(s->systems[i], system))
			return 0;
	n = realloc(s->systems, (s->nsystems + 2) * sizeof(*n));
	if (!n)
		return vms_error("out of memory");
	s->systems = n;
	if (!(n[s->nsystems] = strdup(system)))
		return vms_error("out of memory");
	n[++s->nsystems] = NULL;
	return 0;
}

/* "system" or "system:event"; Return: 0, or -1 naming what this kernel lacks. */
static int enable_one(struct live_session *s, const char *spec, int required)
{
	char system[128], *event = NULL;

	snprintf(system, sizeof(system), "%s", spec);
	event = strchr(system, ':');
	if (event)
		*event++ = '\0';
	if (event) {
		if (!tracefs_event_file_exists(s->instance, system, event, "enable"))
			goto missing;
		if (tracefs_event_enable(s->instance, system, event))
			return vms_error("cannot enable trace event '%s': %s", spec, strerror(errno));
	} else {
		char path[160];

		snprintf(path, sizeof(path), "events/%s/enable", system);
		if (!tracefs_file_exists(s->instance, path))
			goto missing;
		if (tracefs_event_enable(s->instance, system, NULL))
			return vms_error("cannot enable trace events '%s': %s", spec, strerror(errno));
	}
	return add_system(s, system);
missing:
	if (!required)
		return 0;
	return vms_error("this kernel has no trace event '%s' (not in %s/events)", spec,
			 tracefs_tracing_dir());
}

/* The default: every event the schema has a typed table for, where this kernel has it. */
static int enable_defaults(struct live_session *s, struct vms_db *db)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(vms_db_sql(db), "SELECT system || ':' || event FROM event_table"
			       " ORDER BY system, event", -1, &st, NULL))
		return vms_error("%s: cannot read event_table", vms_db_path(db));
	while (!rc && sqlite3_step(st) == SQLITE_ROW)
		rc = enable_one(s, (const char *)sqlite3_column_text(st, 0), 0);
	sqlite3_finalize(st);
	/* the demand `vmscope whatif` simulates: page-cache insertions and removals */
	if (!rc && (enable_one(s, "filemap:mm_filemap_add_to_page_cache", 0) ||
		    enable_one(s, "filemap:mm_filemap_delete_from_page_cache", 0)))
		rc = -1;
	if (!rc && !s->nsystems)
		rc = vms_error("this kernel has none of the vmscan or writeback trace events");
	return rc;
}

static int open_cpu_readers(struct live_session *s)
{
	long n = sysconf(_SC_NPROCESSORS_CONF), cpu;

	s->cpus = calloc(n, sizeof(*s->cpus));
	if (!s->cpus)
		return vms_error("out of memory");
	for (cpu = 0; cpu < n; cpu++) {
		struct cpu_reader *r = &s->cpus[s->ncpus];

		r->tcpu = tracefs_cpu_open(s->instance, (int)cpu, true);
		if (!r->tcpu)
			continue;	/* offline CPU */
		r->cpu = (int)cpu;
		r->page_size = tracefs_cpu_read_size(r->tcpu);
		r->page = malloc(r->page_size);
		/* the traced kernel is this one: its word size and byte order */
		r->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
		if (!r->page || !r->kbuf) {
			s->ncpus++;
			return vms_error("out of memory");
		}
		s->ncpus++;
	}
	if (!s->ncpus)
		return vms_error("cannot open any CPU buffer of the instance: %s", strerror(errno));
	return 0;
}

/*
 * Copy the pages the kernel has for @r into the spool, until none is left
 * or @deadline (vms_now() seconds, 0: none) passes. The events of each page
 * are counted (not decoded) for the status line.
 * Return: pages copied, or -1 (vms_error set).
 */
/* The systems enabled, so that the spool says which formats decode it. */
static int spool_systems(struct live_session *s)
{
	struct vms_buf b = { 0 };
	int i, rc;

	for (i = 0, rc = 0; i < s->nsystems && !rc; i++)
		rc = vms_buf_addf(&b, "%s\n", s->systems[i]);
	rc = rc ? vms_error("out of memory") : spool_append(s->spool, SPOOL_SYSTEMS, b.buf, b.len);
	vms_buf_release(&b);
	return rc;
}

static long capture_cpu(struct live_session *s, struct cpu_reader *r, double deadline)
{
	long pages = 0;

	for (;;) {
		int n = tracefs_cpu_read(r->tcpu, r->page, true);
		unsigned long long ts;
		void *ev;
		int missed;

		if (n <= 0)
			break;
		if (spool_append(s->spool, r->cpu, r->page, (size_t)n))
			return -1;
		pages++;
		if (!kbuffer_load_subbuffer(r->kbuf, r->page)) {
			missed = kbuffer_missed_events(r->kbuf);
			if (missed > 0)
				s->lost_seen += (uint64_t)missed;
			for (ev = kbuffer_read_event(r->kbuf, &ts); ev;
			     ev = kbuffer_next_event(r->kbuf, &ts))
				s->captured++;
		}
		if (deadline && vms_now() > deadline)
			break;
	}
	return pages;
}

int live_check(void)
{
	const char *dir;
	char events[4096];

	if (geteuid() != 0)
		return vms_error("recording needs root (tracefs and its instances are root's)");
	/* tracefs_tracing_dir() finds tracefs and mounts it when it is not mounted */
	dir = tracefs_tracing_dir();
	snprintf(events, sizeof(events), "%s/events", dir ? dir : "");
	if (!dir || access(events, R_OK))
		return vms_error("no tracefs: mount it with 'mount -t tracefs nodev /sys/kernel/tracing'");
	return 0;
}

struct live_session *live_open(const struct live_options *opt, struct vms_db *db,
			       struct vms_sink *sink)
{
	struct live_session *s = calloc(1, sizeof(*s));
	char name[64];
	int i;

	if (!s) {
		vms_error("out of memory");
		return NULL;
	}
	s->sink = sink;
	s->db = db;
	if (live_check())
		goto err;
	snprintf(name, sizeof(name), "vmscope-%d", (int)getpid());
	s->instance = tracefs_instance_create(name);
	if (!s->instance) {
		vms_error("cannot create tracefs instance '%s': %s", name, strerror(errno));
		goto err;
	}
	if (tracefs_trace_off(s->instance) ||
	    tracefs_instance_file_write(s->instance, "trace_clock", "mono") < 0) {
		vms_error("cannot set the trace clock of instance '%s' to mono: %s", name,
			  strerror(errno));
		goto err;
	}
	{
		/* like trace-cmd: the recorder's own work (its database writes) is not traced */
		char pid[32];

		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		if (tracefs_instance_file_write(s->instance, "set_event_notrace_pid", pid) < 0)
			vms_warning("cannot exclude vmscope's own events (set_event_notrace_pid): "
				    "its database writes will show as writeback events");
	}
	if (opt->buffer_kb && tracefs_instance_set_buffer_size(s->instance, opt->buffer_kb, -1)) {
		vms_error("cannot set the ring buffer to %u KiB per CPU: %s", opt->buffer_kb,
			  strerror(errno));
		goto err;
	}
	if (opt->nevents) {
		for (i = 0; i < opt->nevents; i++)
			if (enable_one(s, opt->events[i], 1))
				goto err;
	} else if (enable_defaults(s, db)) {
		goto err;
	}
	if (open_cpu_readers(s))
		goto err;
	{
		char path[4096];

		snprintf(path, sizeof(path), "%s.spool-%d", vms_db_path(db), (int)getpid());
		if (!(s->spool = spool_create(path)))
			goto err;
	}
	if (spool_systems(s))
		goto err;
	if (vms_db_set_run_text(db, "trace_clock", "mono") ||
	    vms_db_set_run_int(db, "ts_resolution_ns", 1) ||
	    vms_db_set_run_int(db, "page_size", sysconf(_SC_PAGESIZE)) ||
	    vms_db_set_run_int(db, "cpus", sysconf(_SC_NPROCESSORS_CONF)))
		goto err;
	return s;
err:
	live_close(s);
	return NULL;
}

int live_start(struct live_session *s)
{
	if (tracefs_trace_on(s->instance))
		return vms_error("cannot turn tracing on in the instance: %s", strerror(errno));
	return 0;
}

/*
 * Keep the kernel's table of recent comms (saved_cmdlines) when it changed:
 * it is small, so tasks that come and go would be nameless if it were read
 * only at the end. Parsed when decoding, in the order read.
 */
static int save_cmdlines(struct live_session *s)
{
	char *text = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL);
	int rc;

	if (!text)
		return 0;	/* no names, but the events are still recorded */
	if (s->cmdlines && !strcmp(s->cmdlines, text)) {
		free(text);
		return 0;
	}
	rc = spool_append(s->spool, SPOOL_CMDLINES, text, strlen(text));
	free(s->cmdlines);
	s->cmdlines = text;
	return rc;
}

long live_drain(struct live_session *s, double budget)
{
	double now = vms_now(), deadline = budget > 0 ? now + budget : 0;
	long pages = 0, n;
	int i;

	if (now - s->cmdlines_loaded > 1.0) {
		if (save_cmdlines(s))
			return -1;
		s->cmdlines_loaded = now;
	}
	for (i = 0; i < s->ncpus; i++) {
		n = capture_cpu(s, &s->cpus[i], deadline);
		if (n < 0)
			return -1;
		pages += n;
	}
	/* written out every round: a recorder killed now loses one interval at most */
	if (spool_flush(s->spool))
		return -1;
	return pages;
}

int live_stop(struct live_session *s)
{
	tracefs_trace_off(s->instance);
	s->cmdlines_loaded = 0;	/* comms of tasks that appeared in the last second */
	if (live_drain(s, 0) < 0 || spool_flush(s->spool))
		return -1;
	return 0;
}

int live_decode(struct live_session *s, int quiet)
{
	int rc = spool_decode(s->spool, s->db, s->sink, quiet, &s->events);

	s->decoded = 1;
	return rc;
}

/*
 * The instance's per-CPU stats: events the ring buffer overwrote (overrun)
 * or refused (dropped events) were lost.
 */
int live_store_losses(struct live_session *s, struct vms_db *db)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF), cpu;
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(vms_db_sql(db), "INSERT OR REPLACE INTO cpu_stats VALUES (?, ?, ?)",
			       -1, &st, NULL))
		return vms_error("%s: cannot store cpu stats", vms_db_path(db));
	for (cpu = 0; cpu < cpus && !rc; cpu++) {
		char path[64], *text, *line, *next;

		snprintf(path, sizeof(path), "per_cpu/cpu%ld/stats", cpu);
		text = tracefs_instance_file_read(s->instance, path, NULL);
		for (line = text; line && *line; line = next) {
			char *colon = strchr(line, ':');
			double v;

			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			if (!colon)
				continue;
			*colon = '\0';
			v = strtod(colon + 1, NULL);
			sqlite3_reset(st);
			sqlite3_bind_int(st, 1, (int)cpu);
			sqlite3_bind_text(st, 2, line, -1, SQLITE_TRANSIENT);
			sqlite3_bind_double(st, 3, v);
			if (sqlite3_step(st) != SQLITE_DONE)
				rc = vms_error("%s: cannot store cpu stats", vms_db_path(db));
			if ((!strcmp(line, "overrun") || !strcmp(line, "dropped events")) && v > 0 &&
			    vms_sink_lost(s->sink, (int)cpu, 0, (long long)v, "cpustats"))
				rc = -1;
		}
		free(text);
	}
	sqlite3_finalize(st);
	return rc;
}

uint64_t live_events(const struct live_session *s)
{
	return s->decoded ? s->events : s->captured;
}

uint64_t live_lost_seen(const struct live_session *s)
{
	return s->lost_seen;
}

uint64_t live_spool_bytes(const struct live_session *s)
{
	return s->spool ? spool_bytes(s->spool) : 0;
}

void live_close(struct live_session *s)
{
	int i;

	if (!s)
		return;
	/* the CPU buffers must be closed before the instance can be removed */
	for (i = 0; i < s->ncpus; i++) {
		tracefs_cpu_close(s->cpus[i].tcpu);
		kbuffer_free(s->cpus[i].kbuf);
		free(s->cpus[i].page);
	}
	free(s->cpus);
	if (s->instance) {
		tracefs_trace_off(s->instance);
		tracefs_event_disable(s->instance, NULL, NULL);
		if (tracefs_instance_destroy(s->instance))
			vms_warning("cannot remove tracefs instance '%s': remove it with rmdir",
				    tracefs_instance_get_name(s->instance));
		tracefs_instance_free(s->instance);
	}
	spool_free(s->spool);
	free(s->cmdlines);
	for (i = 0; i < s->nsystems; i++)
		free(s->systems[i]);
	free(s->systems);
	free(s);
}
