// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - sample the counters that give reclaim events their context:
 * /proc/vmstat, /proc/meminfo, /proc/zoneinfo (watermarks, boost,
 * node_unreclaimable, per-zone and per-node stats), per-node vmstat and a
 * memcg's memory.stat. Each read of a file becomes one counter_sample row,
 * stamped with CLOCK_MONOTONIC before and after the read: the same clock as
 * the `mono` trace clock, so samples and events line up to the microsecond.
 * The text of each file is parsed by counters-proc.c, as counter logs are.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "vms.h"
#include "counters.h"
#include "counters-set.h"

struct counters {
	struct vms_db *db;
	sqlite3_stmt *sample;
	sqlite3_stmt *value;
	char *memcg;		/* memory.stat path, or NULL */
	char *kmem;		/* cgroup v1 memory.kmem.usage_in_bytes path, or NULL */
	char *memcg_scope;
	char **node_paths;	/* /sys/devices/system/node/nodeN/vmstat */
	int nnodes;
	uint64_t samples;
	long long last_sample;	/* counter_sample id of the last read */
	char *buf;
	size_t alloc;
};

uint64_t counters_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int sql_fail(struct counters *c, const char *what)
{
	return vms_error("%s: %s: %s", vms_db_path(c->db), what, sqlite3_errmsg(vms_db_sql(c->db)));
}

struct counters *counters_new(struct vms_db *db, const char *memcg_dir)
{
	struct counters *c = calloc(1, sizeof(*c));
	sqlite3 *sql = vms_db_sql(db);
	DIR *d;
	struct dirent *de;

	if (!c) {
		vms_error("out of memory");
		return NULL;
	}
	c->db = db;
	if (sqlite3_prepare_v2(sql, "INSERT INTO counter_sample (ts, ts_end, source, scope)"
			       " VALUES (?, ?, ?, ?)", -1, &c->sample, NULL) ||
	    sqlite3_prepare_v2(sql, "INSERT OR REPLACE INTO counter_value VALUES (?, ?, ?)", -1,
			       &c->value, NULL)) {
		sql_fail(c, "cannot prepare counter inserts");
		goto err;
	}
	if (memcg_dir) {
		if (asprintf(&c->memcg, "%s/memory.stat", memcg_dir) < 0 ||
		    !(c->memcg_scope = strdup(memcg_dir)))
			goto oom;
		FILE *f = fopen(c->memcg, "r");

		if (!f) {
			vms_error("cannot read '%s': %s (is '%s' a memory cgroup?)", c->memcg,
				  strerror(errno), memcg_dir);
			goto err;
		}
		fclose(f);
		/* v1 memory.stat has no slab: its kernel memory comes from here */
		if (asprintf(&c->kmem, "%s/memory.kmem.usage_in_bytes", memcg_dir) < 0)
			goto oom;
		f = fopen(c->kmem, "r");
		if (f) {
			fclose(f);
		} else {
			free(c->kmem);
			c->kmem = NULL;
		}
	}
	d = opendir("/sys/devices/system/node");
	while (d && (de = readdir(d))) {
		char **n;

		if (strncmp(de->d_name, "node", 4) || !isdigit((unsigned char)de->d_name[4]))
			continue;
		n = realloc(c->node_paths, (c->nnodes + 1) * sizeof(*n));
		if (!n)
			goto oom;
		c->node_paths = n;
		if (asprintf(&n[c->nnodes], "/sys/devices/system/node/%s/vmstat", de->d_name) < 0)
			goto oom;
		c->nnodes++;
	}
	if (d)
		closedir(d);
	return c;
oom:
	vms_error("out of memory");
err:
	counters_free(c);
	return NULL;
}

void counters_free(struct counters *c)
{
	int i;

	if (!c)
		return;
	sqlite3_finalize(c->sample);
	sqlite3_finalize(c->value);
	for (i = 0; i < c->nnodes; i++)
		free(c->node_paths[i]);
	free(c->node_paths);
	free(c->memcg);
	free(c->kmem);
	free(c->memcg_scope);
	free(c->buf);
	free(c);
}

uint64_t counters_samples(const struct counters *c)
{
	return c->samples;
}

/* Read a whole /proc or /sys file into c->buf. Return: its length, or -1. */
static long slurp(struct counters *c, const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, n;

	if (!f)
		return -1;
	for (;;) {
		if (c->alloc - len < 4096) {
			char *nb = realloc(c->buf, c->alloc ? c->alloc * 2 : 65536);

			if (!nb) {
				fclose(f);
				return -1;
			}
			c->buf = nb;
			c->alloc = c->alloc ? c->alloc * 2 : 65536;
		}
		n = fread(c->buf + len, 1, c->alloc - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	c->buf[len] = '\0';
	return (long)len;
}

static long long begin_sample(struct counters *c, uint64_t t0, uint64_t t1, const char *source,
			      const char *scope)
{
	sqlite3_reset(c->sample);
	sqlite3_bind_int64(c->sample, 1, (sqlite3_int64)t0);
	sqlite3_bind_int64(c->sample, 2, (sqlite3_int64)t1);
	sqlite3_bind_text(c->sample, 3, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->sample, 4, scope, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(c->sample) != SQLITE_DONE)
		return sql_fail(c, "cannot store a counter sample");
	c->samples++;
	c->last_sample = sqlite3_last_insert_rowid(vms_db_sql(c->db));
	return c->last_sample;
}

static int add_value(struct counters *c, long long sample, const char *name, size_t len,
		     long long value)
{
	sqlite3_reset(c->value);
	sqlite3_bind_int64(c->value, 1, sample);
	sqlite3_bind_text(c->value, 2, name, (int)len, SQLITE_TRANSIENT);
	sqlite3_bind_int64(c->value, 3, value);
	if (sqlite3_step(c->value) != SQLITE_DONE)
		return sql_fail(c, "cannot store a counter value");
	return 0;
}

/* The parsers of counters-proc.c store through these: one read, one time. */
struct read_time {
	struct counters *c;
	uint64_t t0, t1;
};

static long long store_begin(void *arg, const char *source, const char *scope)
{
	struct read_time *r = arg;

	return begin_sample(r->c, r->t0, r->t1, source, scope);
}

static int store_value(void *arg, long long sample, const char *name, size_t len, long long v)
{
	struct read_time *r = arg;

	return add_value(r->c, sample, name, len, v);
}

/* "name value" lines (vmstat, memory.stat) and "Name:  value kB" lines (meminfo). */
static int store_name_value_file(struct counters *c, const char *path, const char *source,
				 const char *scope)
{
	struct read_time r = { .c = c, .t0 = counters_now_ns() };
	const struct proc_parse_cb cb = { store_begin, store_value, &r };
	long len = slurp(c, path);

	r.t1 = counters_now_ns();
	if (len < 0)
		return vms_error("cannot read '%s': %s", path, strerror(errno));
	return proc_parse_name_value(c->buf, source, scope, &cb);
}

/* /proc/zoneinfo: a sample per zone and per node (see proc_parse_zoneinfo()). */
static int store_zoneinfo(struct counters *c)
{
	struct read_time r = { .c = c, .t0 = counters_now_ns() };
	const struct proc_parse_cb cb = { store_begin, store_value, &r };
	long len = slurp(c, "/proc/zoneinfo");

	r.t1 = counters_now_ns();
	if (len < 0)
		return vms_error("cannot read '/proc/zoneinfo': %s", strerror(errno));
	return proc_parse_zoneinfo(c->buf, &cb);
}

/*
 * cgroup v1: the memcg's kernel memory (slab among it), charged against its
 * limit but absent from memory.stat, as value 'kmem_usage_in_bytes' of the
 * memory.stat sample just stored.
 */
static int store_kmem(struct counters *c)
{
	long long sample = c->last_sample;
	long len = slurp(c, c->kmem);
	char *end;
	long long v;

	if (len < 0)
		return vms_error("cannot read '%s': %s", c->kmem, strerror(errno));
	v = strtoll(c->buf, &end, 10);
	if (end == c->buf)
		return vms_error("'%s': not a number: '%.40s'", c->kmem, c->buf);
	return add_value(c, sample, "kmem_usage_in_bytes", strlen("kmem_usage_in_bytes"), v);
}

int counters_sample(struct counters *c)
{
	int i;

	if (store_name_value_file(c, "/proc/vmstat", "vmstat", "") ||
	    store_name_value_file(c, "/proc/meminfo", "meminfo", "") || store_zoneinfo(c))
		return -1;
	for (i = 0; i < c->nnodes; i++) {
		/* ".../node/nodeN/vmstat" -> "nodeN" */
		const char *end = strrchr(c->node_paths[i], '/'), *n = end - 1;
		char scope[32];

		while (n > c->node_paths[i] && n[-1] != '/')
			n--;
		snprintf(scope, sizeof(scope), "%.*s", (int)(end - n), n);
		if (store_name_value_file(c, c->node_paths[i], "node_vmstat", scope))
			return -1;
	}
	if (c->memcg && store_name_value_file(c, c->memcg, "memcg", c->memcg_scope))
		return -1;
	return c->kmem ? store_kmem(c) : 0;
}

/*
 * A memcg's own swappiness (cgroup v1 memory.swappiness): memcg limit reclaim
 * uses it instead of vm.swappiness. Stored as sysctl 'memcg.swappiness'.
 */
int counters_store_memcg_swappiness(struct vms_db *db, const char *memcg_dir)
{
	char path[4096], value[64];
	sqlite3_stmt *st;
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/memory.swappiness", memcg_dir);
	f = fopen(path, "r");
	if (!f)
		return 0;	/* cgroup v2 has none */
	if (fgets(value, sizeof(value), f) &&
	    !sqlite3_prepare_v2(vms_db_sql(db), "INSERT OR REPLACE INTO sysctl VALUES"
				" ('memcg.swappiness', ?)", -1, &st, NULL)) {
		value[strcspn(value, "\n")] = '\0';
		sqlite3_bind_text(st, 1, value, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = vms_error("%s: cannot store memcg.swappiness", vms_db_path(db));
		sqlite3_finalize(st);
	}
	fclose(f);
	return rc;
}

/* Reclaim-shaping sysctls, stored once at the start of a recording. */
static const char *const sysctls[] = {
	"vm/swappiness", "vm/watermark_boost_factor", "vm/watermark_scale_factor",
	"vm/min_free_kbytes", "vm/vfs_cache_pressure", "vm/vfs_cache_pressure_denom",
	"vm/dirty_ratio", "vm/dirty_background_ratio", "vm/dirty_bytes",
	"vm/dirty_background_bytes", "vm/dirty_expire_centisecs", "vm/dirty_writeback_centisecs",
	"vm/zone_reclaim_mode", "vm/laptop_mode", "vm/defrag_mode", "vm/page-cluster",
	"vm/overcommit_memory", "vm/shrink_inodes_with_pagecache",
};

int counters_store_sysctls(struct vms_db *db)
{
	sqlite3_stmt *st;
	size_t i;
	int rc = 0;

	if (sqlite3_prepare_v2(vms_db_sql(db), "INSERT OR REPLACE INTO sysctl VALUES (?, ?)", -1,
			       &st, NULL))
		return vms_error("%s: cannot store sysctls", vms_db_path(db));
	for (i = 0; i <= sizeof(sysctls) / sizeof(sysctls[0]); i++) {
		const char *name = i < sizeof(sysctls) / sizeof(sysctls[0]) ? sysctls[i] : NULL;
		char path[128], value[256], dotted[128], *p;
		FILE *f;

		if (!name) {
			/* MGLRU switch: not a sysctl but it decides which reclaim code runs */
			snprintf(path, sizeof(path), "/sys/kernel/mm/lru_gen/enabled");
			snprintf(dotted, sizeof(dotted), "lru_gen.enabled");
		} else {
			snprintf(path, sizeof(path), "/proc/sys/%s", name);
			snprintf(dotted, sizeof(dotted), "%s", name);
			for (p = dotted; *p; p++)
				if (*p == '/')
					*p = '.';
		}
		f = fopen(path, "r");
		if (!f)
			continue;	/* not on this kernel */
		if (fgets(value, sizeof(value), f)) {
			value[strcspn(value, "\n")] = '\0';
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, dotted, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(st, 2, value, -1, SQLITE_TRANSIENT);
			if (sqlite3_step(st) != SQLITE_DONE)
				rc = vms_error("%s: cannot store sysctls", vms_db_path(db));
		}
		fclose(f);
	}
	sqlite3_finalize(st);
	return rc;
}
