// SPDX-License-Identifier: GPL-2.0
/*
 * instance.c - the tracefs ring buffer a live recording reads (live.c uses
 * it): a private instance created for the recording and removed after it,
 * or a borrowed buffer (an instance made ahead of time, or the top-level
 * buffer) whose state is saved first and restored at the end, so that it is
 * left as it was found. Borrowing is for a machine short of memory: making
 * an instance allocates a ring buffer, which the kernel refuses (ENOMEM)
 * when its available memory is below the size asked (ring_buffer's
 * si_mem_available() check), while a buffer that exists already can be read.
 *
 * A buffer has one reader: each event goes to whichever reader consumes its
 * page first. So a borrowed buffer that another process reads (trace_pipe,
 * a CPU's trace_pipe_raw: `cat trace_pipe`, `trace-cmd record`) is refused;
 * the readers are found by their open files in /proc/PID/fd.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "vms.h"
#include "instance.h"

/* Whether @rest is "trace_pipe" or "per_cpu/cpuN/trace_pipe[_raw]". */
static int is_pipe(const char *rest)
{
	if (!strcmp(rest, "trace_pipe"))
		return 1;
	if (strncmp(rest, "per_cpu/cpu", 11) || !isdigit((unsigned char)rest[11]))
		return 0;
	for (rest += 11; isdigit((unsigned char)*rest); rest++)
		;
	return !strcmp(rest, "/trace_pipe_raw") || !strcmp(rest, "/trace_pipe");
}

/* Whether the file @link names is a reading end of @instance (NULL: top level). */
static int reads_buffer(const char *link, const char *instance)
{
	const char *const roots[] = { tracefs_tracing_dir(), "/sys/kernel/tracing",
				      "/sys/kernel/debug/tracing" };
	char prefix[4200];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		size_t n;

		if (!roots[i])
			continue;
		if (instance)
			snprintf(prefix, sizeof(prefix), "%s/instances/%s/", roots[i], instance);
		else
			snprintf(prefix, sizeof(prefix), "%s/", roots[i]);
		n = strlen(prefix);
		if (!strncmp(link, prefix, n) && is_pipe(link + n))
			return 1;
	}
	return 0;
}

/* Whether process @pid has a reading end of @instance open. */
static int pid_reads(const char *pid, const char *instance)
{
	char dir[64], path[600], link[4200];
	struct dirent *d;
	int found = 0;
	DIR *fds;

	snprintf(dir, sizeof(dir), "/proc/%s/fd", pid);
	fds = opendir(dir);
	if (!fds)
		return 0;	/* gone, or a kernel thread */
	while (!found && (d = readdir(fds))) {
		ssize_t n;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		found = reads_buffer(link, instance);
	}
	closedir(fds);
	return found;
}

int trace_buffer_reader(struct tracefs_instance *instance, int self, char *comm, int comm_len)
{
	const char *name = instance ? tracefs_instance_get_name(instance) : NULL;
	struct dirent *d;
	int found = 0;
	DIR *proc = opendir("/proc");

	if (!proc)
		return -1;
	while (!found && (d = readdir(proc))) {
		if (!isdigit((unsigned char)d->d_name[0]) || atoi(d->d_name) == self)
			continue;
		if (pid_reads(d->d_name, name))
			found = atoi(d->d_name);
	}
	closedir(proc);
	if (found && comm && comm_len > 0) {
		char path[64];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/comm", found);
		comm[0] = '\0';
		f = fopen(path, "r");
		if (f) {
			if (fgets(comm, comm_len, f))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
	}
	return found;
}

/* Save what the recording changes in a borrowed buffer. */
static int save_state(struct trace_buffer *b)
{
	b->clock = tracefs_get_clock(b->instance);
	b->tracing_on = tracefs_trace_is_on(b->instance);
	b->size_kb = tracefs_instance_get_buffer_size(b->instance, 0);
	if (tracefs_file_exists(b->instance, "set_event_notrace_pid")) {
		b->notrace_pid = tracefs_instance_file_read(b->instance, "set_event_notrace_pid", NULL);
		if (!b->notrace_pid)
			b->notrace_pid = strdup("");
		if (!b->notrace_pid)
			return vms_error("out of memory");
	}
	if (!b->clock)
		return vms_error("cannot read the trace clock of the %s: %s", b->name, strerror(errno));
	return 0;
}

int trace_buffer_open(struct trace_buffer *b, const char *name, int top_level, int pid)
{
	char comm[64];
	int reader;

	memset(b, 0, sizeof(*b));
	b->size_kb = -1;
	if (!name && !top_level) {
		snprintf(b->name, sizeof(b->name), "vmscope-%d", pid);
		b->instance = tracefs_instance_create(b->name);
		if (!b->instance) {
			int err = errno;

			if (err == ENOMEM)
				return vms_error("cannot create tracefs instance '%s': %s (the kernel cannot "
						 "allocate a ring buffer now, memory is short: record into an "
						 "instance made ahead of time with --instance NAME, or into the "
						 "top-level buffer with --top-level)", b->name, strerror(err));
			return vms_error("cannot create tracefs instance '%s': %s", b->name,
					 strerror(err));
		}
		b->owned = b->opened = 1;
		snprintf(b->name, sizeof(b->name), "tracefs instance 'vmscope-%d'", pid);
		return 0;
	}
	if (name) {
		snprintf(b->name, sizeof(b->name), "tracefs instance '%s'", name);
		if (!*name || strchr(name, '/') || !tracefs_instance_exists(name))
			return vms_error("no %s (make it ahead of time with 'mkdir %s/instances/%s')",
					 b->name, tracefs_tracing_dir(), name);
		b->instance = tracefs_instance_alloc(NULL, name);
		if (!b->instance)
			return vms_error("cannot open the %s: %s", b->name, strerror(errno));
	} else {
		snprintf(b->name, sizeof(b->name), "top-level buffer");
	}
	reader = trace_buffer_reader(b->instance, pid, comm, sizeof(comm));
	if (reader < 0) {
		vms_error("cannot read /proc to look for other readers of the %s: %s", b->name,
			  strerror(errno));
		goto fail;
	}
	if (reader) {
		vms_error("the %s is being read by process %d (%s): two readers would split its "
			  "events between them; stop it, or record elsewhere", b->name, reader, comm);
		goto fail;
	}
	if (save_state(b))
		goto fail;
	b->opened = 1;
	return 0;
fail:
	/* nothing was changed in it */
	tracefs_instance_free(b->instance);
	free(b->clock);
	free(b->notrace_pid);
	memset(b, 0, sizeof(*b));
	return -1;
}

int trace_buffer_resize(struct trace_buffer *b, unsigned int want_kb, long *got_kb)
{
	long have = tracefs_instance_get_buffer_size(b->instance, 0);
	unsigned int kb = want_kb;

	*got_kb = have;
	if (!want_kb)
		return 0;
	for (;;) {
		if (!tracefs_instance_set_buffer_size(b->instance, kb, -1)) {
			b->resized = 1;
			break;
		}
		if (errno != ENOMEM)
			return vms_error("cannot set the ring buffer of the %s to %u KiB per CPU: %s",
					 b->name, kb, strerror(errno));
		kb /= 2;
		if (kb < 4 || (have > 0 && kb <= (unsigned long)have))
			break;	/* no more than it has: keep that */
	}
	*got_kb = tracefs_instance_get_buffer_size(b->instance, 0);
	return 0;
}

/* @all minus the lines of @before, each line once. Caller frees. */
static char *lines_not_in(const char *all, const char *before)
{
	char *out = calloc(1, strlen(all) + 1), *o = out;
	const char *line, *next;

	if (!out)
		return NULL;
	for (line = all; *line; line = next) {
		size_t n = strcspn(line, "\n");
		const char *p;
		int seen = 0;

		next = line[n] ? line + n + 1 : line + n;
		for (p = before; p && *p && !seen; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0))
			seen = strcspn(p, "\n") == n && !strncmp(p, line, n);
		if (n && !seen) {
			memcpy(o, line, n);
			o += n;
			*o++ = '\n';
		}
	}
	return out;
}

int trace_buffer_note_events(struct trace_buffer *b, int after)
{
	char *now;

	if (b->owned)
		return 0;	/* removed with its events */
	now = tracefs_instance_file_read(b->instance, "set_event", NULL);
	if (!now && !(now = strdup("")))
		return vms_error("out of memory");
	if (!after) {
		free(b->events_before);
		b->events_before = now;
		return 0;
	}
	free(b->events_ours);
	b->events_ours = lines_not_in(now, b->events_before ? b->events_before : "");
	free(now);
	return b->events_ours ? 0 : vms_error("out of memory");
}

/* Disable the events the recording enabled ("system:event" lines). */
static void disable_ours(struct trace_buffer *b)
{
	char *line, *next;

	for (line = b->events_ours; line && *line; line = next) {
		char *colon;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		colon = strchr(line, ':');
		if (colon) {
			*colon = '\0';
			if (tracefs_event_disable(b->instance, line, colon + 1))
				vms_warning("cannot disable trace event '%s:%s' in the %s", line,
					    colon + 1, b->name);
		}
	}
}

void trace_buffer_close(struct trace_buffer *b)
{
	if (!b->opened)
		return;
	tracefs_trace_off(b->instance);
	if (b->owned) {
		tracefs_event_disable(b->instance, NULL, NULL);
		if (tracefs_instance_destroy(b->instance))
			vms_warning("cannot remove %s: remove it with rmdir", b->name);
	} else {
		disable_ours(b);
		if (b->resized && b->size_kb > 0 &&
		    tracefs_instance_set_buffer_size(b->instance, b->size_kb, -1))
			vms_warning("cannot give the %s its size back (%ld KiB per CPU): %s", b->name,
				    b->size_kb, strerror(errno));
		if (b->clock) {
			char *clock = tracefs_get_clock(b->instance);

			if ((!clock || strcmp(clock, b->clock)) &&
			    tracefs_instance_file_write(b->instance, "trace_clock", b->clock) < 0)
				vms_warning("cannot set the trace clock of the %s back to %s", b->name,
					    b->clock);
			free(clock);
		}
		if (b->notrace_pid) {
			int rc = *b->notrace_pid ?
				 tracefs_instance_file_write(b->instance, "set_event_notrace_pid",
							     b->notrace_pid) < 0 :
				 tracefs_instance_file_clear(b->instance, "set_event_notrace_pid");

			if (rc)
				vms_warning("cannot restore set_event_notrace_pid of the %s", b->name);
		}
		if (b->tracing_on > 0)
			tracefs_trace_on(b->instance);
	}
	tracefs_instance_free(b->instance);
	free(b->clock);
	free(b->notrace_pid);
	free(b->events_before);
	free(b->events_ours);
	memset(b, 0, sizeof(*b));
}

int trace_buffer_left_by(int pid, char *name, size_t len)
{
	snprintf(name, len, "vmscope-%d", pid);
	return tracefs_instance_exists(name);
}

int trace_buffer_remove(const char *name, long *kb)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	int rc;

	if (!inst)
		return vms_error("cannot open tracefs instance '%s': %s", name, strerror(errno));
	*kb = tracefs_instance_get_buffer_size(inst, 0);
	tracefs_trace_off(inst);
	tracefs_event_disable(inst, NULL, NULL);
	rc = tracefs_instance_destroy(inst);
	if (rc)
		rc = vms_error("cannot remove tracefs instance '%s': %s", name, strerror(errno));
	tracefs_instance_free(inst);
	return rc;
}
