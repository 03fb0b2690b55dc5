/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chunks.h - the pool of anonymous memory the machine-wide hogs
 * (kswapd-fail.c, memhog.c) grow and give back: chunks of chunk_len bytes
 * in 4 KiB pages (no transparent huge pages: no compaction needed, and the
 * pages are reclaimed one by one like the page cache), each touched once
 * and optionally mlocked. Include after workload.h; the program sets
 * chunk_len before the first chunk_grab().
 */
#ifndef VMS_CHUNKS_H
#define VMS_CHUNKS_H

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_CHUNKS 65536

static void *chunks[MAX_CHUNKS];
static int nchunks;
static size_t chunk_len;

/* One more chunk, touched (and with @lock mlocked). Return: 0, or -1 (no memory or no room). */
static inline int chunk_grab(int lock)
{
	size_t off, pg = (size_t)sysconf(_SC_PAGESIZE);
	char *p;

	if (nchunks == MAX_CHUNKS)
		return -1;
	p = mmap(NULL, chunk_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	madvise(p, chunk_len, MADV_NOHUGEPAGE);
	for (off = 0; off < chunk_len; off += pg)
		p[off] = 1;
	if (lock && mlock(p, chunk_len))
		fprintf(stderr, WORKLOAD ": warning: mlock: %s\n", strerror(errno));
	chunks[nchunks++] = p;
	return 0;
}

/* Unmap the newest chunk, if any. */
static inline void chunk_give_back(void)
{
	if (nchunks > 0)
		munmap(chunks[--nchunks], chunk_len);
}

static inline void chunk_give_back_all(void)
{
	while (nchunks > 0)
		chunk_give_back();
}

#endif
