// SPDX-License-Identifier: GPL-2.0
/*
 * report-sections.c - the one list of `vmscope report` sections, in the
 * order they are printed. A section is added here by one line.
 */
#include "report.h"

const struct report_section report_sections[] = {
	{ "summary", report_summary, "kernel, span, events per type, lost events, sysctls" },
	{ "episodes", report_episodes, "direct, kswapd and memcg reclaim episodes with latencies" },
	{ "vmstat", report_vmstat, "mmtests-style reclaim table from /proc/vmstat deltas" },
	{ "ratio", report_ratio, "slab/pagecache ratio over time" },
	{ "refaults", report_refaults, "refault and activation rates, anon and file" },
	{ "kswapd-failures", report_kswapd_failures, "kswapd failure episodes per node" },
	{ "throttle", report_throttle, "reclaim throttling by reason and task" },
	{ "shrinkers", report_shrinkers, "per-shrinker calls, scanned, freed, deferred" },
	{ "audit", report_audit, "trace totals against vmstat deltas" },
	{ "replay", report_replay, "what vmscope replay stored: agreement, where policies differ" },
};

const int report_nsections = sizeof(report_sections) / sizeof(report_sections[0]);
