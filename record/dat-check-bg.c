// SPDX-License-Identifier: GPL-2.0
/*
 * dat-check-bg.c - run the layout check of a .dat file (dat-check.c) in a
 * process of its own while the reader decodes the same file, instead of
 * after it: on a 4.6M-event zstd file the check decompresses and walks
 * every sub-buffer again, half a second at the end of the import that the
 * other CPU can spend at the same time (import-dat.c's reader starts it).
 *
 * How it works: dat_check_start() forks; the child runs dat_check_file()
 * with the reader's event formats (its copy), keeps the damaged places it
 * reports in order, and writes on a pipe: the return code (and vms_error's
 * message when it is -1), the records per buffer and CPU, then every damaged
 * place. dat_check_finish() reads that, calls the caller's callback for each
 * damaged place in the same order as dat_check_file() would have, and
 * returns what it returned. A child that could not be started, or that ended
 * without writing everything, changes nothing: the check then runs here, as
 * before. The child keeps only its pipe open, writes only to it and ends
 * with _exit().
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vms.h"
#include "dat-check.h"

struct dat_check_job {
	pid_t pid;
	int fd;				/* the read end of the child's pipe */
};

/* The child's damaged places, in the order dat_check_file() reported them. */
struct kept {
	struct vms_buf b;		/* serialized: see keep_damage() */
	unsigned int n;
	int oom;
};

static int keep_damage(void *arg, const char *buffer, int cpu, long long offset, long long lost,
		       const char *what)
{
	struct kept *k = arg;
	unsigned int nb = (unsigned int)strlen(buffer), nw = (unsigned int)strlen(what);

	if (vms_buf_add(&k->b, (const char *)&cpu, sizeof(cpu)) ||
	    vms_buf_add(&k->b, (const char *)&offset, sizeof(offset)) ||
	    vms_buf_add(&k->b, (const char *)&lost, sizeof(lost)) ||
	    vms_buf_add(&k->b, (const char *)&nb, sizeof(nb)) || vms_buf_add(&k->b, buffer, nb) ||
	    vms_buf_add(&k->b, (const char *)&nw, sizeof(nw)) || vms_buf_add(&k->b, what, nw)) {
		k->oom = 1;
		return -1;
	}
	k->n++;
	return 0;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n)
{
	char *c = p;

	while (n) {
		ssize_t r = read(fd, c, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

/* The child: check, write everything, end. */
static void __attribute__((noreturn)) run_child(int fd, const char *path, struct tep_handle *tep)
{
	struct kept k = { .n = 0 };
	struct dat_check chk;
	unsigned long long ncpus;
	unsigned int len = 0;
	const char *msg = "";
	int rc;

	rc = dat_check_file(path, tep, &chk, keep_damage, &k);
	if (k.oom)
		_exit(1);	/* the parent checks again itself */
	if (rc < 0) {
		msg = vms_last_error();
		len = (unsigned int)strlen(msg);
	}
	ncpus = rc ? 0 : chk.ncpus;
	if (write_all(fd, &rc, sizeof(rc)) || write_all(fd, &len, sizeof(len)) ||
	    write_all(fd, msg, len) || write_all(fd, &ncpus, sizeof(ncpus)) ||
	    (ncpus && write_all(fd, chk.cpus, ncpus * sizeof(*chk.cpus))) ||
	    write_all(fd, &k.n, sizeof(k.n)) || write_all(fd, k.b.buf, k.b.len))
		_exit(1);
	_exit(0);
}

struct dat_check_job *dat_check_start(const char *path, struct tep_handle *tep)
{
	struct dat_check_job *job = malloc(sizeof(*job));
	int fds[2];

	if (!job)
		return NULL;
	if (pipe(fds)) {
		free(job);
		return NULL;
	}
	fflush(NULL);
	job->pid = fork();
	if (job->pid == 0) {
		/*
		 * Only the pipe stays open (on fd 3): the reader's socket held
		 * here would hide the reader's end from the importing process.
		 */
		close(fds[0]);
		if (fds[1] != 3 && (dup2(fds[1], 3) < 0 || close(fds[1])))
			_exit(1);
		close_range(4, ~0U, 0);
		run_child(3, path, tep);
	}
	close(fds[1]);
	if (job->pid < 0) {
		close(fds[0]);
		free(job);
		return NULL;
	}
	job->fd = fds[0];
	return job;
}

/* Read the child's result into @out and replay its damaged places. Return: as dat_check_file(), or -2 (no result). */
static int take_result(struct dat_check_job *job, struct dat_check *out, dat_damage_fn damage,
		       void *arg)
{
	unsigned long long ncpus;
	unsigned int len, n;
	char *msg = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (read_all(job->fd, &rc, sizeof(rc)) || read_all(job->fd, &len, sizeof(len)) ||
	    len > 65536 || !(msg = calloc(1, len + 1)) || read_all(job->fd, msg, len) ||
	    read_all(job->fd, &ncpus, sizeof(ncpus)) || ncpus > (1u << 24))
		goto bad;
	if (ncpus && (!(out->cpus = calloc(ncpus, sizeof(*out->cpus))) ||
		      read_all(job->fd, out->cpus, ncpus * sizeof(*out->cpus))))
		goto bad;
	out->ncpus = (size_t)ncpus;
	if (read_all(job->fd, &n, sizeof(n)))
		goto bad;
	/* everything is read before the first damage is reported: a short result changes nothing */
	{
		struct vms_buf all = { 0 };
		char chunk[4096];
		ssize_t r;

		while ((r = read(job->fd, chunk, sizeof(chunk))) != 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 || vms_buf_add(&all, chunk, (size_t)r)) {
				vms_buf_release(&all);
				goto bad;
			}
		}
		{
			const char *p = all.buf, *end = all.buf + all.len;
			unsigned int i;
			int drc = 0;

			/* check the whole stream first */
			for (i = 0; i < n; i++) {
				unsigned int nb, nw;

				if (end - p < (long)(sizeof(int) + 2 * sizeof(long long) + sizeof(nb)))
					break;
				memcpy(&nb, p + sizeof(int) + 2 * sizeof(long long), sizeof(nb));
				p += sizeof(int) + 2 * sizeof(long long) + sizeof(nb);
				if ((size_t)(end - p) < nb + sizeof(nw))
					break;
				memcpy(&nw, p + nb, sizeof(nw));
				p += nb + sizeof(nw);
				if ((size_t)(end - p) < nw)
					break;
				p += nw;
			}
			if (i < n || p != end) {
				vms_buf_release(&all);
				goto bad;
			}
			p = all.buf;
			for (i = 0; i < n && !drc; i++) {
				char buffer[256], what[4096];
				long long offset, lost;
				unsigned int nb, nw;
				int cpu;

				memcpy(&cpu, p, sizeof(cpu));
				memcpy(&offset, p + sizeof(int), sizeof(offset));
				memcpy(&lost, p + sizeof(int) + sizeof(long long), sizeof(lost));
				memcpy(&nb, p + sizeof(int) + 2 * sizeof(long long), sizeof(nb));
				p += sizeof(int) + 2 * sizeof(long long) + sizeof(nb);
				snprintf(buffer, sizeof(buffer), "%.*s", (int)nb, p);
				p += nb;
				memcpy(&nw, p, sizeof(nw));
				p += sizeof(nw);
				snprintf(what, sizeof(what), "%.*s", (int)nw, p);
				p += nw;
				drc = damage(arg, buffer, cpu, offset, lost, what);
			}
			vms_buf_release(&all);
			if (drc) {
				free(msg);
				return -1;
			}
		}
	}
	if (rc < 0)
		vms_error("%s", msg);
	free(msg);
	return rc;
bad:
	free(msg);
	dat_check_release(out);
	return -2;
}

int dat_check_finish(struct dat_check_job *job, const char *path, struct tep_handle *tep,
		     struct dat_check *out, dat_damage_fn damage, void *arg)
{
	int rc = -2, status = 0;

	if (job) {
		rc = take_result(job, out, damage, arg);
		close(job->fd);
		if (rc == -2)
			kill(job->pid, SIGKILL);
		while (waitpid(job->pid, &status, 0) < 0 && errno == EINTR)
			;
		/* a child that ended badly after writing has still written all of it */
		free(job);
	}
	if (rc != -2)
		return rc;
	return dat_check_file(path, tep, out, damage, arg);
}

void dat_check_abandon(struct dat_check_job *job)
{
	if (!job)
		return;
	kill(job->pid, SIGKILL);
	close(job->fd);
	while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR)
		;
	free(job);
}
