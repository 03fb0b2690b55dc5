// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-db-open.c - libFuzzer target: a file opened as a vmscope database
 * (vms_db_open(), lib/db.c), as every reader command does first, then the
 * run's bounds (vms_run_bounds(), lib/window.c) read from it. A damaged or
 * hostile database must give an error, never a fault.
 */
#include <stdint.h>
#include <stddef.h>

#include "vms.h"
#include "vms-window.h"
#include "fuzz-local.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vms_db *db = vms_db_open(fuzz_file("open.db", data, size),
					VMS_OPEN_READONLY | VMS_OPEN_ANY_STATUS);
	long long start, end;

	if (db)
		vms_run_bounds(db, &start, &end);
	vms_db_close(db);
	return 0;
}
