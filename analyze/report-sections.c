// SPDX-License-Identifier: GPL-2.0
/*
 * report-sections.c - the one list of `vmscope report` sections, in the
 * order they are printed. A section is added by one SECTION() line here and
 * its file analyze/report-NAME.c defining report_NAME() (then its Makefile
 * object line, docs/report-NAME.md, its row in docs/report.md and README.md,
 * which tests/t0050-registries.sh checks against `vmscope report --list`,
 * and its test).
 */
#include "report.h"

#define SECTIONS(SECTION)							\
	SECTION("summary", summary, "kernel, span, events per type, lost events, sysctls") \
	SECTION("episodes", episodes, "direct, kswapd and memcg reclaim episodes with latencies") \
	SECTION("vmstat", vmstat, "mmtests-style reclaim table from /proc/vmstat deltas") \
	SECTION("ratio", ratio, "slab/pagecache ratio over time")		\
	SECTION("refaults", refaults, "refault and activation rates, anon and file") \
	SECTION("kswapd-failures", kswapd_failures, "kswapd failure episodes per node") \
	SECTION("throttle", throttle, "reclaim throttling by reason and task")	\
	SECTION("shrinkers", shrinkers, "per-shrinker calls, scanned, freed, deferred") \
	SECTION("audit", audit, "trace totals against vmstat deltas") \
	SECTION("replay", replay, "what vmscope replay stored: agreement, where policies differ") \
	SECTION("boost", boost, "boosted kswapd runs: evidence, their LRU and slab reclaim")

#define DECLARE_SECTION(name, fn, summary) int report_##fn(struct vms_window *ctx, struct out *o);
#define LIST_SECTION(name, fn, summary) { name, report_##fn, summary },

SECTIONS(DECLARE_SECTION)

const struct report_section report_sections[] = { SECTIONS(LIST_SECTION) };

const int report_nsections = sizeof(report_sections) / sizeof(report_sections[0]);
