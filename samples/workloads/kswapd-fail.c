// SPDX-License-Identifier: GPL-2.0
/*
 * kswapd-fail - reproduces the 2024 kswapd cache_trim_mode report: memory
 * full of cold anonymous pages that kswapd does not reclaim, so that every
 * balance_pgdat() run frees nothing, kswapd_failures reaches
 * MAX_RECLAIM_RETRIES (16), the node is marked unreclaimable
 * (node_unreclaimable 1 in /proc/zoneinfo) and kswapd stops being woken
 * although the free memory is still below the high watermark. In the report
 * cache_trim_mode kept kswapd off the cold anon pages; here there is no swap,
 * so they cannot be reclaimed at all, and the symptom is the same.
 *
 * How: with vm.watermark_scale_factor raised (samples/run-scenario sets it;
 * the watermarks are then gigabytes apart), allocate and touch anonymous
 * memory in chunks until every zone is below its low watermark and kswapd
 * has started (pageoutrun in /proc/vmstat grows), then hold it without
 * touching it for --hold seconds and exit.
 *
 * Safety: the program never lets a zone's free pages fall below
 *   min + max((low - min) / 2, --margin-mib)
 * (at most min + 3/4 (low - min)) of that zone, read from /proc/zoneinfo
 * after every chunk and every 100 ms while holding; zones under 256 MiB (DMA)
 * are kept out of reach by the lowmem reserve. It stops allocating there,
 * and gives chunks back when free memory falls under that floor for any
 * reason. It refuses to start when the largest zone's low watermark is less
 * than --margin-mib above its min (raise vm.watermark_scale_factor), and it
 * never holds more than --max-mib. A status line every second shows free
 * memory against the watermarks, node_unreclaimable and kswapd's counters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define WORKLOAD "kswapd-fail"
#include "workload.h"
#include "chunks.h"
#include "zones.h"

static const char usage[] =
	"usage: kswapd-fail [options]\n"
	"\n"
	"Hold cold anonymous memory until kswapd runs and cannot reclaim (no swap),\n"
	"keeping every zone's free memory well above its min watermark.\n"
	"\n"
	"  --hold S          seconds to hold the memory once kswapd runs (default 30)\n"
	"  --after-unreclaimable S  stop holding S seconds after a node has been\n"
	"                    marked unreclaimable (default: hold for --hold seconds)\n"
	"  --wake-timeout S  give up waiting for kswapd after S seconds (default 120)\n"
	"  --chunk-mib N     allocation step (default 64)\n"
	"  --margin-mib N    least distance kept above a zone's min watermark\n"
	"                    (default 512; the floor is min + max((low-min)/2, N))\n"
	"  --max-mib N       never hold more than N MiB (default: no limit but the floor)\n"
	"  --mlock           mlock the memory (when swap is on, so that it stays)\n"
	"  -h, --help        this help\n"
	"\n"
	"Exit status: 0 done (kswapd ran), 1 error, 2 usage error, 3 kswapd did not\n"
	"run before the floor, --max-mib or --wake-timeout was reached.\n";


static void status(const char *what, double t0, long pageoutrun0, long steal0)
{
	int i;

	printf("t=%.1fs %s: held %ld MiB, pageoutrun +%ld, pgsteal_kswapd +%ld, node_unreclaimable %d;",
	       now() - t0, what, (long)nchunks * (long)(chunk_len >> 20),
	       vmstat("pageoutrun") - pageoutrun0, vmstat("pgsteal_kswapd") - steal0,
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "hold", required_argument, NULL, 'H' },
		{ "after-unreclaimable", required_argument, NULL, 'u' },
		{ "wake-timeout", required_argument, NULL, 'w' },
		{ "chunk-mib", required_argument, NULL, 'c' },
		{ "margin-mib", required_argument, NULL, 'g' },
		{ "max-mib", required_argument, NULL, 'M' },
		{ "mlock", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long hold = 30, wake_timeout = 120, chunk_mib = 64, margin_mib = 512, max_mib = 0, after = -1;
	long margin_pages, pageoutrun0, steal0, backoffs = 0;
	double t0, t_wake = 0, t_unrecl = 0, last_status = 0, t_end;
	int lock = 0, c, i, big = 0, z, woke = 0, was_unrecl;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'H': hold = parse_num("--hold", optarg, 0); break;
		case 'u': after = parse_num("--after-unreclaimable", optarg, 0); break;
		case 'w': wake_timeout = parse_num("--wake-timeout", optarg, 1); break;
		case 'c': chunk_mib = parse_num("--chunk-mib", optarg, 1); break;
		case 'g': margin_mib = parse_num("--margin-mib", optarg, 64); break;
		case 'M': max_mib = parse_num("--max-mib", optarg, 1); break;
		case 'l': lock = 1; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "kswapd-fail: error: unexpected argument '%s'\n%s", argv[optind], usage);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	page_kb = sysconf(_SC_PAGESIZE) / 1024;
	chunk_len = (size_t)chunk_mib << 20;
	margin_pages = margin_mib * 1024 / page_kb;
	if (read_zoneinfo()) {
		errno = errno ? errno : ENOENT;
		die("cannot read the zones of /proc/zoneinfo", NULL);
	}
	for (i = 1; i < nzones; i++)
		if (zones[i].managed > zones[big].managed)
			big = i;
	if (zones[big].low - zones[big].min < margin_pages) {
		fprintf(stderr, "kswapd-fail: error: the watermarks of %s are too close (min %ld MiB, low %ld MiB) "
			"for a safety margin of %ld MiB: raise vm.watermark_scale_factor\n",
			zones[big].name, mib(zones[big].min), mib(zones[big].low), margin_mib);
		return 1;
	}
	was_unrecl = unreclaimable();
	if (was_unrecl)
		printf("kswapd-fail: note: a node is already marked unreclaimable\n");

	t0 = now();
	pageoutrun0 = vmstat("pageoutrun");
	steal0 = vmstat("pgsteal_kswapd");
	status("start", t0, pageoutrun0, steal0);

	/* allocate until every zone is below low and kswapd has run */
	for (;;) {
		if (read_zoneinfo())
			die("cannot read /proc/zoneinfo", NULL);
		z = zone_at_floor(margin_pages);
		if (z >= 0) {
			status("safety floor reached, allocation stopped", t0, pageoutrun0, steal0);
			break;
		}
		if (unreclaimable() && !was_unrecl) {
			t_unrecl = now();
			was_unrecl = 1;
			status("node_unreclaimable is 1: kswapd gave up", t0, pageoutrun0, steal0);
		}
		if (all_below_low() && vmstat("pageoutrun") > pageoutrun0) {
			woke = 1;
			t_wake = now();
			status("kswapd is running, every zone below low", t0, pageoutrun0, steal0);
			break;
		}
		if (max_mib && (long)(nchunks + 1) * chunk_mib > max_mib) {
			status("--max-mib reached", t0, pageoutrun0, steal0);
			break;
		}
		if (now() - t0 > wake_timeout) {
			status("--wake-timeout reached", t0, pageoutrun0, steal0);
			break;
		}
		if (chunk_grab(lock)) {
			status("cannot allocate more", t0, pageoutrun0, steal0);
			break;
		}
		if (now() - last_status >= 1) {
			status("allocating", t0, pageoutrun0, steal0);
			last_status = now();
		}
	}
	if (!woke && vmstat("pageoutrun") > pageoutrun0) {
		woke = 1;
		t_wake = now();
	}

	/* hold, untouched; give chunks back whenever a zone nears its floor */
	t_end = now() + hold;
	while (now() < t_end) {
		sleep_ms(100);
		if (read_zoneinfo())
			die("cannot read /proc/zoneinfo", NULL);
		while ((z = zone_at_floor(margin_pages)) >= 0 && nchunks > 0) {
			chunk_give_back();
			backoffs++;
			if (read_zoneinfo())
				die("cannot read /proc/zoneinfo", NULL);
		}
		if (!woke && vmstat("pageoutrun") > pageoutrun0) {
			woke = 1;
			t_wake = now();
		}
		if (unreclaimable() && !was_unrecl) {
			t_unrecl = now();
			status("node_unreclaimable is 1: kswapd gave up", t0, pageoutrun0, steal0);
		}
		was_unrecl = unreclaimable();
		if (t_unrecl > 0 && after >= 0 && t_unrecl + after < t_end)
			t_end = t_unrecl + after;
		if (now() - last_status >= 1) {
			status("holding", t0, pageoutrun0, steal0);
			last_status = now();
		}
	}
	status("end", t0, pageoutrun0, steal0);
	printf("kswapd-fail: kswapd %s", woke ? "ran" : "did not run");
	if (woke)
		printf(" (from t=%.1fs)", t_wake - t0);
	if (t_unrecl > 0)
		printf(", node unreclaimable from t=%.1fs", t_unrecl - t0);
	printf(", %ld chunks given back to stay above the floor\n", backoffs);
	chunk_give_back_all();
	return woke ? 0 : 3;
}
