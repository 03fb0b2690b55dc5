// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - growable buffers, JSON string escaping, control-character
 * masking and clocks, shared by the
 * importers, the recorder and the analyzers.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vms.h"

int vms_array_reserve(void *arrayp, int *alloc, int n, int first, size_t size)
{
	void **array = arrayp, *na;
	int want = *alloc;

	while (want <= n) {
		if (want > INT_MAX / 2)
			return vms_error("out of memory (more than %d elements)", INT_MAX / 2);
		want = want ? want * 2 : first;
	}
	if (want == *alloc)
		return 0;
	na = realloc(*array, (size_t)want * size);
	if (!na)
		return vms_error("out of memory");
	*array = na;
	*alloc = want;
	return 0;
}

static int buf_grow(struct vms_buf *b, size_t extra)
{
	size_t want = b->len + extra + 1;
	char *n;

	if (want <= b->alloc)
		return 0;
	if (want < 2 * b->alloc)
		want = 2 * b->alloc;
	if (want < 64)
		want = 64;
	n = realloc(b->buf, want);
	if (!n)
		return vms_error("out of memory");
	b->buf = n;
	b->alloc = want;
	return 0;
}

int vms_buf_add(struct vms_buf *b, const char *s, size_t len)
{
	if (buf_grow(b, len))
		return -1;
	memcpy(b->buf + b->len, s, len);
	b->len += len;
	b->buf[b->len] = '\0';
	return 0;
}

int vms_buf_addf(struct vms_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || buf_grow(b, n))
		return -1;
	va_start(ap, fmt);
	vsnprintf(b->buf + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
	return 0;
}

void vms_buf_reset(struct vms_buf *b)
{
	b->len = 0;
	if (b->buf)
		b->buf[0] = '\0';
}

void vms_buf_release(struct vms_buf *b)
{
	free(b->buf);
	b->buf = NULL;
	b->len = b->alloc = 0;
}

/*
 * Trace text is untrusted: quotes, backslashes and control bytes are escaped,
 * and bytes >= 0x80 are written as \u00XX so the result is always valid JSON
 * (a comm is bytes, not necessarily UTF-8).
 */
int vms_json_append_string(struct vms_buf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	if (buf_grow(b, len + 2))
		return -1;
	b->buf[b->len++] = '"';
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];
		char esc[7];

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			if (buf_grow(b, 1))
				return -1;
			b->buf[b->len++] = c;
			continue;
		}
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = c;
			if (vms_buf_add(b, esc, 2))
				return -1;
			continue;
		}
		memcpy(esc, "\\u00", 4);
		esc[4] = hex[c >> 4];
		esc[5] = hex[c & 15];
		if (vms_buf_add(b, esc, 6))
			return -1;
	}
	return vms_buf_add(b, "\"", 1);
}

double vms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int vms_cpus_to_run_on(void)
{
	cpu_set_t cpus;

	if (sched_getaffinity(0, sizeof(cpus), &cpus))
		return 2;	/* not known: threads are still worth it */
	return CPU_COUNT(&cpus);
}

const char *vms_utc_now(void)
{
	static char out[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, sizeof(out), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return out;
}

char *vms_join_args(const char *prog, int argc, const char **argv)
{
	struct vms_buf b = { 0 };
	int i;

	if (vms_buf_add(&b, prog, strlen(prog)))
		goto oom;
	for (i = 0; i < argc; i++)
		if (vms_buf_add(&b, " ", 1) || vms_buf_add(&b, argv[i], strlen(argv[i])))
			goto oom;
	return b.buf;
oom:
	vms_buf_release(&b);
	return NULL;
}

size_t vms_control_len(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	if (u[0] < 0x20 || u[0] == 0x7f)
		return u[0] ? 1 : 0;
	return u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f ? 2 : 0;
}

char *vms_make_printable(char *s)
{
	size_t n;

	for (char *p = s; p && *p; p += n ? n : 1) {
		n = vms_control_len(p);
		if (n)
			memset(p, '?', n);
	}
	return s;
}

int vms_parse_size(const char *s, long long *bytes)
{
	unsigned long long v, mult = 1;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': mult = 1ULL << 10; end++; break;
	case 'm': case 'M': mult = 1ULL << 20; end++; break;
	case 'g': case 'G': mult = 1ULL << 30; end++; break;
	case 't': case 'T': mult = 1ULL << 40; end++; break;
	}
	if (*end || v > (1ULL << 62) / mult)
		return -1;
	*bytes = (long long)(v * mult);
	return 0;
}
