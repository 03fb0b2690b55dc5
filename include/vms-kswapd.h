/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vms-kswapd.h - the thresholds that turn the kswapd_run table
 * (schema/920-kswapd.sql) into failure episodes, for every reader of it:
 * `vmscope report DB kswapd-failures` lists the streaks, `vmscope plot DB
 * kswapd` draws the same ones.
 */
#ifndef VMS_KSWAPD_H
#define VMS_KSWAPD_H

/* mm/internal.h MAX_RECLAIM_RETRIES: at this streak the node is hopeless ('episode'). */
#define VMS_KSWAPD_HOPELESS_RUNS 16
/* The shortest streak listed and drawn ('partial' below VMS_KSWAPD_HOPELESS_RUNS). */
#define VMS_KSWAPD_PARTIAL_RUNS 4

#endif
