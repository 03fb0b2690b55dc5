// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-dat.c - libFuzzer target: a trace-cmd .dat file imported with
 * vms_import(). libtracecmd runs in the import's reader process
 * (lib/sink-reader.c), so a fault inside libtracecmd ends that child only;
 * what this target checks is the importing process: the replay of the
 * reader's records, the layout check's messages, the database written.
 * The layout check itself is fuzzed in-process by fuzz-dat-check.c.
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

	snprintf(db, sizeof(db), "%s/dat.db", fuzz_dir());
	opt.output = db;
	opt.force = 1;
	opt.quiet = 1;
	vms_import(fuzz_file("trace.dat", data, size), &opt, &res);
	vms_import_result_release(&res);
	vms_remove_db_files(db);
	return 0;
}
