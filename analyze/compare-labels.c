// SPDX-License-Identifier: GPL-2.0
/*
 * compare-labels.c - the default names of the two sides of `vmscope compare
 * ... --vs ...` (without --label): the setting that tells them apart, when
 * the runs recorded one (table sysctl: vm.* and memcg.swappiness). A sysctl
 * with one value in every run of side A and another one in every run of
 * side B names them "name=value" (the first such name in sort order);
 * otherwise they stay "A" and "B".
 */
#include <stdio.h>
#include <string.h>

#include "vms.h"
#include "compare.h"

/* The value of sysctl @name in run @r into @buf ("" when absent). Return: 0, -1. */
static int sysctl_of(struct cmp_run *r, const char *name, char *buf, size_t size)
{
	sqlite3_stmt *st = vms_window_prepare(&r->ctx, "SELECT value FROM sysctl WHERE name = ?3");
	int rc;

	buf[0] = 0;
	if (!st)
		return -1;
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* Is @name's value the same in all runs of side @k? Its value into @val. */
static int uniform(struct cmp_groups *g, int k, const char *name, char *val, size_t size)
{
	char other[64];

	if (sysctl_of(&g->run[k][0], name, val, size) || !val[0])
		return 0;
	for (int i = 1; i < g->nrun[k]; i++)
		if (sysctl_of(&g->run[k][i], name, other, sizeof(other)) || strcmp(other, val))
			return 0;
	return 1;
}

void cmp_default_labels(struct cmp_groups *g, char buf[2][CMP_LABEL_MAX])
{
	sqlite3_stmt *st = vms_window_prepare(&g->run[0][0].ctx,
					      "SELECT name FROM sysctl ORDER BY name");

	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		char a[64], b[64];

		if (name && uniform(g, 0, name, a, sizeof(a)) && uniform(g, 1, name, b, sizeof(b)) &&
		    strcmp(a, b)) {
			snprintf(buf[0], CMP_LABEL_MAX, "%s=%s", name, a);
			snprintf(buf[1], CMP_LABEL_MAX, "%s=%s", name, b);
			for (int k = 0; k < 2; k++) {
				vms_make_printable(buf[k]);
				g->label[k] = buf[k];
			}
			break;
		}
	}
	sqlite3_finalize(st);
}
