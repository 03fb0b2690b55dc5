/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zones.h - what the machine-wide sample workloads (kswapd-fail.c,
 * trim-retry.c) share about the zones: /proc/zoneinfo read into zones[],
 * /proc/vmstat counters, and the safety floor they keep above each zone's
 * min watermark. Include after workload.h; the program sets page_kb.
 */
#ifndef VMS_ZONES_H
#define VMS_ZONES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ZONES 8

struct zone {
	char name[48];
	long free, min, low, high, managed, present, protect_top;
	int unreclaimable;
};

static struct zone zones[MAX_ZONES];
static int nzones;
static long page_kb;

/*
 * Read the populated zones of /proc/zoneinfo (managed > 0). protect_top is
 * the zone's lowmem reserve against allocations that may use the highest
 * zone (the last entry of "protection:"), which the page allocator adds to
 * the watermark when a movable allocation falls back to a lower zone.
 */
static int read_zoneinfo(void)
{
	char line[512], name[16];
	FILE *f = fopen("/proc/zoneinfo", "r");
	struct zone z;
	int have = 0, node, unrecl;
	long v;

	if (!f)
		return -1;
	nzones = 0;
	memset(&z, 0, sizeof(z));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %15s", &node, name) == 2) {
			if (have && z.managed > 0 && nzones < MAX_ZONES)
				zones[nzones++] = z;
			memset(&z, 0, sizeof(z));
			snprintf(z.name, sizeof(z.name), "node%d/%s", node, name);
			have = 1;
		} else if (sscanf(line, " pages free %ld", &v) == 1) {
			z.free = v;
		} else if (sscanf(line, " min %ld", &v) == 1) {
			z.min = v;
		} else if (sscanf(line, " low %ld", &v) == 1) {
			z.low = v;
		} else if (sscanf(line, " high %ld", &v) == 1) {
			z.high = v;
		} else if (sscanf(line, " managed %ld", &v) == 1) {
			z.managed = v;
		} else if (sscanf(line, " present %ld", &v) == 1) {
			z.present = v;
		} else if (sscanf(line, " node_unreclaimable: %d", &unrecl) == 1) {
			z.unreclaimable = unrecl;
		} else if (strstr(line, "protection: (")) {
			char *p = strrchr(line, ',');
			char *q = strchr(line, '(');

			/* the last value is against the highest zone (Normal or Movable) */
			z.protect_top = strtol(p ? p + 1 : q + 1, NULL, 10);
		}
	}
	if (have && z.managed > 0 && nzones < MAX_ZONES)
		zones[nzones++] = z;
	fclose(f);
	return nzones ? 0 : -1;
}

/* A /proc/vmstat counter, or -1. */
static long vmstat(const char *name)
{
	char line[256], key[128];
	long v, found = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %ld", key, &v) == 2 && !strcmp(key, name)) {
			found = v;
			break;
		}
	fclose(f);
	return found;
}

/* Pages to MiB (page_kb is set by the program). */
static long mib(long pages)
{
	return pages * page_kb / 1024;
}

/*
 * The lowest free count the program lets a zone reach: half-way between
 * min and low, or --margin-mib above min if that is more, but never above
 * three quarters of the way to low (a zone that is still being initialised
 * lazily grows when it falls below low, and has narrow watermarks until it
 * has grown).
 */
static long floor_of(const struct zone *z, long margin_pages)
{
	long gap = z->low - z->min, d = gap / 2;

	if (d < margin_pages)
		d = margin_pages;
	if (d > gap * 3 / 4)
		d = gap * 3 / 4;
	return z->min + d;
}

/*
 * Index of a zone at or under its floor, or -1. Zones under 256 MiB (DMA)
 * are not watched: the lowmem reserve keeps allocations that may use higher
 * zones out of them, so the program cannot drain them.
 */
static int zone_at_floor(long margin_pages)
{
	int i;

	for (i = 0; i < nzones; i++)
		if (zones[i].managed >= 256 * 1024 / page_kb &&
		    zones[i].free <= floor_of(&zones[i], margin_pages))
			return i;
	return -1;
}

/* Every zone below its low watermark, counting the reserve of lower zones. */
static int all_below_low(void)
{
	int i, top = nzones - 1;

	for (i = 0; i < nzones; i++) {
		long mark = zones[i].low + (i == top ? 0 : zones[i].protect_top);

		if (zones[i].free >= mark)
			return 0;
	}
	return 1;
}

/* A zone of the node is marked unreclaimable (kswapd gave up on it). */
static int unreclaimable(void)
{
	int i;

	for (i = 0; i < nzones; i++)
		if (zones[i].unreclaimable)
			return 1;
	return 0;
}

#endif
