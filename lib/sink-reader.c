// SPDX-License-Identifier: GPL-2.0
/*
 * sink-reader.c - run a decoder in a reader process and store what it
 * decodes in this one (vms_sink_run_reader()). The .dat importer reads
 * through libtracecmd there: a damaged file can make libtracecmd fault, and a
 * fault then ends only the reader, while this process, which alone holds the
 * database connection, keeps every record the reader completed and finishes
 * the run.
 *
 * How it works: before the fork, two buffers of READER_BUF bytes are mapped
 * shared, and a socket pair opened. In the reader the sink is in reader mode:
 * each call that stores something (a row from vms_sink_begin() to
 * vms_sink_end(), vms_sink_task(), vms_sink_lost(), vms_sink_import_error(),
 * vms_sink_message()) is serialized as one record into the buffer being
 * filled, and once the record is complete its end is published in
 * shared->done[k]. A buffer past BATCH_BYTES is handed over ("buffer k holds
 * n bytes" on the socket) and the reader goes on in the other one, waiting
 * for the parent's ack while the parent still has it. The parent replays each
 * record it is handed into its own sink, checking every table id, column
 * and length (the reader's memory is not trusted after a fault), and acks the
 * buffer. When the socket reaches its end the reader has ended, however it
 * ended: the records published in the buffer it was filling are replayed too.
 * No signal handler is involved; the reader dumps no core. A socket pair
 * rather than pipes: writing to a reader that has ended is an error
 * (MSG_NOSIGNAL), not a SIGPIPE for this process.
 *
 * Records: u8 op, then
 *   R_ROW    u16 table, u64 ts, i32 cpu, i32 pid, u16 n + event (n bytes
 *            with its NUL), u16 n + system (0xffff: none), the fields as in a
 *            serialized row (sink-local.h) up to Q_END;
 *   R_TASK   i32 pid, u64 ts, u16 n, comm;
 *   R_LOST   i32 cpu, u64 ts, i64 count, u16 n + source (with its NUL);
 *   R_ERROR  i64 line, i64 offset, u16 n + reason (with NUL), u32 n + text
 *            (0xffffffff: none);
 *   R_MSG    i32 type, u32 n, data;
 *   R_FAIL   u16 n + message: the reader's error (with NUL);
 *   R_TABLE  u16 table id, u16 n + system, u16 n + event, u16 n + source,
 *            u16 fields, then per field u8 is_text, u16 n + name: a table
 *            the reader generated (sink-generate.c), made here under its id.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sink-local.h"

enum { R_ROW = 1, R_TASK, R_LOST, R_ERROR, R_MSG, R_FAIL, R_TABLE };

struct handover {
	unsigned int k;			/* buffer */
	unsigned int len;		/* bytes of records in it */
};

void sink_reader_put(struct vms_sink *s, const void *p, size_t n)
{
	struct sink_reader *r = s->reader;

	if (!n)
		return;
	if (r->overflow || n > READER_BUF - r->len) {
		r->overflow = 1;
		s->oom = 1;
		return;
	}
	memcpy(r->sh->buf[r->k] + r->len, p, n);
	r->len += n;
}

static inline void put_u8(struct vms_sink *s, unsigned char v)
{
	sink_q_put(s, &v, 1);
}

static inline void put_u16(struct vms_sink *s, unsigned short v)
{
	sink_q_put(s, &v, sizeof(v));
}

static void put_str(struct vms_sink *s, const char *str)
{
	size_t n = str ? strlen(str) + 1 : 0xffff;

	if (n > 0xffff) {
		put_u16(s, 0xfffe);
		sink_q_put(s, str, 0xfffd);
		put_u8(s, 0);
		return;
	}
	put_u16(s, (unsigned short)n);
	if (str)
		sink_q_put(s, str, n);
}

static void record_start(struct vms_sink *s, unsigned char op)
{
	s->reader->start = s->reader->len;
	s->reader->overflow = 0;
	put_u8(s, op);
}

/* Hand buffer k over and wait until the other one is free. Return: 0 or -1. */
static int hand_over(struct sink_reader *r)
{
	struct handover h = { (unsigned int)r->k, (unsigned int)r->len };

	if (send(r->fd, &h, sizeof(h), MSG_NOSIGNAL) != sizeof(h))
		return vms_error("the importing process is gone");
	r->busy[r->k] = 1;
	r->k ^= 1;
	r->len = 0;
	while (r->busy[r->k]) {
		unsigned int k;

		ssize_t n = recv(r->fd, &k, sizeof(k), MSG_WAITALL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(k) || k > 1)
			return vms_error("the importing process is gone");
		r->busy[k] = 0;
	}
	return 0;
}

/* The record is complete: publish it. Return: 0, or -1 (too large, or the parent is gone). */
static int record_done(struct vms_sink *s)
{
	struct sink_reader *r = s->reader;

	if (r->overflow) {
		r->len = r->start;
		r->overflow = 0;
		s->oom = 0;
		return vms_error("a record of more than %u bytes", READER_BUF - BATCH_BYTES);
	}
	__atomic_store_n(&r->sh->done[r->k], r->len, __ATOMIC_RELEASE);
	return r->len >= BATCH_BYTES ? hand_over(r) : 0;
}

void sink_reader_begin(struct vms_sink *s, struct vms_table *t, const char *system,
		       const char *event, uint64_t ts, int cpu, int pid)
{
	unsigned short id = (unsigned short)t->id;

	record_start(s, R_ROW);
	put_u16(s, id);
	sink_q_put(s, &ts, sizeof(ts));
	sink_q_put(s, &cpu, sizeof(cpu));
	sink_q_put(s, &pid, sizeof(pid));
	put_str(s, event);
	put_str(s, system);
}

int sink_reader_done(struct vms_sink *s)
{
	return record_done(s);
}

void sink_reader_abandon(struct vms_sink *s)
{
	s->reader->len = s->reader->start;
	s->reader->overflow = 0;
}

void sink_reader_task(struct vms_sink *s, int pid, const char *comm, size_t len, uint64_t ts)
{
	unsigned short n = len > 255 ? 255 : (unsigned short)len;

	record_start(s, R_TASK);
	sink_q_put(s, &pid, sizeof(pid));
	sink_q_put(s, &ts, sizeof(ts));
	put_u16(s, n);
	sink_q_put(s, comm, n);
	/* a task's counts are not worth failing the import for */
	record_done(s);
}

int sink_reader_lost(struct vms_sink *s, int cpu, uint64_t ts, long long count, const char *source)
{
	record_start(s, R_LOST);
	sink_q_put(s, &cpu, sizeof(cpu));
	sink_q_put(s, &ts, sizeof(ts));
	sink_q_put(s, &count, sizeof(count));
	put_str(s, source);
	return record_done(s);
}

int sink_reader_error(struct vms_sink *s, long long line, long long offset, const char *reason,
		      const char *text, size_t len)
{
	unsigned int n = text ? (unsigned int)(len > 512 ? 512 : len) : 0xffffffff;

	record_start(s, R_ERROR);
	sink_q_put(s, &line, sizeof(line));
	sink_q_put(s, &offset, sizeof(offset));
	put_str(s, reason);
	sink_q_put(s, &n, sizeof(n));
	if (text)
		sink_q_put(s, text, n);
	return record_done(s);
}

int vms_sink_message(struct vms_sink *s, int type, const void *data, size_t len)
{
	unsigned int n = (unsigned int)len;

	if (!s->reader)
		return vms_error("vms_sink_message() outside a reader");
	record_start(s, R_MSG);
	sink_q_put(s, &type, sizeof(type));
	sink_q_put(s, &n, sizeof(n));
	sink_q_put(s, data, len);
	return record_done(s);
}

int sink_reader_table(struct vms_sink *s, const struct vms_table *t, const char *system,
		      const char *event, const struct vms_field_desc *f, int n, const char *source)
{
	int i;

	record_start(s, R_TABLE);
	put_u16(s, (unsigned short)t->id);
	put_str(s, system);
	put_str(s, event);
	put_str(s, source);
	put_u16(s, (unsigned short)n);
	for (i = 0; i < n; i++) {
		put_u8(s, f[i].is_text ? 1 : 0);
		put_str(s, f[i].name);
	}
	return record_done(s);
}

/* --- the parent: replaying records --- */

struct replay {
	struct vms_sink *s;
	int (*on_message)(void *arg, int type, const void *data, size_t len);
	void *arg;
	char fail[1024];		/* the reader's R_FAIL message, "" if none */
	const char *p, *end;		/* the records left */
	int bad;			/* a record was malformed */
};

/* Take @n bytes; NULL (and rp->bad) when fewer are left. */
static const char *take(struct replay *rp, size_t n)
{
	const char *at = rp->p;

	if (rp->bad || (size_t)(rp->end - rp->p) < n) {
		rp->bad = 1;
		return NULL;
	}
	rp->p += n;
	return at;
}

#define TAKE(rp, var) do {						\
		const char *at_ = take(rp, sizeof(var));		\
		if (!at_)						\
			return -1;					\
		memcpy(&(var), at_, sizeof(var));			\
	} while (0)

/* A string written by put_str(): NUL-terminated, or NULL for none. Return: 0 or -1. */
static int take_str(struct replay *rp, const char **out)
{
	unsigned short n;

	TAKE(rp, n);
	if (n == 0xffff) {
		*out = NULL;
		return 0;
	}
	if (!n || !(*out = take(rp, n)) || (*out)[n - 1])
		return rp->bad = 1, -1;
	return 0;
}

/* Replay an R_ROW. Return: 0, or -1 (rp->bad: malformed; else a sink failure, vms_error set). */
static int replay_row(struct replay *rp)
{
	struct vms_sink *s = rp->s;
	const char *event, *system, *fields;
	struct vms_table *t;
	unsigned short id;
	uint64_t ts;
	int cpu, pid;

	TAKE(rp, id);
	TAKE(rp, ts);
	TAKE(rp, cpu);
	TAKE(rp, pid);
	if (take_str(rp, &event) || !event || take_str(rp, &system) || id >= s->ntables)
		return rp->bad = 1, -1;
	t = s->by_id[id];
	/* check the fields, then pass them on as they are: no call per field */
	fields = rp->p;
	for (;;) {
		const char *at = take(rp, sizeof(unsigned short));
		unsigned short col;
		unsigned int n;

		if (!at)
			return -1;
		memcpy(&col, at, sizeof(col));
		if (col == Q_END)
			break;
		if (col < COMMON_COLUMNS || col >= t->ncols || !(at = take(rp, 1)))
			return rp->bad = 1, -1;
		if (col == t->event_col)
			sink_bins_spoil(s, t);
		if (*at == Q_INT) {
			if (!take(rp, sizeof(long long)))
				return -1;
		} else if (*at != Q_TEXT || !(at = take(rp, sizeof(n))) ||
			   (memcpy(&n, at, sizeof(n)), !take(rp, n))) {
			return rp->bad = 1, -1;
		}
	}
	vms_sink_begin(s, t, system, event, ts, cpu, pid);
	return sink_end_serialized(s, fields, rp->p - fields);
}

/* Replay an R_TABLE: make the table under the reader's id. Return: 0 or -1. */
static int replay_table(struct replay *rp)
{
	const char *system, *event, *source;
	struct vms_field_desc f[1000];
	struct vms_table *t;
	unsigned short id, n, i;

	TAKE(rp, id);
	if (take_str(rp, &system) || take_str(rp, &event) || take_str(rp, &source) ||
	    !system || !event || !source)
		return rp->bad = 1, -1;
	TAKE(rp, n);
	if (n > sizeof(f) / sizeof(f[0]) || id != rp->s->ntables)
		return rp->bad = 1, -1;
	for (i = 0; i < n; i++) {
		unsigned char is_text;

		TAKE(rp, is_text);
		if (take_str(rp, &f[i].name) || !f[i].name)
			return rp->bad = 1, -1;
		f[i].is_text = is_text;
	}
	t = sink_generate_table(rp->s, system, event, f, n, source);
	if (!t)
		return -1;
	if (t->id != id)
		return rp->bad = 1, -1;
	return 0;
}

static int replay_task(struct replay *rp)
{
	unsigned short n;
	const char *comm;
	uint64_t ts;
	int pid;

	TAKE(rp, pid);
	TAKE(rp, ts);
	TAKE(rp, n);
	if (!(comm = take(rp, n)))
		return -1;
	vms_sink_task(rp->s, pid, comm, n, ts);
	return 0;
}

static int replay_lost(struct replay *rp)
{
	const char *source;
	long long count;
	uint64_t ts;
	int cpu;

	TAKE(rp, cpu);
	TAKE(rp, ts);
	TAKE(rp, count);
	if (take_str(rp, &source) || !source)
		return rp->bad = 1, -1;
	return vms_sink_lost(rp->s, cpu, ts, count, source);
}

static int replay_error(struct replay *rp)
{
	long long line, offset;
	const char *reason, *text = NULL;
	unsigned int n;

	TAKE(rp, line);
	TAKE(rp, offset);
	if (take_str(rp, &reason) || !reason)
		return rp->bad = 1, -1;
	TAKE(rp, n);
	if (n != 0xffffffff && !(text = take(rp, n)))
		return -1;
	return vms_sink_import_error(rp->s, line, offset, reason, text, text ? n : 0);
}

static int replay_message(struct replay *rp)
{
	const char *data;
	unsigned int n;
	int type;

	TAKE(rp, type);
	TAKE(rp, n);
	if (!(data = take(rp, n)))
		return -1;
	if (!rp->on_message)
		return 0;
	/* the rows before it are written first: on_message() may use the connection */
	return sink_flush(rp->s) ? -1 : rp->on_message(rp->arg, type, data, n);
}

/*
 * Replay the @len bytes of records at @buf into rp->s.
 * Return: 0, or -1 (vms_error set: a sink failure, a failure of
 * on_message(), or a malformed record).
 */
static int replay(struct replay *rp, const char *buf, size_t len)
{
	int rc = 0;

	rp->p = buf;
	rp->end = buf + len;
	while (!rc && rp->p < rp->end) {
		const char *fail;

		switch (*rp->p++) {
		case R_ROW:
			rc = replay_row(rp);
			break;
		case R_TASK:
			rc = replay_task(rp);
			break;
		case R_LOST:
			rc = replay_lost(rp);
			break;
		case R_ERROR:
			rc = replay_error(rp);
			break;
		case R_MSG:
			rc = replay_message(rp);
			break;
		case R_TABLE:
			rc = replay_table(rp);
			break;
		case R_FAIL:
			rc = take_str(rp, &fail);
			if (!rc && fail)
				snprintf(rp->fail, sizeof(rp->fail), "%s", fail);
			break;
		default:
			rp->bad = 1;
			rc = -1;
		}
	}
	if (rp->bad)
		return vms_error("the reader process sent a malformed record");
	return rc;
}

/* read() until @len bytes or the end. Return: bytes read, or -1. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(fd, (char *)buf + got, len - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : (ssize_t)got;
		got += n;
	}
	return got;
}

/* In the reader: run @read with @s in reader mode, then end the process. */
static void __attribute__((noreturn)) reader_main(struct vms_sink *s, struct sink_reader *r,
						  int (*decode)(struct vms_sink *s, void *arg),
						  void *arg)
{
	struct rlimit no_core = { 0, 0 };
	int rc;

	/*
	 * A fault in the reader is expected with damaged files: it ends the
	 * reader plainly (no core file, and no sanitizer's handler turning it
	 * into an exit status); the parent reports it.
	 */
	setrlimit(RLIMIT_CORE, &no_core);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	s->reader = r;
	rc = decode(s, arg);
	if (rc) {
		record_start(s, R_FAIL);
		put_str(s, vms_last_error());
		record_done(s);
	}
	/* _exit(): no atexit handlers, no stdio buffers of the parent flushed twice */
	_exit(rc ? 1 : 0);
}

int vms_sink_run_reader(struct vms_sink *s, int (*decode)(struct vms_sink *s, void *arg),
			int (*on_message)(void *arg, int type, const void *data, size_t len),
			void *arg, int *sig)
{
	struct replay rp = { .s = s, .on_message = on_message, .arg = arg };
	int sv[2] = { -1, -1 }, status = 0, k = 0, acks = 1, rc = 0;
	struct sink_shared *sh;
	struct handover h;
	ssize_t n;
	pid_t pid;

	*sig = 0;
	if (s->async || s->reader)
		return vms_error("vms_sink_run_reader(): the sink must be synchronous");
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return vms_error("cannot map the reader's buffers: %s", strerror(errno));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		rc = vms_error("cannot make the reader's socket pair: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		rc = vms_error("cannot start the reader process: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		struct sink_reader r = { .sh = sh, .fd = sv[1] };

		close(sv[0]);
		reader_main(s, &r, decode, arg);
	}
	close(sv[1]);
	sv[1] = -1;
	/* the rows the reader hands over are written on the sink's writer thread */
	rc = vms_sink_set_async(s, 1);
	while (!rc && (n = read_full(sv[0], &h, sizeof(h))) == sizeof(h)) {
		if (h.k != (unsigned int)k || h.len > READER_BUF) {
			rc = vms_error("the reader process sent a malformed record");
			break;
		}
		rc = replay(&rp, sh->buf[k], h.len);
		sh->done[k] = 0;
		/* a reader that has ended needs no ack: the end of its data says so next */
		if (!rc && acks && send(sv[0], &k, sizeof(k), MSG_NOSIGNAL) != sizeof(k))
			acks = 0;
		k ^= 1;
	}
	if (rc)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* however the reader ended, the records it completed in its last buffer count */
	if (!rc) {
		size_t done = __atomic_load_n(&sh->done[k], __ATOMIC_ACQUIRE);

		rc = done <= READER_BUF ? replay(&rp, sh->buf[k], done) :
		     vms_error("the reader process sent a malformed record");
	}
	if (vms_sink_set_async(s, 0) && !rc)
		rc = -1;
	if (!rc && rp.fail[0])
		rc = vms_error("%s", rp.fail);
	else if (!rc && WIFSIGNALED(status))
		*sig = WTERMSIG(status);
	else if (!rc && (!WIFEXITED(status) || WEXITSTATUS(status)))
		rc = vms_error("the reader process failed (exit status %d)",
			       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
out:
	for (int i = 0; i < 2; i++)
		if (sv[i] >= 0)
			close(sv[i]);
	munmap(sh, sizeof(*sh));
	return rc;
}
