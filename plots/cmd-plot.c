// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-plot.c - `vmscope plot`: gnuplot figures of a run. Not built yet: it
 * says so.
 */
#include "vms.h"
#include "cli.h"

int cmd_plot(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	return error("'plot' is not built yet in this version of vmscope");
}
