// SPDX-License-Identifier: GPL-2.0
/*
 * thrash - reproduces the 2019 file-refault report: a task holding cold
 * anonymous memory reads a file that no longer fits beside it, and reclaim
 * keeps evicting the file pages the task is about to read again.
 *
 * How: allocate --anon-mib of anonymous memory and touch it once (then it is
 * cold), map the first half of --file with PROT_READ|PROT_EXEC and the
 * second half with PROT_READ, and read one byte per page of both halves for
 * --rounds rounds. Run in a memory cgroup whose limit is below anon + file,
 * with swap, so that reclaim has to choose between swapping the cold anon
 * memory out and dropping file pages: the recording then shows the file
 * refaults (workingset_refault_file) and how the scans were split between
 * the anon and the file LRU lists. Each round prints its time, the major
 * faults of each half and how much of each half was resident at its end
 * (mincore), so that the protection the kernel gives to mapped executable
 * file pages can be seen too.
 *
 * --create makes the file (--file-mib MiB of pseudo-random data) and exits;
 * run it outside the cgroup. Without --create the file must exist; its pages
 * are dropped from the page cache first (POSIX_FADV_DONTNEED) so that the
 * first round starts cold.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WORKLOAD "thrash"
#include "workload.h"

static const char usage[] =
	"usage: thrash --file PATH [options]\n"
	"       thrash --create --file PATH --file-mib N\n"
	"\n"
	"Hold cold anonymous memory, then read a file through two mappings (first\n"
	"half PROT_READ|PROT_EXEC, second half PROT_READ), one byte per page, for\n"
	"N rounds, printing each round's time, major faults and residency.\n"
	"\n"
	"  --file PATH       the file to read (required)\n"
	"  --create          create PATH with --file-mib MiB of data and exit\n"
	"  --file-mib N      size for --create (default 512)\n"
	"  --anon-mib N      anonymous memory to hold (default 256)\n"
	"  --rounds N        rounds over the file (default 10)\n"
	"  -h, --help        this help\n"
	"\n"
	"Exit status: 0 done, 1 error, 2 usage error.\n";

static long majflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_majflt;
}

static int create_file(const char *path, long mib)
{
	size_t bufsz = 1 << 20;
	uint64_t *buf = malloc(bufsz), x = 0x9e3779b97f4a7c15ull;
	int fd;
	long i;
	size_t j;

	if (!buf)
		die("out of memory", NULL);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("cannot create", path);
	for (i = 0; i < mib; i++) {
		for (j = 0; j < bufsz / sizeof(*buf); j++) {
			/* xorshift64: cheap data that does not compress or dedupe */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[j] = x;
		}
		if (write(fd, buf, bufsz) != (ssize_t)bufsz)
			die("cannot write", path);
	}
	if (fsync(fd))
		die("cannot fsync", path);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	free(buf);
	printf("created %s: %ld MiB\n", path, mib);
	return 0;
}

/* Read one byte per page; return a sum so that the reads are not optimised out. */
static unsigned long touch(const volatile unsigned char *p, size_t len, size_t pg)
{
	unsigned long sum = 0;
	size_t off;

	for (off = 0; off < len; off += pg)
		sum += p[off];
	return sum;
}

static double resident_pct(void *p, size_t len, size_t pg, unsigned char *vec)
{
	size_t n = (len + pg - 1) / pg, i, in = 0;

	if (mincore(p, len, vec))
		return -1;
	for (i = 0; i < n; i++)
		in += vec[i] & 1;
	return n ? 100.0 * in / n : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "create", no_argument, NULL, 'c' },
		{ "file-mib", required_argument, NULL, 'F' },
		{ "anon-mib", required_argument, NULL, 'a' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long file_mib = 512, anon_mib = 256, rounds = 10, r;
	const char *path = NULL;
	int create = 0, fd, c;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), half, anon_len, off;
	unsigned char *anon = NULL, *exec_map, *read_map, *vec;
	unsigned long sum = 0;
	struct stat st;
	double t0, t1, t2, start;
	long f0, f1, f2;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': path = optarg; break;
		case 'c': create = 1; break;
		case 'F': file_mib = parse_num("--file-mib", optarg, 2); break;
		case 'a': anon_mib = parse_num("--anon-mib", optarg, 0); break;
		case 'r': rounds = parse_num("--rounds", optarg, 1); break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (!path || optind != argc) {
		fprintf(stderr, "thrash: error: %s\n%s", !path ? "--file is required" :
			"unexpected argument", usage);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (create)
		return create_file(path, file_mib);

	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("cannot open", path);
	if (fstat(fd, &st))
		die("cannot stat", path);
	half = ((size_t)st.st_size / 2) / pg * pg;
	if (half < pg) {
		fprintf(stderr, "thrash: error: %s is too small (%lld bytes)\n", path,
			(long long)st.st_size);
		return 1;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

	/* cold anonymous memory: touched once, never again */
	anon_len = (size_t)anon_mib << 20;
	if (anon_len) {
		anon = mmap(NULL, anon_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
		if (anon == MAP_FAILED)
			die("cannot map anonymous memory", NULL);
		madvise(anon, anon_len, MADV_NOHUGEPAGE);	/* 4 KiB pages, swapped one by one */
		for (off = 0; off < anon_len; off += pg)
			anon[off] = (unsigned char)(off / pg) | 1;
	}

	exec_map = mmap(NULL, half, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (exec_map == MAP_FAILED)
		die("cannot map the first half PROT_READ|PROT_EXEC (noexec mount?)", path);
	read_map = mmap(NULL, half, PROT_READ, MAP_SHARED, fd, (off_t)half);
	if (read_map == MAP_FAILED)
		die("cannot map the second half PROT_READ", path);
	vec = malloc((half > anon_len ? half : anon_len) / pg + 1);
	if (!vec)
		die("out of memory", NULL);
	printf("thrash: anon %ld MiB held, file %s: %zu MiB exec-mapped + %zu MiB read-mapped, %ld rounds\n",
	       anon_mib, path, half >> 20, half >> 20, rounds);

	start = now();
	for (r = 1; r <= rounds; r++) {
		t0 = now();
		f0 = majflt();
		sum += touch(exec_map, half, pg);
		t1 = now();
		f1 = majflt();
		sum += touch(read_map, half, pg);
		t2 = now();
		f2 = majflt();
		printf("round %ld: %.3f s (exec half %.3f s, %ld majflt, %.0f%% resident; "
		       "read half %.3f s, %ld majflt, %.0f%% resident; anon %.0f%% resident)\n",
		       r, t2 - t0, t1 - t0, f1 - f0, resident_pct(exec_map, half, pg, vec),
		       t2 - t1, f2 - f1, resident_pct(read_map, half, pg, vec),
		       anon ? resident_pct(anon, anon_len, pg, vec) : 0.0);
	}
	printf("done: %ld rounds in %.3f s (checksum %lu)\n", rounds, now() - start, sum & 0xff);
	return 0;
}
