// SPDX-License-Identifier: GPL-2.0
/*
 * dat-check.c - check the CPU data of a trace-cmd .dat file (version 7)
 * against the layout the file itself states, independently of libtracecmd.
 * libtracecmd reads leniently: a compressed chunk that does not decompress,
 * a sub-buffer whose commit size is wrong or a zeroed page are skipped, often
 * silently, so a damaged file would import as complete with records missing.
 * import-dat.c runs this check in its reader process after libtracecmd has
 * read the file, and compares the records each CPU's pages hold with the
 * records libtracecmd delivered.
 *
 * How it works: the header gives the version, endianness, page size and
 * compression; the chain of OPTIONS sections gives, in each BUFFER option,
 * every CPU's data offset and size. Compressed data is a chunk count and
 * chunks (compressed size, uncompressed size, data), each decompressed here.
 * Each sub-buffer (page) is a u64 timestamp, a commit word (its data size
 * and flags) and ring-buffer events, walked by the kernel's rules
 * (kernel/trace/ring_buffer.c, the same as libtraceevent's kbuffer): a
 * 32-bit header of 5 bits type_len and 27 bits time delta; type_len 29 is
 * padding, 30 a time extend, 31 an absolute time stamp, 0 a data record
 * whose length is in the next word, 1..28 a data record of type_len words.
 * A page is damaged when its commit does not fit in it, an event runs past
 * the commit, a data record names an event id the file has no format for,
 * it is all zeroes or starts at time 0, or its timestamps jump back or
 * absurdly forward within the CPU. Each
 * damaged place is reported with an estimate of the records lost, from the
 * density of records in the CPU's sound pages.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <zlib.h>
#include <zstd.h>

#include "vms.h"
#include "dat-check.h"

#define MAX_OPTION_SECTIONS 64
#define MAX_CHUNK (64u << 20)		/* trace-cmd writes chunks of a few pages */
#define MAX_DATA (1ll << 50)		/* bytes of one CPU's data, at most */
#define MAX_DAMAGES 1000		/* reported one by one; the rest in one summary */
#define COMMIT_MASK ((1u << 27) - 1)
#define MISSED_STORED (1ull << 30)
#define TS_BACK_NS 1000000000ull	/* a CPU's timestamps never go back this far */
#define TS_JUMP_NS (86400ull * 1000000000ull)	/* nor jump a day ahead within a CPU */

enum compression { C_NONE, C_ZSTD, C_ZLIB };

/* A damaged place, reported once every CPU is walked (for its estimate). */
struct damage {
	size_t cpu;			/* index in dat_check.cpus */
	long long offset;
	long long bytes;		/* uncompressed page bytes lost, -1 unknown */
	long long file_bytes;		/* or file bytes lost, -1 unknown */
	char what[200];
};

struct checker {
	int fd;
	long long fsize;
	struct tep_handle *tep;
	enum compression comp;
	unsigned int commit_size;	/* 4 or 8 */
	struct dat_check *out;
	struct damage *damages;
	size_t ndamages, alloc;
	unsigned long long more;	/* damaged places past MAX_DAMAGES */
	long long more_bytes;		/* their page bytes lost */
	/* the walk of one CPU */
	size_t cpu;
	unsigned int page_size;
	uint64_t last_ts;		/* of the last record, 0 before the first */
	uint64_t good_bytes, good_file_bytes, good_events;
	uint64_t all_bytes, all_events;	/* of every CPU: the estimate of a CPU with none */
};

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

static int read_at(struct checker *c, long long off, void *buf, size_t n)
{
	size_t got = 0;

	if (off < 0 || off > c->fsize || (long long)n > c->fsize - off)
		return -1;
	while (got < n) {
		ssize_t r = pread(c->fd, (char *)buf + got, n - got, off + got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += r;
	}
	return 0;
}

static int add_damage(struct checker *c, long long offset, long long bytes, long long file_bytes,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int add_damage(struct checker *c, long long offset, long long bytes, long long file_bytes,
		      const char *fmt, ...)
{
	struct damage *d;
	va_list ap;

	if (c->ndamages == MAX_DAMAGES) {
		c->more++;
		c->more_bytes += bytes > 0 ? bytes : 0;
		return 0;
	}
	if (c->ndamages == c->alloc) {
		size_t n = c->alloc ? 2 * c->alloc : 16;
		struct damage *p = realloc(c->damages, n * sizeof(*p));

		if (!p)
			return vms_error("out of memory");
		c->damages = p;
		c->alloc = n;
	}
	d = &c->damages[c->ndamages++];
	d->cpu = c->cpu;
	d->offset = offset;
	d->bytes = bytes;
	d->file_bytes = file_bytes;
	va_start(ap, fmt);
	vsnprintf(d->what, sizeof(d->what), fmt, ap);
	va_end(ap);
	return 0;
}

/*
 * Walk one sub-buffer. @where is the file offset reported (the page's own,
 * or its chunk's), @at describes the place in words. Return: 0 or -1.
 */
static int walk_page(struct checker *c, const unsigned char *page, long long where, const char *at)
{
	unsigned int hdr = 8 + c->commit_size, room = c->page_size - hdr, pos = 0, size;
	uint64_t ts = le(page, 8), commit = le(page + 8, c->commit_size), events = 0;
	int ts_damaged = 0;

	size = (unsigned int)(commit & COMMIT_MASK);
	if (!ts && !commit) {
		unsigned int i;

		for (i = 0; i < c->page_size && !page[i]; i++)
			;
		if (i == c->page_size)
			return add_damage(c, where, room, -1, "%s: the sub-buffer is all zeroes", at);
	}
	if (!ts)
		/* the trace clock is never 0 when a sub-buffer starts: its header is zeroed */
		return add_damage(c, where, room, -1, "%s: the sub-buffer's timestamp is 0 (commit "
				  "%u)", at, size);
	if (size > room || ((commit & MISSED_STORED) && size + 8 > room))
		return add_damage(c, where, room, -1, "%s: commit size %u is more than the "
				  "sub-buffer holds (%u)", at, size, room);
	while (pos < size) {
		const unsigned char *ev = page + hdr + pos;
		unsigned int type_len, len, data;
		uint32_t word;
		uint64_t delta;

		if (size - pos < 4)
			return add_damage(c, where, size - pos, -1, "%s: an event header at byte "
					  "%u is cut by the commit size %u", at, pos, size);
		word = (uint32_t)le(ev, 4);
		type_len = word & 31;
		delta = word >> 5;
		if (type_len == 29 && !delta)
			break;		/* padding to the end */
		if ((type_len == 0 || type_len >= 29) && size - pos < 8)
			return add_damage(c, where, size - pos, -1, "%s: an event header at byte "
					  "%u is cut by the commit size %u", at, pos, size);
		switch (type_len) {
		case 29:		/* a discarded event */
			len = 4 + (unsigned int)le(ev + 4, 4);
			ts += delta;
			data = 0;
			break;
		case 30:		/* time extend */
			ts += (le(ev + 4, 4) << 27) + delta;
			len = 8;
			data = 0;
			break;
		case 31:		/* absolute time stamp */
			ts = ((le(ev + 4, 4) << 27) + delta) | (ts & (0xf8ull << 56));
			len = 8;
			data = 0;
			break;
		case 0:
			len = (unsigned int)le(ev + 4, 4);
			if (len < 4 + 8 || len > room)
				return add_damage(c, where, size - pos, -1, "%s: a record at byte %u "
						  "has length %u", at, pos, len);
			len = 8 + ((len - 4 + 3) & ~3u);
			data = 8;
			break;
		default:
			len = 4 + 4 * type_len;
			data = 4;
			break;
		}
		if (len > size - pos)
			return add_damage(c, where, size - pos, -1, "%s: an event at byte %u runs past "
					  "the commit size %u", at, pos, size);
		if (data) {
			unsigned int id = (unsigned int)le(ev + data, 2);

			ts += delta;
			if (!tep_find_event(c->tep, (int)id))
				return add_damage(c, where, size - pos, -1, "%s: a record at byte %u "
						  "names event id %u, which the file has no format for",
						  at, pos, id);
			if (c->last_ts && !ts_damaged &&
			    (ts + TS_BACK_NS < c->last_ts || ts > c->last_ts + TS_JUMP_NS)) {
				ts_damaged = 1;
				if (add_damage(c, where, 0, -1, "%s: a record's timestamp %llu is "
					       "far from the CPU's previous one %llu", at,
					       (unsigned long long)ts,
					       (unsigned long long)c->last_ts))
					return -1;
			}
			c->last_ts = ts;
			events++;
		}
		pos += len;
	}
	c->out->cpus[c->cpu].events += events;
	if (!ts_damaged) {
		c->good_events += events;
		c->good_bytes += size;
	}
	return 0;
}

static int walk_pages(struct checker *c, const unsigned char *buf, size_t len, long long where,
		      const char *in)
{
	char at[120];
	size_t i;

	for (i = 0; i + c->page_size <= len; i += c->page_size) {
		snprintf(at, sizeof(at), "%ssub-buffer %zu", in, i / c->page_size);
		if (walk_page(c, buf + i, where + (c->comp == C_NONE ? (long long)i : 0), at))
			return -1;
	}
	if (i < len && add_damage(c, where + i, len - i, -1, "%s%zu bytes after the last whole "
				  "sub-buffer", in, len - i))
		return -1;
	return 0;
}

/* Decompress @in (@n bytes) into @out (@want bytes). Return: 0, or -1 (damaged). */
static int decompress(enum compression comp, const void *in, size_t n, void *out, size_t want)
{
	if (comp == C_ZSTD) {
		size_t r = ZSTD_decompress(out, want, in, n);

		return ZSTD_isError(r) || r != want ? -1 : 0;
	} else {
		uLongf got = want;

		return uncompress(out, &got, in, n) != Z_OK || got != want ? -1 : 0;
	}
}

/*
 * The compressed data of one CPU: a chunk count, then the chunks; @size may
 * or may not count the chunk count itself. Return: 0 or -1.
 */
static int walk_chunks(struct checker *c, long long off, long long size)
{
	long long pos = off + 4, end = off + 4 + size;
	unsigned char head[8], *cbuf = NULL, *ubuf = NULL;
	unsigned int count, k;
	int rc = 0;

	if (read_at(c, off, head, 4))
		return add_damage(c, off, -1, size, "the data is cut: the file ends before "
				  "its chunk count");
	count = (unsigned int)le(head, 4);
	if (count > size / 8)
		return add_damage(c, off, -1, size, "a chunk count of %u cannot fit in the %lld "
				  "bytes of data", count, size);
	for (k = 0; k < count && !rc; k++) {
		unsigned int csize, usize;
		char in[64];

		if (read_at(c, pos, head, 8)) {
			rc = add_damage(c, pos, -1, end - pos, "the data is cut: the file ends at "
					"chunk %u of %u", k, count);
			break;
		}
		csize = (unsigned int)le(head, 4);
		usize = (unsigned int)le(head + 4, 4);
		if ((long long)csize > end - pos - 8 || !usize || usize > MAX_CHUNK ||
		    usize % c->page_size) {
			rc = add_damage(c, pos, -1, end - pos, "chunk %u of %u states %u bytes "
					"compressed, %u uncompressed, which the data (%lld bytes "
					"left) or the page size cannot hold", k, count, csize, usize,
					end - pos - 8);
			break;
		}
		if (pos + 8 + csize > c->fsize) {
			rc = add_damage(c, pos, -1, end - pos, "the data is cut: the file ends "
					"inside chunk %u of %u", k, count);
			break;
		}
		free(cbuf);
		free(ubuf);
		cbuf = malloc(csize ? csize : 1);
		ubuf = malloc(usize);
		if (!cbuf || !ubuf) {
			rc = vms_error("out of memory");
			break;
		}
		if (read_at(c, pos + 8, cbuf, csize)) {
			rc = add_damage(c, pos, usize, -1, "chunk %u of %u cannot be read", k, count);
		} else if (decompress(c->comp, cbuf, csize, ubuf, usize)) {
			rc = add_damage(c, pos, usize, -1, "chunk %u of %u does not decompress to "
					"its %u bytes", k, count, usize);
		} else {
			uint64_t before = c->good_bytes;

			snprintf(in, sizeof(in), "chunk %u of %u, ", k, count);
			rc = walk_pages(c, ubuf, usize, pos, in);
			/* the file bytes of sound chunks, for estimates of cut data */
			if (c->good_bytes > before)
				c->good_file_bytes += 8 + csize;
		}
		pos += 8 + csize;
	}
	/* trace-cmd 3.1 states the size without the chunk count, later ones with it */
	if (!rc && k == count && pos != end && pos != end - 4)
		rc = add_damage(c, pos, -1, -1, "the %u chunks end at offset %lld, not at the end "
				"of the CPU's data (%lld)", count, pos, end);
	free(cbuf);
	free(ubuf);
	return rc;
}

static int walk_plain(struct checker *c, long long off, long long size)
{
	long long have = c->fsize - off, i;
	unsigned char *page = malloc(c->page_size);
	int rc = 0;

	if (!page)
		return vms_error("out of memory");
	if (have < size && (rc = add_damage(c, off + (have > 0 ? have : 0), size - have, -1,
					    "the data is cut: the file ends %lld bytes before "
					    "the end of the CPU's data", size - have)))
		goto out;
	for (i = 0; !rc && i + c->page_size <= size && i + c->page_size <= have;
	     i += c->page_size) {
		char at[64];

		snprintf(at, sizeof(at), "sub-buffer %lld", i / c->page_size);
		rc = read_at(c, off + i, page, c->page_size) ?
		     add_damage(c, off + i, c->page_size, -1, "%s cannot be read", at) :
		     walk_page(c, page, off + i, at);
	}
out:
	free(page);
	return rc;
}

/* One BUFFER option: the instance name, page size and each CPU's data. Return: 0 or -1. */
static int walk_buffer(struct checker *c, const unsigned char *opt, size_t len)
{
	const unsigned char *p = opt + 8, *end = opt + len, *name, *nul;
	unsigned int page_size, ncpus, i;
	struct dat_cpu_events *cpus;

	if (len < 8 || !(nul = memchr(p, 0, end - p)))
		goto bad;
	name = p;
	p = nul + 1;
	if (!(nul = memchr(p, 0, end - p)))	/* the clock */
		goto bad;
	p = nul + 1;
	if (end - p < 8)
		goto bad;
	page_size = (unsigned int)le(p, 4);
	ncpus = (unsigned int)le(p + 4, 4);
	p += 8;
	if (page_size < 64 || page_size > (1u << 24) || ncpus > (size_t)(end - p) / 20)
		goto bad;
	cpus = realloc(c->out->cpus, (c->out->ncpus + ncpus) * sizeof(*cpus));
	if (!cpus && ncpus)
		return vms_error("out of memory");
	c->out->cpus = cpus;
	for (i = 0; i < ncpus; i++, p += 20) {
		struct dat_cpu_events *ce = &c->out->cpus[c->out->ncpus];
		long long off = (long long)le(p + 4, 8), size = (long long)le(p + 12, 8);
		int rc;

		memset(ce, 0, sizeof(*ce));
		snprintf(ce->buffer, sizeof(ce->buffer), "%s", (const char *)name);
		ce->cpu = (int)le(p, 4);
		ce->offset = off;
		c->cpu = c->out->ncpus++;
		c->page_size = page_size;
		c->last_ts = 0;
		c->good_bytes = c->good_file_bytes = c->good_events = 0;
		if (!size)
			continue;
		/* a CPU's data is never larger than a file can be: no sum below overflows */
		if (off < 0 || size < 0 || off > c->fsize || size > MAX_DATA)
			rc = add_damage(c, off, -1, -1, "the file states data at offset %lld of "
					"%lld bytes", off, size);
		else
			rc = c->comp == C_NONE ? walk_plain(c, off, size) : walk_chunks(c, off, size);
		if (rc)
			return -1;
		ce->per_byte = c->good_bytes ? (double)c->good_events / c->good_bytes : 0;
		c->all_bytes += c->good_bytes;
		c->all_events += c->good_events;
		ce->per_file_byte = c->good_file_bytes ?
				    (double)c->good_events / c->good_file_bytes : 0;
	}
	return 0;
bad:
	c->cpu = (size_t)-1;
	return add_damage(c, 0, -1, -1, "a BUFFER option of %zu bytes cannot be read", len);
}

/* Walk the chain of OPTIONS sections from @off. Return: 0 or -1. */
static int walk_options(struct checker *c, long long off)
{
	long long seen[MAX_OPTION_SECTIONS];
	int n = 0;

	while (off) {
		unsigned char head[16], *sec;
		long long size, next = 0;
		size_t pos = 0;
		int rc = 0;

		for (int i = 0; i < n; i++)
			if (seen[i] == off)
				return add_damage(c, off, -1, -1, "the options sections loop");
		if (n == MAX_OPTION_SECTIONS)
			return add_damage(c, off, -1, -1, "more than %d options sections",
					  MAX_OPTION_SECTIONS);
		seen[n++] = off;
		if (read_at(c, off, head, sizeof(head)) || le(head, 2) != 0 || (le(head + 2, 2) & 1))
			return add_damage(c, off, -1, -1, "no uncompressed options section at "
					  "offset %lld", off);
		size = (long long)le(head + 8, 8);
		if (size > c->fsize || !(sec = malloc(size ? size : 1)))
			return add_damage(c, off, -1, -1, "an options section of %lld bytes", size);
		if (read_at(c, off + 16, sec, size)) {
			free(sec);
			return add_damage(c, off, -1, -1, "the options section at offset %lld is "
					  "cut", off);
		}
		while (!rc && pos + 6 <= (size_t)size) {
			unsigned int id = (unsigned int)le(sec + pos, 2);
			size_t len = (size_t)le(sec + pos + 2, 4);

			pos += 6;
			if (len > (size_t)size - pos) {
				rc = add_damage(c, off, -1, -1, "option %u at offset %lld runs past "
						"its section", id, off + 16 + (long long)pos);
				break;
			}
			if (id == 0 && len == 8)
				next = (long long)le(sec + pos, 8);
			else if (id == 3)
				rc = walk_buffer(c, sec + pos, len);
			pos += len;
		}
		free(sec);
		if (rc)
			return -1;
		off = next;
	}
	return 0;
}

/* The file header up to the offset of the first options section. Return: 0, 1 (not checked) or -1. */
static int read_header(struct checker *c, long long *options)
{
	unsigned char h[256], *p, *nul;

	memset(h, 0, sizeof(h));
	if (read_at(c, 0, h, c->fsize < (long long)sizeof(h) ? (size_t)c->fsize : sizeof(h)) ||
	    memcmp(h, "\x17\x08\x44tracing", 10))
		return 1;		/* libtracecmd opened it: not a file this check knows */
	if (strcmp((char *)h + 10, "7") || h[12] != 0)
		return 1;		/* version 6 (no chunks to fail), or big endian */
	p = h + 18;
	if (!(nul = memchr(p, 0, h + sizeof(h) - p)))
		return 1;
	if (!strcmp((char *)p, "none"))
		c->comp = C_NONE;
	else if (!strcmp((char *)p, "zstd"))
		c->comp = C_ZSTD;
	else if (!strcmp((char *)p, "zlib"))
		c->comp = C_ZLIB;
	else
		return 1;
	p = nul + 1;
	if (!(nul = memchr(p, 0, h + sizeof(h) - p)) || nul + 9 > h + sizeof(h))
		return 1;
	*options = (long long)le(nul + 1, 8);
	return 0;
}

int dat_check_file(const char *path, struct tep_handle *tep, struct dat_check *out,
		   dat_damage_fn damage, void *arg)
{
	struct checker c = { .tep = tep, .out = out };
	long long options;
	struct stat st;
	int rc;

	memset(out, 0, sizeof(*out));
	c.commit_size = tep_get_header_page_size(tep) == 4 ? 4 : 8;
	c.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0 || fstat(c.fd, &st)) {
		rc = vms_error("cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	c.fsize = st.st_size;
	rc = read_header(&c, &options);
	if (rc)
		goto out;
	c.cpu = (size_t)-1;
	rc = walk_options(&c, options);
	for (size_t i = 0; !rc && i < c.ndamages; i++) {
		struct damage *d = &c.damages[i];
		struct dat_cpu_events *ce = d->cpu < out->ncpus ? &out->cpus[d->cpu] : NULL;
		long long lost = -1;

		if (ce && d->bytes >= 0 && ce->per_byte > 0)
			lost = (long long)(d->bytes * ce->per_byte + 0.5);
		else if (ce && d->file_bytes >= 0 && ce->per_file_byte > 0)
			lost = (long long)(d->file_bytes * ce->per_file_byte + 0.5);
		else if (ce && d->bytes >= 0 && c.all_bytes)
			lost = (long long)((double)d->bytes * c.all_events / c.all_bytes + 0.5);
		rc = damage(arg, ce ? ce->buffer : "", ce ? ce->cpu : -1, d->offset, lost, d->what);
	}
	if (!rc && c.more) {
		char what[128];

		snprintf(what, sizeof(what), "%llu more damaged places, with %lld bytes of "
			 "sub-buffers", c.more, c.more_bytes);
		rc = damage(arg, "", -1, 0, -1, what);
	}
out:
	free(c.damages);
	if (c.fd >= 0)
		close(c.fd);
	return rc;
}

void dat_check_release(struct dat_check *c)
{
	free(c->cpus);
	c->cpus = NULL;
	c->ncpus = 0;
}
