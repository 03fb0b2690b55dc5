// SPDX-License-Identifier: GPL-2.0
/*
 * refault-mix - a memcg workload where refaults decide the deactivation of
 * the active file list in some reclaim passes and not in others, so that a
 * replay that ignores refaults is measurably wrong (issue 13: an agreement
 * figure that can fail).
 *
 * How: a hot file (--hot-mib) is read with pread(), two pages per step,
 * round and round: read() marks its pages accessed, so they are activated
 * and the active file list holds the hot set. A cold file (--cold-mib) is
 * mapped and read one byte per page in order, round after round, with
 * MADV_RANDOM (no readahead: this VM's disk reads ahead 8 MiB, which would
 * bring refaults in bursts of 2048 pages). With the cold file larger than
 * what the memcg has left beside the hot set, each cold page refaults a
 * short distance after its eviction, within the active list's size, so
 * mm/workingset.c activates it (WORKINGSET_ACTIVATE_FILE). The reclaimer
 * sees those activations only through a stats flush (6.18
 * prepare_scan_control() reads the flushed lruvec state against the
 * snapshot of the last reclaim cycle's end): --stat-file (the memcg's
 * memory.stat) read every --stat-every cold pages flushes between the
 * task's own reclaim cycles (it reclaims in its page faults), so the first
 * cycle after a flush ages the active file list and the next ones do not.
 *
 * --anon-mib holds cold anonymous memory beside them (touched once), for a
 * memcg with swap, where the same refaults turn cache_trim_mode off and the
 * scan balance weighs anon against file. --anon-hot-mib and --anon-cold-mib
 * make the same pair of anonymous memory, for a memcg with swap: the cold
 * part refaults from swap, so anon refaults decide the deactivation of the
 * active anon list.
 *
 * --create makes both files (--hot-mib and --cold-mib MiB of pseudo-random
 * data) and exits; run it outside the memcg. Without --create the files
 * must exist; their cached pages are dropped first (pages cached by the
 * creator stay charged to its memcg).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define WORKLOAD "refault-mix"
#include "workload.h"

static const char usage[] =
	"usage: refault-mix --hot PATH --cold PATH [options]\n"
	"       refault-mix --anon-hot-mib N --anon-cold-mib N [options]\n"
	"       refault-mix --create --hot PATH --cold PATH [--hot-mib N] [--cold-mib N]\n"
	"\n"
	"Read a hot file with pread() (two pages a step, so that it stays active)\n"
	"while cycling through a mapped cold file one page at a time without\n"
	"readahead, reading --stat-file every --stat-every cold pages: refaults\n"
	"that the reclaimer sees in some passes and not in others.\n"
	"\n"
	"  --hot PATH        the hot file (required)\n"
	"  --cold PATH       the cold file (required)\n"
	"  --create          create both files and exit\n"
	"  --hot-mib N       size of the hot file for --create (default 160)\n"
	"  --cold-mib N      size of the cold file for --create (default 320)\n"
	"  --rounds N        rounds over the cold file (default 2)\n"
	"  --anon-mib N      anonymous memory to hold, touched once (default 0)\n"
	"  --anon-hot-mib N  anonymous memory read two pages a step (with swap)\n"
	"  --anon-cold-mib N anonymous memory cycled one page a step, no swap\n"
	"                    readahead (instead of the files when they are not given)\n"
	"  --stat-file PATH  read PATH (a memcg's memory.stat: a stats flush) every\n"
	"                    --stat-every cold pages\n"
	"  --stat-every N    cold pages between --stat-file reads (default 32)\n"
	"  -h, --help        this help\n"
	"\n"
	"Exit status: 0 done, 1 error, 2 usage error.\n";

static int create_file(const char *path, long mib)
{
	static uint64_t buf[(1 << 20) / sizeof(uint64_t)];
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ (uint64_t)mib;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die("cannot create", path);
	for (long i = 0; i < mib; i++) {
		for (size_t j = 0; j < sizeof(buf) / sizeof(buf[0]); j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[j] = x;
		}
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("cannot write", path);
	}
	if (fsync(fd) || close(fd))
		die("cannot write", path);
	return 0;
}

/* Open @path, drop its cached pages; its size in pages into @pages. */
static int open_dropped(const char *path, size_t pg, size_t *pages)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die("cannot open", path);
	if (fstat(fd, &st))
		die("cannot stat", path);
	*pages = (size_t)st.st_size / pg;
	if (*pages < 2) {
		fprintf(stderr, WORKLOAD ": error: %s is too small (%lld bytes)\n", path,
			(long long)st.st_size);
		exit(1);
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return fd;
}

/* @mib MiB of anonymous memory in 4 KiB pages, each written once; @random: no swap readahead. */
static unsigned char *anon_region(long mib, size_t pg, int random, size_t *pages)
{
	size_t len = (size_t)mib << 20, i;
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("cannot map anonymous memory", NULL);
	madvise(p, len, MADV_NOHUGEPAGE);
	if (random)
		madvise(p, len, MADV_RANDOM);
	for (i = 0; i < len; i += pg)
		p[i] = (unsigned char)(i / pg) | 1;
	*pages = len / pg;
	return p;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "hot", required_argument, NULL, 'H' },
		{ "cold", required_argument, NULL, 'C' },
		{ "create", no_argument, NULL, 'c' },
		{ "hot-mib", required_argument, NULL, 'h' + 256 },
		{ "cold-mib", required_argument, NULL, 'c' + 256 },
		{ "rounds", required_argument, NULL, 'r' },
		{ "anon-mib", required_argument, NULL, 'a' },
		{ "anon-hot-mib", required_argument, NULL, 'A' },
		{ "anon-cold-mib", required_argument, NULL, 'B' },
		{ "stat-file", required_argument, NULL, 's' },
		{ "stat-every", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *hot = NULL, *cold = NULL, *stat_path = NULL;
	long hot_mib = 160, cold_mib = 320, rounds = 2, every = 32, anon_mib = 0, r;
	long anon_hot_mib = 0, anon_cold_mib = 0;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), nhot = 0, ncold = 0, nahot = 0, nacold = 0;
	size_t i, steps, h = 0, ah = 0;
	int create = 0, hfd = -1, cfd, sfd = -1, c;
	static char stat_buf[1 << 16];
	unsigned char *map = NULL, *anon, *ahot = NULL, *acold = NULL, byte;
	unsigned long sum = 0;
	double start;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'H': hot = optarg; break;
		case 'C': cold = optarg; break;
		case 'c': create = 1; break;
		case 'h' + 256: hot_mib = parse_num("--hot-mib", optarg, 1); break;
		case 'c' + 256: cold_mib = parse_num("--cold-mib", optarg, 1); break;
		case 'r': rounds = parse_num("--rounds", optarg, 1); break;
		case 'a': anon_mib = parse_num("--anon-mib", optarg, 0); break;
		case 'A': anon_hot_mib = parse_num("--anon-hot-mib", optarg, 1); break;
		case 'B': anon_cold_mib = parse_num("--anon-cold-mib", optarg, 1); break;
		case 's': stat_path = optarg; break;
		case 'e': every = parse_num("--stat-every", optarg, 1); break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if ((!anon_cold_mib && (!hot || !cold)) || (create && (!hot || !cold)) || optind != argc) {
		fprintf(stderr, WORKLOAD ": error: %s\n%s",
			optind != argc ? "unexpected argument" :
			"--hot and --cold are required (or --anon-cold-mib)", usage);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (create) {
		create_file(hot, hot_mib);
		create_file(cold, cold_mib);
		printf("created %s: %ld MiB, %s: %ld MiB\n", hot, hot_mib, cold, cold_mib);
		return 0;
	}
	/* cold anonymous memory (with swap: what the scan balance weighs against the file) */
	if (anon_mib) {
		size_t len = (size_t)anon_mib << 20;

		anon = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (anon == MAP_FAILED)
			die("cannot map anonymous memory", NULL);
		madvise(anon, len, MADV_NOHUGEPAGE);
		for (i = 0; i < len; i += pg)
			anon[i] = (unsigned char)(i / pg) | 1;
	}
	/*
	 * The anonymous pair: the hot part is activated by its references, the
	 * cold part cycles through swap one page at a time (MADV_RANDOM: no
	 * swap readahead), each swap-in a refault within the active list's size.
	 */
	if (anon_hot_mib)
		ahot = anon_region(anon_hot_mib, pg, 0, &nahot);
	if (anon_cold_mib)
		acold = anon_region(anon_cold_mib, pg, 1, &nacold);
	if (hot) {
		hfd = open_dropped(hot, pg, &nhot);
		cfd = open_dropped(cold, pg, &ncold);
		posix_fadvise(hfd, 0, 0, POSIX_FADV_RANDOM);
		map = mmap(NULL, ncold * pg, PROT_READ, MAP_SHARED, cfd, 0);
		if (map == MAP_FAILED)
			die("cannot map", cold);
		madvise(map, ncold * pg, MADV_RANDOM);
	}
	if (stat_path && (sfd = open(stat_path, O_RDONLY)) < 0)
		die("cannot open", stat_path);
	printf(WORKLOAD ": hot %zu MiB, cold %zu MiB, anon %ld MiB, anon hot %zu MiB, anon cold %zu MiB,"
	       " %ld rounds, %s every %ld cold pages\n", nhot * pg >> 20, ncold * pg >> 20, anon_mib,
	       nahot * pg >> 20, nacold * pg >> 20, rounds, stat_path ? stat_path : "no stat read",
	       every);
	steps = ncold ? ncold : nacold;
	start = now();
	for (r = 1; r <= rounds; r++) {
		double t0 = now();

		for (i = 0; i < steps; i++) {
			if (map)
				sum += map[i * pg];
			if (acold)
				sum += acold[(i % nacold) * pg];
			for (int k = 0; k < 2; k++) {
				if (ahot) {
					sum += ahot[ah * pg];
					ah = (ah + 1) % nahot;
				}
				if (hfd < 0)
					continue;
				if (pread(hfd, &byte, 1, (off_t)(h * pg)) != 1)
					die("cannot read", hot);
				sum += byte;
				h = (h + 1) % nhot;
			}
			if (sfd >= 0 && (i + 1) % (size_t)every == 0 &&
			    pread(sfd, stat_buf, sizeof(stat_buf), 0) < 0)
				die("cannot read", stat_path);
		}
		printf("round %ld: %.3f s\n", r, now() - t0);
	}
	printf("done: %ld rounds in %.3f s (checksum %lu)\n", rounds, now() - start, sum & 0xff);
	return 0;
}
