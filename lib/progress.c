// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - progress of long work on stderr. On a terminal one line is
 * redrawn twice a second; otherwise (a log, CI) a line is printed every ten
 * seconds. Work shorter than two seconds shows nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vms.h"

struct vms_progress {
	char *what;
	double start;
	double last;
	int tty;
	int shown;
};

struct vms_progress *vms_progress_new(const char *what)
{
	struct vms_progress *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->what = strdup(what);
	p->start = p->last = vms_now();
	p->tty = isatty(STDERR_FILENO);
	return p;
}

void vms_progress_update(struct vms_progress *p, uint64_t done, uint64_t total, uint64_t events)
{
	double now, interval;

	if (!p)
		return;
	now = vms_now();
	interval = p->tty ? 0.5 : 10.0;
	if (now - p->start < 2.0 || now - p->last < interval)
		return;
	p->last = now;
	p->shown = 1;
	if (total)
		fprintf(stderr, "%s: %3.0f%%, %llu events, %.0f s%s", p->what,
			100.0 * done / total, (unsigned long long)events, now - p->start,
			p->tty ? "\r" : "\n");
	else
		fprintf(stderr, "%s: %llu events, %.0f s%s", p->what,
			(unsigned long long)events, now - p->start, p->tty ? "\r" : "\n");
}

void vms_progress_done(struct vms_progress *p)
{
	if (!p)
		return;
	if (p->shown && p->tty)
		fprintf(stderr, "\033[K");
	free(p->what);
	free(p);
}
