// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-counters.c - libFuzzer target: the input is a counters file given to
 * `vmscope import --counters FILE --counters-clock trace` beside a small
 * fixed text trace: content recognition, the mmtests, snapshot, sysctl and
 * CSV readers (record/counters-*.c), alignment and storing, as the import
 * runs them. Clock "trace", so that every input reaches the readers and the
 * store rather than stopping at the automatic alignment.
 */
#include <stdint.h>
#include <stddef.h>

#include "vms.h"
#include "vms-import.h"
#include "fuzz-local.h"

static const char trace[] =
	"          reader-7     [001] .....   100.000100: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n"
	"          reader-7     [001] .....   100.000200: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=32 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE\n"
	"          reader-7     [001] .....   101.000300: mm_vmscan_memcg_reclaim_end: nr_reclaimed=32\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char trace_path[512];
	struct vms_import_options opt = { 0 };
	struct vms_counters_options copt = { 0 };
	struct vms_import_result res = { 0 };
	const char *files[1];
	char db[512];

	if (!trace_path[0])
		snprintf(trace_path, sizeof(trace_path), "%s",
			 fuzz_file("trace.txt", (const uint8_t *)trace, sizeof(trace) - 1));
	files[0] = fuzz_file("counters", data, size);
	copt.files = files;
	copt.nfiles = 1;
	copt.clock = "trace";
	snprintf(db, sizeof(db), "%s/counters.db", fuzz_dir());
	opt.output = db;
	opt.force = 1;
	opt.quiet = 1;
	opt.counters = &copt;
	vms_import(trace_path, &opt, &res);
	vms_import_result_release(&res);
	vms_remove_db_files(db);
	return 0;
}
