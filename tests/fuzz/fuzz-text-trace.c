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
	fuzz_import("trace.txt", data, size);
	return 0;
}
