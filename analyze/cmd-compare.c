// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-compare.c - `vmscope compare`: before/after tables of two runs, in the
 * layout vmscan changelogs use. Not built yet: it says so.
 */
#include "vms.h"
#include "cli.h"

int cmd_compare(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return error("'compare' is not built yet in this version of vmscope");
}
