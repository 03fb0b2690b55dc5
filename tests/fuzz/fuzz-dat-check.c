// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-dat-check.c - libFuzzer target: dat_check_file() (record/dat-check.c),
 * the walk of a .dat file's CPU data by its stated layout, in this process
 * so that AddressSanitizer sees it (in an import it runs in the reader
 * process). The event formats come from a sound file named by
 * $VMSCOPE_FUZZ_FORMATS (tests/fixtures/dat/small.dat), opened once.
 */
#include <stdint.h>
#include <stddef.h>

#include <trace-cmd.h>

#include "vms.h"
#include "fuzz-local.h"
#include "../../record/dat-check.h"

static struct tep_handle *tep;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *formats = getenv("VMSCOPE_FUZZ_FORMATS");
	struct tracecmd_input *handle;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = formats ? tracecmd_open(formats, TRACECMD_FL_LOAD_NO_PLUGINS |
					 TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS) : NULL;
	if (!handle) {
		fprintf(stderr, "fuzz-dat-check: set VMSCOPE_FUZZ_FORMATS to a sound .dat file\n");
		exit(2);
	}
	tep = tracecmd_get_tep(handle);	/* kept open for the process */
	return 0;
}

static int on_damage(void *arg, const char *buffer, int cpu, long long offset, long long lost,
		     const char *what)
{
	return strlen(buffer) + strlen(what) > 100000 ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dat_check chk;

	dat_check_file(fuzz_file("check.dat", data, size), tep, &chk, on_damage, NULL);
	dat_check_release(&chk);
	return 0;
}
