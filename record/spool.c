// SPDX-License-Identifier: GPL-2.0
/*
 * spool.c - a file of raw ring-buffer pages, appended while a live
 * recording runs and read back (mapped) to decode them when it stops.
 * Each page is stored as a header (CPU, length, both 32-bit host order)
 * followed by the page's bytes; appends go through a 1 MiB buffer so that
 * the recorder makes few system calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vms.h"
#include "spool.h"

#define SPOOL_BUFFER	(1 << 20)
#define SPOOL_MAX_PAGE	(1 << 24)	/* bigger than any sub-buffer the kernel allows */

struct spool_header {
	uint32_t cpu;
	uint32_t len;
};

struct spool {
	char *path;
	int fd;
	char *buf;
	size_t used;
	uint64_t bytes;			/* page bytes appended, headers not counted */
	void *map;
	size_t map_len;
	struct spool_page *index;
	int keep;
};

static struct spool *spool_new(const char *path, int flags)
{
	struct spool *sp = calloc(1, sizeof(*sp));

	if (!sp || !(sp->path = strdup(path)) || !(sp->buf = malloc(SPOOL_BUFFER))) {
		if (sp)
			free(sp->path);
		free(sp);
		vms_error("out of memory");
		return NULL;
	}
	sp->keep = !(flags & O_CREAT);
	sp->fd = open(path, flags | O_CLOEXEC, 0600);
	if (sp->fd < 0) {
		vms_error("%s: cannot %s the page spool: %s", path,
			  flags & O_CREAT ? "create" : "open", strerror(errno));
		free(sp->buf);
		free(sp->path);
		free(sp);
		return NULL;
	}
	return sp;
}

struct spool *spool_create(const char *path)
{
	return spool_new(path, O_RDWR | O_CREAT | O_TRUNC);
}

struct spool *spool_open(const char *path)
{
	return spool_new(path, O_RDONLY);
}

void spool_keep(struct spool *sp, int keep)
{
	sp->keep = keep;
}

static int write_all(struct spool *sp, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(sp->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return vms_error("%s: cannot write the page spool: %s", sp->path,
					 n < 0 ? strerror(errno) : "no space written");
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int spool_flush(struct spool *sp)
{
	int rc = sp->used ? write_all(sp, sp->buf, sp->used) : 0;

	sp->used = 0;
	return rc;
}

int spool_append(struct spool *sp, int cpu, const void *page, size_t len)
{
	struct spool_header h = { .cpu = (uint32_t)cpu, .len = (uint32_t)len };

	if (len > SPOOL_MAX_PAGE)
		return vms_error("%s: a ring-buffer page of %zu bytes is too big", sp->path, len);
	if (sp->used + sizeof(h) + len > SPOOL_BUFFER && spool_flush(sp))
		return -1;
	if (sizeof(h) + len > SPOOL_BUFFER) {
		if (write_all(sp, &h, sizeof(h)) || write_all(sp, page, len))
			return -1;
	} else {
		memcpy(sp->buf + sp->used, &h, sizeof(h));
		memcpy(sp->buf + sp->used + sizeof(h), page, len);
		sp->used += sizeof(h) + len;
	}
	sp->bytes += len;
	return 0;
}

uint64_t spool_bytes(const struct spool *sp)
{
	return sp->bytes;
}

const char *spool_path(const struct spool *sp)
{
	return sp->path;
}

long spool_read(struct spool *sp, const struct spool_page **pages)
{
	struct stat st;
	size_t off = 0, alloc = 0;
	long n = 0;

	/* after a failed write (disk full), what reached the file is still read */
	spool_flush(sp);
	*pages = NULL;
	if (fstat(sp->fd, &st))
		return vms_error("%s: cannot read the page spool back: %s", sp->path, strerror(errno));
	if (!st.st_size)
		return 0;
	sp->map_len = (size_t)st.st_size;
	sp->map = mmap(NULL, sp->map_len, PROT_READ, MAP_PRIVATE, sp->fd, 0);
	if (sp->map == MAP_FAILED) {
		sp->map = NULL;
		return vms_error("%s: cannot map the page spool: %s", sp->path, strerror(errno));
	}
	madvise(sp->map, sp->map_len, MADV_SEQUENTIAL);
	while (off < sp->map_len) {
		struct spool_header h;

		if (sp->map_len - off < sizeof(h))
			break;
		memcpy(&h, (char *)sp->map + off, sizeof(h));
		if (h.len > SPOOL_MAX_PAGE ||
		    ((int)h.cpu < 0 && (int)h.cpu != SPOOL_SYSTEMS && (int)h.cpu != SPOOL_CMDLINES))
			return vms_error("%s: offset %zu: damaged page header", sp->path, off);
		if (h.len > sp->map_len - off - sizeof(h))
			break;
		if ((size_t)n == alloc) {
			struct spool_page *ni;

			alloc = alloc ? 2 * alloc : 1024;
			ni = realloc(sp->index, alloc * sizeof(*ni));
			if (!ni)
				return vms_error("out of memory");
			sp->index = ni;
		}
		off += sizeof(h);
		sp->index[n].cpu = (int)h.cpu;
		sp->index[n].data = (char *)sp->map + off;
		sp->index[n].len = h.len;
		off += h.len;
		n++;
	}
	if (off < sp->map_len)
		vms_warning("%s: the last page was cut short (a failed write or a crash); "
			    "the %ld pages before it are kept", sp->path, n);
	*pages = sp->index;
	return n;
}

void spool_free(struct spool *sp)
{
	if (!sp)
		return;
	if (sp->map)
		munmap(sp->map, sp->map_len);
	if (sp->fd >= 0)
		close(sp->fd);
	if (!sp->keep)
		unlink(sp->path);
	free(sp->index);
	free(sp->buf);
	free(sp->path);
	free(sp);
}
