// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-dat.c - libFuzzer target: a trace-cmd .dat file imported with
 * vms_import(). libtracecmd runs in the import's reader process
 * (lib/sink-reader.c), so a fault inside libtracecmd ends that child only;
 * what this target checks is the importing process: the replay of the
 * reader's records, the layout check's messages, the database written.
 * The layout check itself is fuzzed in-process by fuzz-dat-check.c.
 *
 * The reader is a fork of this process and inherits libFuzzer's death
 * callback: a sanitizer report inside libtracecmd there (it over-reads and
 * over-allocates on damaged headers) would be written as this target's
 * crash. The child drops the callback, so such a report only ends the
 * reader, as a fault does in the real tool, and the parent must cope.
 */
#include <pthread.h>
#include <stdint.h>
#include <stddef.h>

#include <sanitizer/common_interface_defs.h>

#include "vms.h"
#include "vms-import.h"
#include "fuzz-local.h"

static void in_child(void)
{
	__sanitizer_set_death_callback(NULL);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return pthread_atfork(NULL, NULL, in_child);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import("trace.dat", data, size);
	return 0;
}
