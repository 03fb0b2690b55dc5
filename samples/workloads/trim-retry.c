// SPDX-License-Identifier: GPL-2.0
/*
 * trim-retry - tries to make kswapd take the 6.9+ cache_trim_mode retry
 * (Byungchul Park's 2024 report, "mm, vmscan: retry kswapd's priority loop
 * with cache_trim_mode off on failure"): a node whose inactive file list is
 * large but cannot be reclaimed, and whose cold anonymous memory could be
 * swapped out. With cache_trim_mode on (plenty of inactive file, no file
 * refaults) kswapd scans file only; every page it scans is kept, the whole
 * priority loop (12 down to 1) reclaims nothing, and balance_pgdat()
 * restarts it with no_cache_trim_mode set: the second sweep scans anon too
 * and swaps the cold anon out. Before 6.9 the run counted as a failure.
 *
 * How: the file pages are made unreclaimable without activating them.
 * --pin-mib MiB of a sparse scratch file (unlinked, kept open) are spliced
 * into pipes that are never read, then POSIX_FADV_DONTNEED moves them to the
 * inactive list (it cannot drop them): each pipe buffer holds a reference on its page cache folio, so
 * shrink_folio_list() finds a clean, unmapped, unreferenced folio whose
 * __remove_mapping() fails on the extra reference, and puts it back on the
 * inactive list (keep_locked: no activation, so the inactive list stays
 * large and inactive_is_low() stays false). Holes read as zeroes: no disk
 * I/O. Then anonymous memory is allocated and touched once (cold) in
 * --chunk-mib chunks until every zone is below its low watermark and kswapd
 * has started (pageoutrun grows); it is held untouched for --hold seconds.
 * With --cycles N, each time kswapd is done (pgscan_kswapd unchanged for a
 * second) --cycle-mib of the oldest chunks (swapped out first) are unmapped
 * and new ones allocated down to the low watermarks, which wakes kswapd again,
 * after a quiet moment (--quiet): a file refault anywhere on the node since
 * kswapd's last run turns cache_trim_mode off for the next one. The pinned
 * file must also outweigh the watermarks: with file + free below the sum of
 * the high watermarks, prepare_scan_control() sets file_is_tiny and kswapd
 * scans anon only (4 GiB against about 4.9 GiB of high watermarks with
 * vm.watermark_scale_factor 1000 on 24 GiB). With --pressure S the node is
 * then kept at its low watermarks for S seconds, so that kswapd runs back to
 * back, each run starting right after the previous one's refault snapshot. The swap space must be
 * set up beforehand (samples/run-scenario trim-retry does it).
 *
 * Safety: it never lets MemFree fall below --floor-mib, nor a zone of 256 MiB
 * or more below min + max((low - min) / 2, --margin-mib) (at most
 * min + 3/4 (low - min)), read after every chunk and every 100 ms; under
 * that it stops allocating and gives chunks back (newest first), and, if
 * that is not enough, closes the pipes. It refuses to start when the largest
 * zone's low watermark is less than --margin-mib above its min (raise
 * vm.watermark_scale_factor). Everything it holds goes with the process.
 * A status line every second shows memory, kswapd's and swap's counters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define WORKLOAD "trim-retry"
#include "workload.h"
#include "zones.h"

static const char usage[] =
	"usage: trim-retry --file PATH [options]\n"
	"\n"
	"Pin page cache (spliced into unread pipes: unreclaimable, never activated)\n"
	"and hold cold anonymous memory until kswapd runs, so that its cache_trim_mode\n"
	"sweep fails and (6.9+) it retries with anon. Needs swap to be on.\n"
	"\n"
	"  --file PATH       sparse scratch file for the pinned pages (made, then removed)\n"
	"  --pin-mib N       page cache to pin (default 4096)\n"
	"  --pipe-mib N      pinned per pipe (default 1: fs.pipe-max-size without\n"
	"                    CAP_SYS_RESOURCE)\n"
	"  --hold S          seconds to hold once kswapd runs (default 20)\n"
	"  --cycles N        times to wake kswapd again once it is done (default 0)\n"
	"  --cycle-mib N     anon unmapped (oldest first) before each cycle (default 2048)\n"
	"  --quiet S         before each cycle, wait for S seconds without a file refault\n"
	"                    activation (workingset_activate_file; default 2)\n"
	"  --quiet-timeout S but not longer than S seconds (default 30)\n"
	"  --pressure S      after the cycles, keep the node at its low watermarks for S\n"
	"                    seconds (oldest chunks unmapped, new ones allocated as kswapd\n"
	"                    frees memory): kswapd runs back to back (default 0)\n"
	"  --wake-timeout S  give up waiting for kswapd after S seconds (default 120)\n"
	"  --chunk-mib N     anon allocation step (default 64)\n"
	"  --floor-mib N     least MemFree kept (default 1536)\n"
	"  --margin-mib N    least distance kept above a zone's min watermark\n"
	"                    (default 512; the floor is min + max((low-min)/2, N))\n"
	"  --max-anon-mib N  never hold more than N MiB of anon (default: the floors)\n"
	"  -h, --help        this help\n"
	"\n"
	"Exit status: 0 done (kswapd ran), 1 error, 2 usage error, 3 kswapd did not\n"
	"run before a floor, --max-anon-mib or --wake-timeout was reached.\n";

#define MAX_CHUNKS 65536
#define MAX_PIPES 65536

static char *chunks[MAX_CHUNKS];
static int chunk_first, chunk_end;	/* live chunks: [chunk_first, chunk_end) */
static size_t chunk_len;
static int pipes[MAX_PIPES];		/* read ends of the pinning pipes */
static int npipes;
static long pinned_bytes;

/* A /proc/meminfo line ("MemFree", "Inactive(file)") in MiB, or -1. */
static long meminfo_mib(const char *name)
{
	char line[256], key[64];
	long kb, found = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %ld kB", key, &kb) == 2 && !strcmp(key, name)) {
			found = kb / 1024;
			break;
		}
	fclose(f);
	return found;
}

static long memfree_mib(void)
{
	return meminfo_mib("MemFree");
}

/* Is a floor crossed: MemFree, or a zone of 256 MiB or more (DMA is kept out by its reserve)? */
static int at_floor(long margin_pages, long floor_mib)
{
	long free = memfree_mib();

	return (free >= 0 && free <= floor_mib) || zone_at_floor(margin_pages) >= 0;
}

static long held_mib(void)
{
	return (long)(chunk_end - chunk_first) * (long)(chunk_len >> 20);
}

struct base {
	double t0;
	long pageoutrun, steal, scan, pswpout;
};

static void status(const char *what, const struct base *b)
{
	int i;

	printf("t=%.1fs %s: anon %ld MiB, pinned %ld MiB, MemFree %ld MiB, file inactive %ld "
	       "active %ld MiB, pageoutrun +%ld, pgscan_kswapd +%ld, pgsteal_kswapd +%ld, "
	       "pswpout +%ld, node_unreclaimable %d;",
	       now() - b->t0, what, held_mib(), pinned_bytes >> 20, memfree_mib(),
	       meminfo_mib("Inactive(file)"), meminfo_mib("Active(file)"),
	       vmstat("pageoutrun") - b->pageoutrun, vmstat("pgscan_kswapd") - b->scan,
	       vmstat("pgsteal_kswapd") - b->steal, vmstat("pswpout") - b->pswpout,
	       unreclaimable());
	for (i = 0; i < nzones; i++) {
		const struct zone *z = &zones[i];

		if (z->managed < 16384)	/* skip DMA: 64 MiB or less */
			continue;
		printf(" %s free %ld MiB (min %ld low %ld high %ld)", z->name, mib(z->free),
		       mib(z->min), mib(z->low), mib(z->high));
	}
	printf("\n");
}

/* Allocate and touch one chunk of anon memory (once: it is cold from then on). */
static int grab(void)
{
	size_t off, pg = (size_t)sysconf(_SC_PAGESIZE);
	char *p;

	if (chunk_end == MAX_CHUNKS)
		return -1;
	p = mmap(NULL, chunk_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	madvise(p, chunk_len, MADV_NOHUGEPAGE);	/* 4 KiB pages: swapped out one by one */
	for (off = 0; off < chunk_len; off += pg)
		p[off] = 1;
	chunks[chunk_end++] = p;
	return 0;
}

static void give_back_newest(void)
{
	if (chunk_end > chunk_first)
		munmap(chunks[--chunk_end], chunk_len);
}

static void give_back_oldest(void)
{
	if (chunk_end > chunk_first)
		munmap(chunks[chunk_first++], chunk_len);
}

static void unpin_all(void)
{
	while (npipes > 0)
		close(pipes[--npipes]);
	pinned_bytes = 0;
}

/*
 * Splice @pin_bytes of @fd (a sparse file) into pipes of @pipe_bytes each and
 * keep only their read ends: the page cache pages stay referenced until the
 * pipes are closed.
 */
static void pin(int fd, long pin_bytes, long pipe_bytes)
{
	struct rlimit rl = { 0 };
	loff_t off = 0;

	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	while (pinned_bytes < pin_bytes) {
		int p[2], cap;
		long in_pipe = 0;

		if (npipes == MAX_PIPES)
			errno = EMFILE;
		if (npipes == MAX_PIPES || pipe2(p, O_NONBLOCK))
			die("cannot make a pipe", NULL);
		cap = fcntl(p[1], F_SETPIPE_SZ, (int)pipe_bytes);
		if (cap < 0)
			die("F_SETPIPE_SZ", NULL);
		while (in_pipe < cap && pinned_bytes + in_pipe < pin_bytes) {
			ssize_t n = splice(fd, &off, p[1], NULL, cap - in_pipe, SPLICE_F_NONBLOCK);

			if (n < 0 && errno == EAGAIN)
				break;	/* the pipe is full */
			if (n <= 0)
				die("splice", NULL);
			in_pipe += n;
		}
		close(p[1]);
		pipes[npipes++] = p[0];
		pinned_bytes += in_pipe;
	}
	/*
	 * splice marks each folio accessed, twice when a large folio spans two
	 * pipes, which activates it. DONTNEED cannot drop a pinned folio; it
	 * moves it to the tail of the inactive list instead (deactivate_file_folio).
	 */
	if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		fprintf(stderr, "trim-retry: warning: posix_fadvise DONTNEED failed\n");
}

struct opts {
	long hold, cycles, cycle_mib, quiet, quiet_timeout, wake_timeout, chunk_mib, floor_mib;
	long pressure, margin_pages, max_anon_mib;
};

/* Read the zones and give memory back while a floor is crossed. Return: chunks given back. */
static long keep_floor(const struct opts *o, const struct base *b)
{
	long n = 0;

	if (read_zoneinfo())
		die("cannot read /proc/zoneinfo", NULL);
	while (at_floor(o->margin_pages, o->floor_mib)) {
		if (chunk_end > chunk_first) {
			give_back_newest();
		} else if (npipes) {
			unpin_all();
			status("floor reached with no anon held: pipes closed", b);
		} else {
			break;
		}
		n++;
		if (read_zoneinfo())
			die("cannot read /proc/zoneinfo", NULL);
	}
	return n;
}

/* Allocate until every zone is below low and kswapd has run. Return: 1 kswapd ran. */
static int fill(const struct opts *o, const struct base *b)
{
	long pageoutrun0 = vmstat("pageoutrun");
	double start = now(), last = 0;

	for (;;) {
		if (read_zoneinfo())
			die("cannot read /proc/zoneinfo", NULL);
		if (at_floor(o->margin_pages, o->floor_mib)) {
			status("safety floor reached, allocation stopped", b);
			break;
		}
		if (all_below_low() && vmstat("pageoutrun") > pageoutrun0) {
			status("kswapd is running, every zone below low", b);
			return 1;
		}
		if (o->max_anon_mib && held_mib() + o->chunk_mib > o->max_anon_mib) {
			status("--max-anon-mib reached", b);
			break;
		}
		if (now() - start > o->wake_timeout) {
			status("--wake-timeout reached", b);
			break;
		}
		if (grab()) {
			status("cannot allocate more", b);
			break;
		}
		if (now() - last >= 1) {
			status("allocating", b);
			last = now();
		}
	}
	return vmstat("pageoutrun") > pageoutrun0;
}

/* Hold for @secs; return early (1) once kswapd has scanned nothing for a second, if @until_idle. */
static int hold(const struct opts *o, const struct base *b, double secs, int until_idle,
		long *backoffs)
{
	double end = now() + secs, last = 0, idle_since = now();
	long scans = vmstat("pgscan_kswapd");

	while (now() < end) {
		long r;

		sleep_ms(100);
		*backoffs += keep_floor(o, b);
		r = vmstat("pgscan_kswapd");
		if (r != scans) {
			scans = r;
			idle_since = now();
		}
		if (until_idle && now() - idle_since >= 1) {
			status("kswapd is done (pgscan_kswapd unchanged for 1 s)", b);
			return 1;
		}
		if (now() - last >= 1) {
			status("holding", b);
			last = now();
		}
	}
	return 0;
}

/*
 * Wait until no file refault has activated a page for @quiet seconds (at
 * most @timeout): any such refault since kswapd's last run sets
 * DEACTIVATE_FILE in prepare_scan_control(), and with it cache_trim_mode is
 * off for that whole run. Return: 1 quiet, 0 timed out.
 */
static int wait_quiet(long quiet, long timeout, const struct base *b)
{
	double start = now(), since = now();
	long act = vmstat("workingset_activate_file");

	while (now() - since < quiet) {
		long a;

		if (now() - start > timeout) {
			status("no quiet moment: file refaults went on", b);
			return 0;
		}
		sleep_ms(100);
		a = vmstat("workingset_activate_file");
		if (a != act) {
			act = a;
			since = now();
		}
	}
	printf("trim-retry: quiet: no file refault activation for %ld s (waited %.1f s)\n", quiet,
	       now() - start);
	return 1;
}

/*
 * Keep the node at its low watermarks for @secs: whenever a zone is back
 * above low (kswapd freed memory), unmap the oldest chunk and allocate a new
 * one, a few per 100 ms, so that kswapd runs back to back (each run then
 * starts just after the last one's refault snapshot). Return: chunks swapped.
 */
static long pressure(const struct opts *o, const struct base *b, double secs, long *backoffs)
{
	double end = now() + secs, last = 0;
	long n = 0;

	while (now() < end) {
		int k;

		sleep_ms(100);
		*backoffs += keep_floor(o, b);
		for (k = 0; k < 8 && !all_below_low() && !at_floor(o->margin_pages, o->floor_mib); k++) {
			if (chunk_end - chunk_first > 1)
				give_back_oldest();
			if (grab())
				break;
			n++;
			if (read_zoneinfo())
				die("cannot read /proc/zoneinfo", NULL);
		}
		if (now() - last >= 1) {
			status("pressure", b);
			last = now();
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'F' },
		{ "pin-mib", required_argument, NULL, 'p' },
		{ "pipe-mib", required_argument, NULL, 'P' },
		{ "hold", required_argument, NULL, 'H' },
		{ "cycles", required_argument, NULL, 'C' },
		{ "cycle-mib", required_argument, NULL, 'm' },
		{ "quiet", required_argument, NULL, 'q' },
		{ "pressure", required_argument, NULL, 'r' },
		{ "quiet-timeout", required_argument, NULL, 'Q' },
		{ "wake-timeout", required_argument, NULL, 'w' },
		{ "chunk-mib", required_argument, NULL, 'c' },
		{ "floor-mib", required_argument, NULL, 'f' },
		{ "margin-mib", required_argument, NULL, 'g' },
		{ "max-anon-mib", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct opts o = { .hold = 20, .cycle_mib = 2048, .quiet = 2, .quiet_timeout = 30,
			  .wake_timeout = 120, .chunk_mib = 64, .floor_mib = 1536 };
	long pin_mib = 4096, pipe_mib = 1, margin_mib = 512, backoffs = 0, cycle;
	const char *path = NULL;
	struct base b;
	int c, i, big = 0, fd, woke;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'F': path = optarg; break;
		case 'p': pin_mib = parse_num("--pin-mib", optarg, 16); break;
		case 'P': pipe_mib = parse_num("--pipe-mib", optarg, 1); break;
		case 'H': o.hold = parse_num("--hold", optarg, 0); break;
		case 'C': o.cycles = parse_num("--cycles", optarg, 0); break;
		case 'm': o.cycle_mib = parse_num("--cycle-mib", optarg, 1); break;
		case 'q': o.quiet = parse_num("--quiet", optarg, 0); break;
		case 'r': o.pressure = parse_num("--pressure", optarg, 0); break;
		case 'Q': o.quiet_timeout = parse_num("--quiet-timeout", optarg, 0); break;
		case 'w': o.wake_timeout = parse_num("--wake-timeout", optarg, 1); break;
		case 'c': o.chunk_mib = parse_num("--chunk-mib", optarg, 1); break;
		case 'f': o.floor_mib = parse_num("--floor-mib", optarg, 256); break;
		case 'g': margin_mib = parse_num("--margin-mib", optarg, 64); break;
		case 'M': o.max_anon_mib = parse_num("--max-anon-mib", optarg, 1); break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (optind != argc || !path) {
		fprintf(stderr, "trim-retry: error: %s\n%s",
			path ? "unexpected argument" : "--file is required", usage);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	page_kb = sysconf(_SC_PAGESIZE) / 1024;
	chunk_len = (size_t)o.chunk_mib << 20;
	o.margin_pages = margin_mib * 1024 / page_kb;
	if (read_zoneinfo()) {
		errno = errno ? errno : ENOENT;
		die("cannot read the zones of /proc/zoneinfo", NULL);
	}
	for (i = 1; i < nzones; i++)
		if (zones[i].managed > zones[big].managed)
			big = i;
	if (zones[big].low - zones[big].min < o.margin_pages) {
		fprintf(stderr, "trim-retry: error: the watermarks of %s are too close (min %ld MiB, "
			"low %ld MiB) for a safety margin of %ld MiB: raise vm.watermark_scale_factor\n",
			zones[big].name, mib(zones[big].min), mib(zones[big].low), margin_mib);
		return 1;
	}
	if (vmstat("nr_swap_pages") == 0 || access("/proc/swaps", R_OK))
		fprintf(stderr, "trim-retry: warning: no swap space: anon cannot be reclaimed\n");

	b.t0 = now();
	b.pageoutrun = vmstat("pageoutrun");
	b.steal = vmstat("pgsteal_kswapd");
	b.scan = vmstat("pgscan_kswapd");
	b.pswpout = vmstat("pswpout");
	status("start", &b);

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die("cannot create", path);
	if (ftruncate(fd, pin_mib << 20))
		die("cannot size", path);
	unlink(path);		/* kept open to the end: the pages stay in its page cache */
	pin(fd, pin_mib << 20, pipe_mib << 20);
	printf("trim-retry: pinned %ld MiB of page cache in %d pipes\n", pinned_bytes >> 20, npipes);
	status("pinned", &b);

	woke = fill(&o, &b);
	if (!woke) {
		status("end", &b);
		printf("trim-retry: kswapd did not run\n");
		return 3;
	}
	for (cycle = 0; cycle < o.cycles; cycle++) {
		long n;

		if (!hold(&o, &b, o.wake_timeout, 1, &backoffs))
			break;
		wait_quiet(o.quiet, o.quiet_timeout, &b);
		/* the oldest chunks went to swap first: unmap them, then allocate anew */
		for (n = 0; n < o.cycle_mib / o.chunk_mib && chunk_end - chunk_first > 1; n++)
			give_back_oldest();
		printf("trim-retry: cycle %ld: %ld oldest chunks unmapped\n", cycle + 1, n);
		fill(&o, &b);
	}
	if (o.pressure)
		printf("trim-retry: pressure: %ld chunks renewed in %ld s\n",
		       pressure(&o, &b, o.pressure, &backoffs), o.pressure);
	hold(&o, &b, o.hold, 0, &backoffs);
	status("end", &b);
	printf("trim-retry: kswapd ran; %ld cycles; %ld chunks given back to stay above the floors\n",
	       cycle, backoffs);
	unpin_all();
	while (chunk_end > chunk_first)
		give_back_oldest();
	return 0;
}
