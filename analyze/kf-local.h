/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kf-local.h - what the 'kswapd-failures' report section
 * (report-kswapd-failures.c) shares with its detectors (analyze/kf-*.c).
 * A detector reads the whole run and adds its episodes with kf_add(); the
 * section sorts them, keeps those that overlap the window and prints the
 * table. Rules: docs/report-kswapd-failures.md, section 3.
 *
 * Adding a detector: analyze/kf-NAME.c exporting `const struct kf_detector
 * kf_detector_NAME`, one line in the list of report-kswapd-failures.c, its
 * Makefile object line, its rules in docs/report-kswapd-failures.md and a
 * case in tests/t3200-report-kswapd-failures.sh.
 */
#ifndef VMS_ANALYZE_KF_LOCAL_H
#define VMS_ANALYZE_KF_LOCAL_H

#include "vms.h"
#include "report.h"

/* The row kinds, strongest first (rows of one start sort in this order). */
enum kf_kind { KF_UNRECLAIMABLE, KF_ZERO_RUNS, KF_DIRECT, KF_TRIM_RETRY };

struct kf_episode {
	int has_node;
	long long node;
	enum kf_kind kind;
	const char *status;		/* 'episode', 'partial', 'signal', 'retry' */
	long long start, end;		/* ns, trace clock */
	int has_end;
	char *evidence;
};

struct kf_episodes {
	struct kf_episode *v;
	int n, alloc;
};

struct kf_detector {
	const char *name;		/* for messages: what it looks at */
	/*
	 * Add the episodes of the whole run to @eps; notes (why it could not
	 * run, what it left out) go to @t. Return: 0, or -1 with vms_error set.
	 */
	int (*detect)(struct vms_window *ctx, struct kf_episodes *eps, struct table *t);
};

/* Add an episode; takes @ev->buf (freed on failure). Return: 0, or -1 with vms_error set. */
int kf_add(struct kf_episodes *e, int has_node, long long node, enum kf_kind kind,
	   const char *status, long long start, int has_end, long long end, struct vms_buf *ev);
/* vms_error with the database's SQLite message; Return: -1. */
int kf_sql_fail(struct vms_window *ctx);
/* COUNT-style query; Return: the number, or -1 with vms_error set. */
long long kf_count(struct vms_window *ctx, const char *sql);

#endif
