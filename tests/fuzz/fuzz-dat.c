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
	fuzz_import("trace.dat", data, size);
	return 0;
}
