// SPDX-License-Identifier: GPL-2.0
/*
 * exec-maps.c - store the file ranges the recorded memcg's tasks have
 * mapped executable (table exec_mapping, schema/016-exec-mapping.sql).
 * Reclaim protects the pages of a VM_EXEC file mapping, and no trace
 * event says which pages those are, so `vmscope whatif` learns them here.
 * Every 100 ms, or 3 ms per task when there are more than 33 (a maps file
 * of 100 lines takes about 0.15 ms to read: the cost stays under 5% of a
 * CPU), the pids of PATH/cgroup.procs are read, then each one's
 * /proc/PID/maps; a line with 'x' in its permissions and an inode becomes
 * one row the first time its (pid, range, file) is seen. A task that exits
 * between the two reads is skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "vms.h"
#include "counters.h"
#include "exec-maps.h"

/* a poll every 100 ms, or every 3 ms per task when there are more than 33 */
#define POLL_NS_PER_TASK 3000000ULL
#define POLL_NS_MIN 100000000ULL
#define PAGE_SHIFT_4K 12

struct exec_maps {
	struct vms_db *db;
	sqlite3_stmt *insert;
	char *procs;		/* PATH/cgroup.procs */
	uint64_t *seen;		/* open addressing: fingerprints of the mappings stored, 0 free */
	size_t nseen, cap;
	uint64_t rows, last_poll, period;
	int page_shift;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 33);
}

static int seen_grow(struct exec_maps *em)
{
	size_t cap = em->cap ? em->cap * 2 : 1024, i;
	uint64_t *t = calloc(cap, sizeof(*t));

	if (!t)
		return vms_error("out of memory (exec mappings)");
	for (i = 0; i < em->cap; i++) {
		size_t j;

		if (!em->seen[i])
			continue;
		for (j = em->seen[i] & (cap - 1); t[j]; j = (j + 1) & (cap - 1))
			;
		t[j] = em->seen[i];
	}
	free(em->seen);
	em->seen = t;
	em->cap = cap;
	return 0;
}

/* Return: 1 new (now remembered), 0 seen before, -1 out of memory. */
static int seen_add(struct exec_maps *em, uint64_t fp)
{
	size_t j;

	if (!fp)
		fp = 1;
	if (2 * (em->nseen + 1) > em->cap && seen_grow(em))
		return -1;
	for (j = fp & (em->cap - 1); em->seen[j]; j = (j + 1) & (em->cap - 1))
		if (em->seen[j] == fp)
			return 0;
	em->seen[j] = fp;
	em->nseen++;
	return 1;
}

struct exec_maps *exec_maps_new(struct vms_db *db, const char *memcg_dir)
{
	struct exec_maps *em = calloc(1, sizeof(*em));
	long page = sysconf(_SC_PAGESIZE);

	if (!em || asprintf(&em->procs, "%s/cgroup.procs", memcg_dir) < 0) {
		free(em);
		vms_error("out of memory");
		return NULL;
	}
	em->db = db;
	for (em->page_shift = 0; page > 1; page >>= 1)
		em->page_shift++;
	if (!em->page_shift)
		em->page_shift = PAGE_SHIFT_4K;
	if (sqlite3_prepare_v2(vms_db_sql(db), "INSERT INTO exec_mapping "
			       "(ts, pid, s_dev, i_ino, pgoff, pages, path) VALUES (?, ?, ?, ?, ?, ?, ?)",
			       -1, &em->insert, NULL)) {
		vms_error("%s: cannot store exec mappings: %s", vms_db_path(db),
			  sqlite3_errmsg(vms_db_sql(db)));
		exec_maps_free(em);
		return NULL;
	}
	return em;
}

void exec_maps_free(struct exec_maps *em)
{
	if (!em)
		return;
	sqlite3_finalize(em->insert);
	free(em->procs);
	free(em->seen);
	free(em);
}

uint64_t exec_maps_rows(const struct exec_maps *em)
{
	return em ? em->rows : 0;
}

static int store(struct exec_maps *em, uint64_t now, long pid, unsigned long long start,
		 unsigned long long end, unsigned long long offset, unsigned maj, unsigned min,
		 unsigned long long ino, const char *path)
{
	uint64_t fp = mix(mix(mix(mix(mix((uint64_t)pid, start), end), offset),
			      ((uint64_t)maj << 20) | min), ino);
	int r = seen_add(em, fp);
	sqlite3_stmt *st = em->insert;

	if (r <= 0)
		return r;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)now);
	sqlite3_bind_int64(st, 2, pid);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)(((uint64_t)maj << 20) | min));
	sqlite3_bind_int64(st, 4, (sqlite3_int64)ino);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)(offset >> em->page_shift));
	sqlite3_bind_int64(st, 6, (sqlite3_int64)((end - start + (1ULL << em->page_shift) - 1) >>
						   em->page_shift));
	if (*path)
		sqlite3_bind_text(st, 7, path, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, 7);
	r = sqlite3_step(st);
	sqlite3_reset(st);
	if (r != SQLITE_DONE)
		return vms_error("%s: cannot store an exec mapping: %s", vms_db_path(em->db),
				 sqlite3_errmsg(vms_db_sql(em->db)));
	em->rows++;
	return 0;
}

/* The executable file mappings of one task. Return: 0 (also when it has gone) or -1. */
static int read_task(struct exec_maps *em, uint64_t now, long pid, char **line, size_t *alloc)
{
	char path[64];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;	/* exited meanwhile, or a kernel thread's empty maps */
	while (getline(line, alloc, f) > 0) {
		unsigned long long start, end, offset, ino;
		char perms[8];
		unsigned maj, min;
		int name = 0;
		char *p;

		if (sscanf(*line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &offset,
			   &maj, &min, &ino, &name) < 7 || !ino || !strchr(perms, 'x') || end <= start)
			continue;
		p = *line + name;
		p[strcspn(p, "\n")] = 0;
		if (store(em, now, pid, start, end, offset, maj, min, ino, p)) {
			rc = -1;
			break;
		}
	}
	fclose(f);
	return rc;
}

int exec_maps_poll(struct exec_maps *em, int force)
{
	uint64_t now = counters_now_ns();
	char *line = NULL;
	size_t alloc = 0;
	long *pids = NULL, n = 0, cap = 0, pid, i;
	FILE *f;
	int rc = 0;

	if (!em || (!force && em->last_poll && now - em->last_poll < em->period))
		return 0;
	em->last_poll = now;
	f = fopen(em->procs, "re");
	if (!f)
		return vms_error("cannot read '%s': %s", em->procs, strerror(errno));
	/* the pids first: /proc reads must not hold the cgroup file open */
	while (fscanf(f, "%ld", &pid) == 1) {
		if (n == cap) {
			long *p = realloc(pids, (cap = cap ? 2 * cap : 64) * sizeof(*p));

			if (!p) {
				fclose(f);
				free(pids);
				return vms_error("out of memory (the pids of '%s')", em->procs);
			}
			pids = p;
		}
		pids[n++] = pid;
	}
	fclose(f);
	for (i = 0; i < n && !rc; i++)
		rc = read_task(em, now, pids[i], &line, &alloc);
	em->period = (uint64_t)n * POLL_NS_PER_TASK;
	if (em->period < POLL_NS_MIN)
		em->period = POLL_NS_MIN;
	free(line);
	free(pids);
	return rc;
}
