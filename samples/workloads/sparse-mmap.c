// SPDX-License-Identifier: GPL-2.0
/*
 * sparse-mmap - reproduces the 2010 clean-pages report: random reads through
 * a mapping of a large sparse file fill memory with clean page cache pages
 * (holes read as zeroes, without any I/O), so that faults have to wait for
 * reclaim of clean pages; mmap read-around makes each fault bring in, and
 * later reclaim, many pages the task never touches. What it measures is the
 * latency of each fault, with and without madvise(MADV_RANDOM).
 *
 * How: make --file a sparse file of --size-mib MiB (ftruncate, no data).
 * Then, for each mode, drop its pages from the page cache, map it PROT_READ,
 * read one byte of --accesses random pages (--normal-accesses in mode
 * normal; the same pseudo-random sequence in both modes) and time every read
 * with CLOCK_MONOTONIC. Mode "normal" leaves the mapping as it is (read-around
 * of the device's read_ahead_kb); mode "random" calls madvise(MADV_RANDOM)
 * first. Run it in a memory cgroup whose limit is far below the file size.
 * For each mode it prints one line
 *
 *   mode NAME start_ns=T0 end_ns=T1 accesses=N majflt=N minflt=N
 *        mean_us=.. p50_us=.. p90_us=.. p99_us=.. p999_us=.. max_us=..
 *
 * (T0 and T1 are CLOCK_MONOTONIC, the clock of `vmscope record`, so that the
 * recording can be cut by mode) and a log2 histogram of the latencies.
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

#define WORKLOAD "sparse-mmap"
#include "workload.h"

static const char usage[] =
	"usage: sparse-mmap --file PATH [options]\n"
	"\n"
	"Map a large sparse file and read random pages, with and without\n"
	"madvise(MADV_RANDOM), timing every page fault.\n"
	"\n"
	"  --file PATH       the sparse file (created, or extended, with ftruncate)\n"
	"  --size-mib N      file size (default 8192)\n"
	"  --accesses N      random page reads per mode (default 100000)\n"
	"  --normal-accesses N  reads in mode normal, if not --accesses: its faults\n"
	"                    are much slower with a large read-ahead\n"
	"  --mode M          normal, random or both (default both: normal first)\n"
	"  --seed N          seed of the page sequence (default 1)\n"
	"  -h, --help        this help\n"
	"\n"
	"Exit status: 0 done, 1 error, 2 usage error.\n";

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* nearest-rank percentile of sorted lat[n], in µs */
static double pct(const uint32_t *lat, long n, double p)
{
	long k = (long)(p * n + 0.999999);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return lat[k - 1] / 1e3;
}

static void run_mode(int fd, size_t len, size_t pg, int random_mode, long accesses,
		     uint64_t seed, uint32_t *lat)
{
	const char *name = random_mode ? "random" : "normal";
	size_t npages = len / pg;
	uint64_t x = seed * 0x9e3779b97f4a7c15ull | 1, t0, t1, start, end, sum = 0;
	unsigned long check = 0;
	long i, hist[33] = { 0 };
	struct rusage ru0, ru1;
	volatile unsigned char *p;
	void *map;
	int b;

	/* start cold: none of the file's pages in the cache */
	if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		fprintf(stderr, "sparse-mmap: warning: POSIX_FADV_DONTNEED failed\n");
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("cannot map the file", NULL);
	if (random_mode && madvise(map, len, MADV_RANDOM))
		die("madvise(MADV_RANDOM) failed", NULL);
	p = map;
	getrusage(RUSAGE_SELF, &ru0);
	start = now_ns();
	for (i = 0; i < accesses; i++) {
		size_t page;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		page = (size_t)(x % npages);
		t0 = now_ns();
		check += p[page * pg];
		t1 = now_ns();
		lat[i] = t1 - t0 > UINT32_MAX ? UINT32_MAX : (uint32_t)(t1 - t0);
		sum += t1 - t0;
	}
	end = now_ns();
	getrusage(RUSAGE_SELF, &ru1);
	munmap(map, len);

	qsort(lat, accesses, sizeof(*lat), cmp_u32);
	printf("mode %s start_ns=%llu end_ns=%llu accesses=%ld majflt=%ld minflt=%ld "
	       "mean_us=%.2f p50_us=%.2f p90_us=%.2f p99_us=%.2f p999_us=%.2f max_us=%.2f\n",
	       name, (unsigned long long)start, (unsigned long long)end, accesses,
	       ru1.ru_majflt - ru0.ru_majflt, ru1.ru_minflt - ru0.ru_minflt,
	       sum / 1e3 / accesses, pct(lat, accesses, 0.50), pct(lat, accesses, 0.90),
	       pct(lat, accesses, 0.99), pct(lat, accesses, 0.999), lat[accesses - 1] / 1e3);
	for (i = 0; i < accesses; i++) {
		for (b = 0; b < 32 && (1ull << (b + 1)) <= lat[i]; b++)
			;
		hist[b]++;
	}
	printf("histogram %s (ns range: reads):", name);
	for (b = 0; b < 33; b++)
		if (hist[b])
			printf(" [%llu,%llu): %ld", 1ull << b, 1ull << (b + 1), hist[b]);
	printf("\n");
	printf("mode %s: %.3f s for %ld reads (checksum %lu)\n", name, (end - start) / 1e9, accesses,
	       check);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "size-mib", required_argument, NULL, 's' },
		{ "accesses", required_argument, NULL, 'n' },
		{ "normal-accesses", required_argument, NULL, 'N' },
		{ "mode", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long size_mib = 8192, accesses = 100000, normal_accesses = 0, seed = 1, nlat;
	int normal = 1, random_mode = 1, c, fd;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), len;
	const char *path = NULL;
	struct stat st;
	uint32_t *lat;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': path = optarg; break;
		case 's': size_mib = parse_num("--size-mib", optarg, 1); break;
		case 'n': accesses = parse_num("--accesses", optarg, 1); break;
		case 'N': normal_accesses = parse_num("--normal-accesses", optarg, 1); break;
		case 'S': seed = parse_num("--seed", optarg, 0); break;
		case 'm':
			if (!strcmp(optarg, "normal")) {
				normal = 1;
				random_mode = 0;
			} else if (!strcmp(optarg, "random")) {
				normal = 0;
				random_mode = 1;
			} else if (!strcmp(optarg, "both")) {
				normal = random_mode = 1;
			} else {
				fprintf(stderr, "sparse-mmap: error: --mode is normal, random or both, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (!path || optind != argc) {
		fprintf(stderr, "sparse-mmap: error: %s\n%s", !path ? "--file is required" :
			"unexpected argument", usage);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	len = (size_t)size_mib << 20;
	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		die("cannot open", path);
	if (fstat(fd, &st))
		die("cannot stat", path);
	if ((size_t)st.st_size < len && ftruncate(fd, (off_t)len))
		die("cannot make the sparse file", path);
	if (fstat(fd, &st))
		die("cannot stat", path);
	if (!normal_accesses)
		normal_accesses = accesses;
	printf("sparse-mmap: %s: %ld MiB, %lld KiB allocated on disk, %ld random reads "
	       "(mode normal: %ld)\n", path, size_mib, (long long)st.st_blocks / 2, accesses,
	       normal_accesses);
	nlat = normal_accesses > accesses ? normal_accesses : accesses;
	lat = malloc(nlat * sizeof(*lat));
	if (!lat)
		die("out of memory", NULL);
	/* touch the latency array now, so that its faults are not timed */
	memset(lat, 0, nlat * sizeof(*lat));
	if (normal)
		run_mode(fd, len, pg, 0, normal_accesses, (uint64_t)seed, lat);
	if (random_mode)
		run_mode(fd, len, pg, 1, accesses, (uint64_t)seed, lat);
	free(lat);
	close(fd);
	return 0;
}
