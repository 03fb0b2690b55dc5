// SPDX-License-Identifier: GPL-2.0
/*
 * report-episodes.c - the 'episodes' section of `vmscope report`: not built yet.
 * It says so in its output rather than printing numbers it does not have.
 */
#include "vms.h"
#include "report.h"

int report_episodes(struct report_ctx *ctx, struct out *o)
{
	struct table *t = table_new("episodes", "episodes", "episodes: not built yet");

	(void)ctx;
	if (!t)
		return vms_error("out of memory");
	table_column(t, "status", NULL, 0);
	table_row(t);
	table_text(t, "not built yet");
	table_note(t, "the 'episodes' section is not built yet in this version of vmscope");
	out_table(o, t);
	table_free(t);
	return 0;
}
