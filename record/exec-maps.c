// SPDX-License-Identifier: GPL-2.0
/*
 * exec-maps.c - store the file ranges the recorded memcg's tasks have
 * mapped executable (table exec_mapping, schema/016-exec-mapping.sql).
 * Reclaim protects the pages of a VM_EXEC file mapping, and no trace
 * event says which pages those are, so `vmscope whatif` learns them here.
 *
 * The tasks are the pids of PATH/cgroup.procs and of every cgroup below
 * it (memory.stat counts the whole subtree). Each call reads the maps of
 * at most TASKS_PER_POLL of them, round-robin, so that one call stays
 * short in the recorder's loop (a maps file of 100 lines takes about
 * 0.15 ms); when the round is done the pids are read again. A line with
 * 'x' in its permissions and an inode becomes one row the first time its
 * (file, range) is seen, with the pid that had it. A task that exits
 * before its turn is skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "vms.h"
#include "vms-strmap.h"
#include "counters.h"
#include "exec-maps.h"

#define TASKS_PER_POLL 32
#define MAX_CGROUP_DEPTH 16

struct exec_maps {
	struct vms_db *db;
	sqlite3_stmt *insert;
	char *memcg;		/* the cgroup directory */
	struct strmap seen;	/* "dev ino pgoff pages" of the mappings stored */
	long *pids;		/* of the round in progress */
	int npids, alloc, next;
	int page_shift;
	char *line;
	size_t line_alloc;
};

struct exec_maps *exec_maps_new(struct vms_db *db, const char *memcg_dir)
{
	struct exec_maps *em = calloc(1, sizeof(*em));
	long page = sysconf(_SC_PAGESIZE);

	if (!em || !(em->memcg = strdup(memcg_dir))) {
		free(em);
		vms_error("out of memory");
		return NULL;
	}
	em->db = db;
	strmap_init(&em->seen);
	for (em->page_shift = 0; page > 1; page >>= 1)
		em->page_shift++;
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
	strmap_release(&em->seen, NULL);
	free(em->memcg);
	free(em->pids);
	free(em->line);
	free(em);
}

/* Add the pids of @dir/cgroup.procs and of the cgroups below @dir. Return: 0 or -1. */
static int read_pids(struct exec_maps *em, const char *dir, int depth)
{
	char path[4096];
	struct dirent *de;
	long pid;
	FILE *f;
	DIR *d;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "re");
	if (!f)	/* the top one must be readable; a child may have gone meanwhile */
		return depth ? 0 : vms_error("cannot read '%s': %s", path, strerror(errno));
	while (fscanf(f, "%ld", &pid) == 1) {
		if (vms_array_reserve(&em->pids, &em->alloc, em->npids, 64, sizeof(*em->pids))) {
			fclose(f);
			return -1;
		}
		em->pids[em->npids++] = pid;
	}
	fclose(f);
	if (depth >= MAX_CGROUP_DEPTH || !(d = opendir(dir)))
		return 0;
	while (!rc && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) < (int)sizeof(path))
			rc = read_pids(em, path, depth + 1);
	}
	closedir(d);
	return rc;
}

static int store(struct exec_maps *em, uint64_t now, long pid, unsigned long long start,
		 unsigned long long end, unsigned long long offset, unsigned maj, unsigned min,
		 unsigned long long ino, const char *path)
{
	long long dev = (long long)(((uint64_t)maj << 20) | min);
	long long pgoff = (long long)(offset >> em->page_shift);
	long long pages = (long long)((end - start + (1ULL << em->page_shift) - 1) >> em->page_shift);
	struct strmap_entry *e;
	sqlite3_stmt *st = em->insert;
	char key[96];
	int n, r;

	n = snprintf(key, sizeof(key), "%lld %llu %lld %lld", dev, ino, pgoff, pages);
	e = strmap_get(&em->seen, key, (size_t)n);
	if (!e)
		return vms_error("out of memory (exec mappings)");
	if (e->value)
		return 0;	/* stored already (this task's, or another's) */
	e->value = e;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)now);
	sqlite3_bind_int64(st, 2, pid);
	sqlite3_bind_int64(st, 3, dev);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)ino);
	sqlite3_bind_int64(st, 5, pgoff);
	sqlite3_bind_int64(st, 6, pages);
	if (*path)
		sqlite3_bind_text(st, 7, path, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, 7);
	r = sqlite3_step(st);
	sqlite3_reset(st);
	if (r != SQLITE_DONE)
		return vms_error("%s: cannot store an exec mapping: %s", vms_db_path(em->db),
				 sqlite3_errmsg(vms_db_sql(em->db)));
	return 0;
}

/* The executable file mappings of one task. Return: 0 (also when it has gone) or -1. */
static int read_task(struct exec_maps *em, uint64_t now, long pid)
{
	char path[64];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;	/* exited meanwhile */
	while (getline(&em->line, &em->line_alloc, f) > 0) {
		unsigned long long start, end, offset, ino;
		char perms[8];
		unsigned maj, min;
		int name = 0;
		char *p;

		if (sscanf(em->line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &offset,
			   &maj, &min, &ino, &name) < 7 || !ino || !strchr(perms, 'x') || end <= start)
			continue;
		p = em->line + name;
		p[strcspn(p, "\n")] = 0;
		if (store(em, now, pid, start, end, offset, maj, min, ino, p)) {
			rc = -1;
			break;
		}
	}
	fclose(f);
	return rc;
}

int exec_maps_poll(struct exec_maps *em, int all)
{
	uint64_t now = counters_now_ns();
	int i, budget;

	if (!em)
		return 0;
	if (all || em->next >= em->npids) {	/* a new round, from fresh pids */
		em->npids = em->next = 0;
		if (read_pids(em, em->memcg, 0))
			return -1;
	}
	budget = all ? em->npids : TASKS_PER_POLL;
	for (i = 0; i < budget && em->next < em->npids; i++)
		if (read_task(em, now, em->pids[em->next++]))
			return -1;
	return 0;
}
