/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - a tiny TAP producer for the C unit tests (tests/unit/u-*.c).
 * ok(cond, fmt, ...) records one test; done_testing() prints the plan and
 * returns the exit code (1 if any test failed).
 */
#ifndef VMS_TAP_H
#define VMS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_run, tap_failed;

static inline int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	if (!cond)
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return cond;
}

#define is_int(got, want, ...) \
	(ok((long long)(got) == (long long)(want), __VA_ARGS__) || \
	 (printf("#   got %lld, want %lld\n", (long long)(got), (long long)(want)), 0))

#define is_str(got, gotlen, want, ...) \
	(ok((gotlen) == strlen(want) && !memcmp((got), (want), (gotlen)), __VA_ARGS__) || \
	 (printf("#   got '%.*s', want '%s'\n", (int)(gotlen), (got) ? (got) : "", (want)), 0))

static inline int done_testing(void)
{
	printf("1..%d\n", tap_run);
	return tap_failed ? 1 : 0;
}

#endif
