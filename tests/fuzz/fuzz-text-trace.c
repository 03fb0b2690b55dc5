// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-text-trace.c - libFuzzer target: a whole text trace imported with
 * vms_import() into a scratch database (record/import-text.c, the sink, the
 * derive step at finish), as `vmscope import` does.
 */
#include <stdint.h>
#include <stddef.h>

#include "vms.h"
#include "vms-import.h"
#include "fuzz-local.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vms_import_options opt = { 0 };
	struct vms_import_result res = { 0 };
	char db[512];

	snprintf(db, sizeof(db), "%s/trace.db", fuzz_dir());
	opt.output = db;
	opt.force = 1;
	opt.quiet = 1;
	vms_import(fuzz_file("trace.txt", data, size), &opt, &res);
	vms_import_result_release(&res);
	vms_remove_db_files(db);
	return 0;
}
