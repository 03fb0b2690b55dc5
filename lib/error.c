// SPDX-License-Identifier: GPL-2.0
/*
 * error.c - the one place where library failures are stored, so that the
 * command at the edge reports each failure exactly once.
 */
#include <stdio.h>
#include <string.h>

#include "vms.h"

static char last_error[4096];

/*
 * Callers may pass vms_last_error() itself as an argument ("%s (in %s)"), so
 * the message is formatted into a temporary first: vsnprintf() must not read
 * the buffer it writes.
 */
int vms_error(const char *fmt, ...)
{
	char msg[sizeof(last_error)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	memcpy(last_error, msg, sizeof(last_error));
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
