// SPDX-License-Identifier: GPL-2.0
/*
 * error.c - the one place where library failures are stored, so that the
 * command at the edge reports each failure exactly once.
 */
#include <stdio.h>
#include <string.h>

#include "vms.h"

static char last_error[4096];

int vms_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return -1;
}

const char *vms_last_error(void)
{
	return last_error;
}

/* The CLI (main.c) overrides this to print with the command's prefix. */
__attribute__((weak)) void vms_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("warning: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
