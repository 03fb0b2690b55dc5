// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup-run.c - run the recorded command inside a memory cgroup: an
 * existing one (record --cgroup PATH), or a temporary one with a limit and
 * a swappiness (record --memory-limit SIZE [--swappiness N]) that is made
 * before the command starts and removed after it, on every exit path the
 * recorder has (done, failure, SIGINT, SIGTERM). cgroup v1 (the memory
 * controller mounted at /sys/fs/cgroup/memory) and v2 (the unified
 * hierarchy at /sys/fs/cgroup with the memory controller enabled).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vms.h"
#include "cgroup-run.h"

#define V1_ROOT "/sys/fs/cgroup/memory"
#define V2_ROOT "/sys/fs/cgroup"

struct memcg_run {
	char path[PATH_MAX];
	char procs[PATH_MAX + 16];	/* path/cgroup.procs, ready for the child */
	int temporary;
	int v2;
};

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The memory controller's root and version. Return: 0, or -1 with vms_error set. */
static int find_root(const char **root, int *v2)
{
	char controllers[512] = "";
	FILE *f;

	if (!access(V1_ROOT "/memory.limit_in_bytes", F_OK)) {
		*root = V1_ROOT;
		*v2 = 0;
		return 0;
	}
	f = fopen(V2_ROOT "/cgroup.controllers", "r");
	if (f) {
		if (!fgets(controllers, sizeof(controllers), f))
			controllers[0] = '\0';
		fclose(f);
	}
	if (strstr(controllers, "memory")) {
		*root = V2_ROOT;
		*v2 = 1;
		return 0;
	}
	return vms_error("no memory cgroup controller: neither %s (cgroup v1) nor the memory "
			 "controller in %s/cgroup.controllers (cgroup v2)", V1_ROOT, V2_ROOT);
}

static int write_file(const char *dir, const char *name, const char *value)
{
	char path[PATH_MAX + 64];
	int fd, n, len = (int)strlen(value);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return vms_error("cannot open %s: %s", path, strerror(errno));
	n = (int)write(fd, value, len);
	if (n != len) {
		int err = n < 0 ? errno : EIO;

		close(fd);
		return vms_error("cannot write '%s' to %s: %s", value, path, strerror(err));
	}
	if (close(fd))
		return vms_error("cannot write '%s' to %s: %s", value, path, strerror(errno));
	return 0;
}

static int configure(struct memcg_run *m, long long limit_bytes, int swappiness)
{
	char value[32];

	if (limit_bytes > 0) {
		snprintf(value, sizeof(value), "%lld", limit_bytes);
		if (write_file(m->path, m->v2 ? "memory.max" : "memory.limit_in_bytes", value))
			return -1;
	}
	if (swappiness >= 0) {
		if (m->v2)
			return vms_error("--swappiness needs cgroup v1 (a v2 memcg has no memory.swappiness)");
		snprintf(value, sizeof(value), "%d", swappiness);
		if (write_file(m->path, "memory.swappiness", value))
			return -1;
	}
	return 0;
}

struct memcg_run *memcg_run_open(const char *path, long long limit_bytes, int swappiness)
{
	struct memcg_run *m;
	const char *root = NULL;

	m = calloc(1, sizeof(*m));
	if (!m) {
		vms_error("out of memory");
		return NULL;
	}
	if (find_root(&root, &m->v2))
		goto fail;
	if (path) {
		int n = path[0] == '/' ? snprintf(m->path, sizeof(m->path), "%s", path) :
			snprintf(m->path, sizeof(m->path), "%s/%s", root, path);

		if (n >= (int)sizeof(m->path)) {
			vms_error("cgroup path too long: '%s'", path);
			goto fail;
		}
		if (!is_dir(m->path)) {
			vms_error("'%s' is not a cgroup directory", m->path);
			goto fail;
		}
		snprintf(m->procs, sizeof(m->procs), "%s/memory.stat", m->path);
		if (access(m->procs, R_OK)) {
			vms_error("'%s' is not a memory cgroup (no readable memory.stat)", m->path);
			goto fail;
		}
	} else {
		snprintf(m->path, sizeof(m->path), "%s/vmscope-record-%d", root, (int)getpid());
		if (mkdir(m->path, 0755)) {
			vms_error("cannot create the memcg %s: %s", m->path, strerror(errno));
			goto fail;
		}
		m->temporary = 1;
		if (configure(m, limit_bytes, swappiness)) {
			char why[1024];

			snprintf(why, sizeof(why), "%s", vms_last_error());
			rmdir(m->path);
			vms_error("%s", why);
			goto fail;
		}
	}
	snprintf(m->procs, sizeof(m->procs), "%s/cgroup.procs", m->path);
	return m;
fail:
	free(m);
	return NULL;
}

const char *memcg_run_path(const struct memcg_run *m)
{
	return m->path;
}

int memcg_run_enter(const struct memcg_run *m)
{
	char pid[24];
	int fd, len, ok;

	len = snprintf(pid, sizeof(pid), "%d", (int)getpid());
	fd = open(m->procs, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, pid, len) == len;
	if (close(fd))
		ok = 0;
	return ok ? 0 : -1;
}

/* Kill what is left in the memcg. Return: how many tasks were still there. */
static int kill_leftovers(const struct memcg_run *m)
{
	FILE *f = fopen(m->procs, "r");
	int pid, n = 0;

	if (!f)
		return 0;
	while (fscanf(f, "%d", &pid) == 1) {
		if (pid > 0 && pid != getpid())
			kill(pid, SIGKILL);
		n++;
	}
	fclose(f);
	return n;
}

int memcg_run_close(struct memcg_run *m)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	int tries, rc = 0;

	if (!m)
		return 0;
	if (m->temporary) {
		/* tasks leave a cgroup only once they are reaped: up to ~5 s */
		for (tries = 0; rmdir(m->path) && errno == EBUSY && tries < 250; tries++) {
			kill_leftovers(m);
			nanosleep(&tick, NULL);
		}
		if (is_dir(m->path))
			rc = vms_error("cannot remove the memcg %s: %s (remove it with rmdir once its "
				       "tasks have exited)", m->path, strerror(errno));
	}
	free(m);
	return rc;
}
