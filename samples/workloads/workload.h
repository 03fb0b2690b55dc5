/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - what the sample workloads share: error exits and number
 * parsing with the program's name, a monotonic clock and a sleep. Each workload
 * defines WORKLOAD (its name) before including this file.
 */
#ifndef VMS_WORKLOAD_H
#define VMS_WORKLOAD_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Report a failed call (errno says why) and exit 1. @arg may be NULL. */
static void die(const char *what, const char *arg)
{
	fprintf(stderr, WORKLOAD ": error: %s%s%s: %s\n", what, arg ? " " : "", arg ? arg : "",
		strerror(errno));
	exit(1);
}

/* Return: seconds on CLOCK_MONOTONIC. */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* A whole number >= @min for option @opt, or a usage error (exit 2). */
static long parse_num(const char *opt, const char *s, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min) {
		fprintf(stderr, WORKLOAD ": error: %s needs a number >= %ld, not '%s'\n", opt, min, s);
		exit(2);
	}
	return v;
}

#endif
