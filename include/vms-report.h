/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vms-report.h - the report tables other commands print: `vmscope replay`
 * shows the results it stored through the 'replay' section of `vmscope
 * report` (analyze/report-replay.c), so both print the same tables.
 */
#ifndef VMS_REPORT_H
#define VMS_REPORT_H

#include "vms-table.h"
#include "vms-window.h"

/*
 * Write the replay result tables of the decisions in @w's window (agreement,
 * policies, vs-baseline, by-reclaimer, differences: the first @show of each
 * policy) to @o; a note instead when the database holds no replay results.
 * Return: 0, or -1 with vms_error set.
 */
int vms_report_replay(struct vms_window *w, struct out *o, int show);

#endif
