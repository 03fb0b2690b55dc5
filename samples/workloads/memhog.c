// SPDX-License-Identifier: GPL-2.0
/*
 * memhog - takes most of the machine's memory away, safely, so that another
 * workload fills what is left and the whole machine (not a memory cgroup)
 * has to reclaim: the set-up of the boosted-kswapd scenario (the 2019
 * boosted-kswapd-vs-slab report needs global kswapd, which memcg limit
 * reclaim never is).
 *
 * How: read MemAvailable from /proc/meminfo, allocate and touch anonymous
 * memory in --chunk-mib chunks (4 KiB pages, mlocked with --mlock so that a
 * swap device cannot take them) until MemAvailable is down to --leave-mib,
 * create the --ready file, and hold the memory, untouched, until SIGTERM or
 * SIGINT.
 *
 * Fragmentation (--holes-mib H, rounded down to whole chunks): the last H MiB
 * it allocates get every other 4 KiB page given back (it allocates H/2 MiB
 * further down first, so that MemAvailable still ends at --leave-mib).
 * Those pageblocks are then half free in single pages that cannot merge:
 * what a long-running machine looks like, and what makes an unmovable or
 * reclaimable allocation fall back to a movable pageblock below the
 * pageblock order, the fallback that boosts the watermarks. A freshly booted
 * machine has whole free pageblocks instead, whose fallbacks take a whole
 * block and never boost. The pages given back go to the per-CPU free lists
 * first, whose high mark grows with them, and MemFree does not count them
 * until they drain into the buddy allocator as that mark decays (measured on
 * the 24 GiB machine: 1,190 MiB on those lists after a hog exited, draining
 * some 20,000 pages in 15 s): MemAvailable reads that much lower meanwhile,
 * and chunks taken from those lists do not lower it.
 *
 * Safety: MemAvailable (free pages plus the page cache and slab the kernel
 * counts as reclaimable) is read after every chunk and every 100 ms while
 * holding. It never allocates below --leave-mib; with holes, never below
 * --leave-mib minus H/2 (less 32 MiB of slack) before it punches them, which
 * must stay above --floor-mib, and started with less than --leave-mib plus
 * H/2 available it punches fewer chunks rather than end under --leave-mib.
 * It never takes a chunk that would take MemAvailable under --floor-mib, and
 * if MemAvailable falls under --floor-mib for any reason while holding, it
 * gives all the memory back at once, says so and exits 3: the scenario then
 * stops its workload.
 * It stops (SIGTERM) when its parent dies, so that a scenario killed with
 * SIGKILL does not leave the memory held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#define WORKLOAD "memhog"
#include "workload.h"
#include "chunks.h"

/* how far under --leave-mib the punched chunks may leave MemAvailable */
#define HOLE_SLACK_MIB 32

static const char usage[] =
	"usage: memhog --leave-mib N [options]\n"
	"\n"
	"Hold anonymous memory until only N MiB of MemAvailable are left, until\n"
	"SIGTERM or SIGINT; give it all back if MemAvailable falls under the floor.\n"
	"\n"
	"  --leave-mib N     MemAvailable to leave (required, 512 or more)\n"
	"  --floor-mib N     give everything back and exit 3 when MemAvailable falls\n"
	"                    under N MiB (default 1536; less than --leave-mib)\n"
	"  --chunk-mib N     allocation step (default 256)\n"
	"  --holes-mib N     give back every other page of the last N MiB allocated\n"
	"                    (fragmented pageblocks; rounded down to whole chunks;\n"
	"                    default 0)\n"
	"  --mlock           mlock the memory (so that swap cannot take it)\n"
	"  --ready FILE      create FILE once the memory is held\n"
	"  -h, --help        this help\n"
	"\n"
	"Exit status: 0 stopped by a signal, 1 error, 2 usage error, 3 the floor\n"
	"was crossed (memory given back).\n";

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * Give back every other page of the newest @n chunks and mlock the rest
 * (MLOCK_ONFAULT: the holes stay holes). Return: the pages given back.
 */
static long punch_holes(int n, int lock)
{
	size_t off, pg = (size_t)sysconf(_SC_PAGESIZE);
	long freed = 0, failed = 0;
	int i, err = 0;

	for (i = nchunks - n; i < nchunks; i++) {
		char *p = chunks[i];

		for (off = pg; off < chunk_len; off += 2 * pg) {
			if (!madvise(p + off, pg, MADV_DONTNEED)) {
				freed++;
			} else if (!failed++) {
				err = errno;
			}
		}
		if (lock && mlock2(p, chunk_len, MLOCK_ONFAULT))
			fprintf(stderr, WORKLOAD ": warning: mlock2: %s\n", strerror(errno));
	}
	if (failed)
		fprintf(stderr, WORKLOAD ": warning: madvise(MADV_DONTNEED) failed for %ld pages: %s\n",
			failed, strerror(err));
	return freed;
}

/* MemAvailable in MiB, or -1 when /proc/meminfo cannot be read. */
static long mem_available_mib(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "leave-mib", required_argument, NULL, 'l' },
		{ "floor-mib", required_argument, NULL, 'f' },
		{ "chunk-mib", required_argument, NULL, 'c' },
		{ "holes-mib", required_argument, NULL, 'o' },
		{ "mlock", no_argument, NULL, 'm' },
		{ "ready", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long leave = 0, floor_mib = 1536, chunk_mib = 256, holes_mib = 0, avail, lowest;
	long holes, holey_chunks, freed;
	const char *ready = NULL;
	int lock = 0, c, fd;
	double t0, last = 0;
	struct sigaction sa;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l': leave = parse_num("--leave-mib", optarg, 512); break;
		case 'f': floor_mib = parse_num("--floor-mib", optarg, 256); break;
		case 'c': chunk_mib = parse_num("--chunk-mib", optarg, 1); break;
		case 'o': holes_mib = parse_num("--holes-mib", optarg, 0); break;
		case 'm': lock = 1; break;
		case 'r': ready = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	holey_chunks = holes_mib / chunk_mib;
	if (holes_mib % chunk_mib)
		fprintf(stderr, WORKLOAD ": note: --holes-mib %ld rounded down to %ld (whole %ld MiB chunks)\n",
			holes_mib, holey_chunks * chunk_mib, chunk_mib);
	holes_mib = holey_chunks * chunk_mib;
	if (!leave || optind != argc || floor_mib >= leave || holes_mib / 2 >= leave - floor_mib) {
		fprintf(stderr, WORKLOAD ": error: %s\n%s", !leave ? "--leave-mib is required" :
			optind != argc ? "unexpected argument" :
			floor_mib >= leave ? "--floor-mib must be below --leave-mib" :
			"--holes-mib: half of it must be less than --leave-mib minus --floor-mib",
			usage);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	chunk_len = (size_t)chunk_mib << 20;
	/* the memory must not outlive the scenario that started it (SIGKILLed) */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() == 1)
		stop = 1;

	t0 = now();
	avail = mem_available_mib();
	if (avail < 0)
		die("cannot read MemAvailable from /proc/meminfo", NULL);
	printf("memhog: MemAvailable %ld MiB, leaving %ld MiB, floor %ld MiB%s\n", avail, leave,
	       floor_mib, lock ? ", mlocked" : "");
	/*
	 * the locked part first, then the chunks to punch (unlocked until
	 * punched), each taken only if MemAvailable, once the chunks so far are
	 * punched, stays above leave less HOLE_SLACK_MIB (a chunk costs a little
	 * more than its size: page tables), and above the floor meanwhile.
	 * Started below leave + holes/2, it punches fewer chunks.
	 */
	while (!stop && (avail = mem_available_mib()) - chunk_mib >= leave + holes_mib / 2)
		if (chunk_grab(lock)) {
			fprintf(stderr, WORKLOAD ": warning: cannot allocate more: %s\n", strerror(errno));
			break;
		}
	for (holes = 0; !stop && holes < holey_chunks; holes++) {
		avail = mem_available_mib() - chunk_mib;
		if (avail <= floor_mib ||
		    avail + (holes + 1) * chunk_mib / 2 <= leave - HOLE_SLACK_MIB)
			break;
		if (chunk_grab(0)) {
			fprintf(stderr, WORKLOAD ": warning: cannot allocate more: %s\n", strerror(errno));
			break;
		}
	}
	holey_chunks = holes;
	freed = punch_holes((int)holey_chunks, lock);
	lowest = avail = mem_available_mib();
	printf("memhog: holding %ld MiB after %.1f s, MemAvailable %ld MiB",
	       (long)nchunks * chunk_mib - freed * (long)sysconf(_SC_PAGESIZE) / (1 << 20),
	       now() - t0, avail);
	if (freed)
		printf(", %ld single pages given back in the last %ld MiB", freed,
		       holey_chunks * chunk_mib);
	putchar('\n');
	if (ready && !stop) {
		fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			die("cannot create", ready);
		close(fd);
	}
	while (!stop) {
		sleep_ms(100);
		avail = mem_available_mib();
		if (avail >= 0 && avail < lowest)
			lowest = avail;
		if (avail >= 0 && avail < floor_mib) {
			chunk_give_back_all();
			printf("memhog: floor crossed at %.1f s: MemAvailable %ld MiB < %ld MiB: "
			       "all memory given back\n", now() - t0, avail, floor_mib);
			return 3;
		}
		if (now() - last >= 5) {
			printf("memhog: t=%.1fs MemAvailable %ld MiB (lowest %ld)\n", now() - t0, avail,
			       lowest);
			last = now();
		}
	}
	chunk_give_back_all();
	printf("memhog: stopped after %.1f s, lowest MemAvailable %ld MiB\n", now() - t0, lowest);
	return 0;
}
