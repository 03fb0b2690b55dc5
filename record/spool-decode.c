// SPDX-License-Identifier: GPL-2.0
/*
 * spool-decode.c - decode the pages of a spool (spool.c) into a database:
 * the event formats and kernel symbols of the running kernel are read, the
 * saved comm tables the recorder spooled are parsed, and the records of all
 * CPUs are merged by timestamp and stored through the shared record
 * decoder, rows written on the sink's second thread. Used when a recording
 * stops, and by `vmscope record --recover` for a spool a recorder left behind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>
#include <event-parse.h>
#include <kbuffer.h>

#include "vms.h"
#include "decode.h"
#include "spool.h"

struct cpu_pages {
	int cpu;
	struct kbuffer *kbuf;
	long *pages;			/* indices into the spool's page array, in order */
	long npages, next;
	void *event;			/* current record of the loaded page, NULL if none */
	unsigned long long ts;
	int missed;			/* events lost before this page (-1: unknown count) */
};

struct spool_decoder {
	const struct spool_page *pages;
	long npages;
	struct cpu_pages *cpus;
	int ncpus;
	struct tep_handle *tep;
	struct record_decoder *decoder;
	struct vms_sink *sink;
	uint64_t events;
};

/* Load @c's next page that has a record. Return: 1 loaded, 0 none left. */
static int load_page(struct spool_decoder *d, struct cpu_pages *c)
{
	c->event = NULL;
	while (!c->event && c->next < c->npages) {
		const struct spool_page *p = &d->pages[c->pages[c->next++]];

		if (kbuffer_load_subbuffer(c->kbuf, (void *)p->data))
			continue;
		/* a page with no record can still say that events were lost */
		c->missed = kbuffer_missed_events(c->kbuf);
		c->event = kbuffer_read_event(c->kbuf, &c->ts);
	}
	return c->event != NULL;
}

static struct cpu_pages *cpu_of(struct spool_decoder *d, int cpu)
{
	struct cpu_pages *n;
	int i;

	for (i = 0; i < d->ncpus; i++)
		if (d->cpus[i].cpu == cpu)
			return &d->cpus[i];
	n = realloc(d->cpus, (d->ncpus + 1) * sizeof(*n));
	if (!n)
		return NULL;
	d->cpus = n;
	memset(&n[d->ncpus], 0, sizeof(*n));
	n[d->ncpus].cpu = cpu;
	/* the traced kernel is this one: its word size and byte order */
	n[d->ncpus].kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!n[d->ncpus].kbuf)
		return NULL;
	return &n[d->ncpus++];
}

/* Sort the pages to their CPUs; read the systems and comm tables. */
static int index_pages(struct spool_decoder *d, const char *path)
{
	const char *systems[64];
	char *names = NULL;
	int nsystems = 0, i;
	long p;

	/* count each CPU's pages, then list them in spool order */
	for (p = 0; p < d->npages; p++) {
		const struct spool_page *pg = &d->pages[p];

		if (pg->cpu == SPOOL_SYSTEMS && !names) {
			char *s;

			if (!(names = strndup(pg->data, pg->len)))
				return vms_error("out of memory");
			for (s = strtok(names, "\n"); s && nsystems < 63; s = strtok(NULL, "\n"))
				systems[nsystems++] = s;
		} else if (pg->cpu >= 0) {
			struct cpu_pages *c = cpu_of(d, pg->cpu);

			if (!c)
				goto oom;
			c->npages++;
		}
	}
	for (i = 0; i < d->ncpus; i++) {
		if (!(d->cpus[i].pages = malloc(d->cpus[i].npages * sizeof(long))))
			goto oom;
		d->cpus[i].npages = 0;
	}
	for (p = 0; p < d->npages; p++)
		if (d->pages[p].cpu >= 0) {
			struct cpu_pages *c = cpu_of(d, d->pages[p].cpu);

			c->pages[c->npages++] = p;
		}
	if (!nsystems) {
		free(names);
		return vms_error("%s: the spool does not say which trace events it holds", path);
	}
	systems[nsystems] = NULL;
	/* the formats and kernel symbols are read now, not while the workload ran */
	d->tep = tracefs_local_events_system(NULL, systems);
	free(names);
	if (!d->tep)
		return vms_error("cannot read the event formats under %s/events: %s",
				 tracefs_tracing_dir(), strerror(errno));
	for (p = 0; p < d->npages; p++)
		if (d->pages[p].cpu == SPOOL_CMDLINES) {
			char *text = strndup(d->pages[p].data, d->pages[p].len);

			if (!text)
				return vms_error("out of memory");
			tep_parse_saved_cmdlines(d->tep, text);
			free(text);
		}
	for (i = 0; i < d->ncpus; i++)
		load_page(d, &d->cpus[i]);
	return 0;
oom:
	free(names);
	return vms_error("out of memory");
}

static int store_one(struct spool_decoder *d, struct cpu_pages *c)
{
	struct tep_record rec = {
		.ts = c->ts,
		.cpu = c->cpu,
		.data = c->event,
		.size = kbuffer_event_size(c->kbuf),
		.missed_events = c->missed,
	};
	int rc;

	c->missed = 0;
	rc = record_decoder_store(d->decoder, d->tep, &rec);
	if (rc == 0) {
		d->events++;
		return 0;
	}
	if (rc == 1)
		return vms_sink_import_error(d->sink, -1, -1, vms_last_error(), NULL, 0);
	return -1;
}

static int merge(struct spool_decoder *d, struct vms_progress *progress)
{
	long done = 0;
	int i;

	for (;;) {
		struct cpu_pages *next = NULL;

		for (i = 0; i < d->ncpus; i++)
			if (d->cpus[i].event && (!next || d->cpus[i].ts < next->ts))
				next = &d->cpus[i];
		if (!next)
			return 0;
		if (store_one(d, next))
			return -1;
		next->event = kbuffer_next_event(next->kbuf, &next->ts);
		if (!next->event) {
			load_page(d, next);
			if (progress && !(++done & 63)) {
				long at = 0;

				for (i = 0; i < d->ncpus; i++)
					at += d->cpus[i].next;
				vms_progress_update(progress, (uint64_t)at, (uint64_t)d->npages,
						    d->events);
			}
		}
	}
}

int spool_decode(struct spool *sp, struct vms_db *db, struct vms_sink *sink, int quiet,
		 uint64_t *events)
{
	struct spool_decoder d = { .sink = sink };
	struct vms_progress *progress = NULL;
	int rc = -1, i;

	*events = 0;
	d.npages = spool_read(sp, &d.pages);
	if (d.npages < 0 || index_pages(&d, spool_path(sp)))
		goto out;
	if (record_decoder_store_formats(d.tep, db) || !(d.decoder = record_decoder_new(sink)))
		goto out;
	if (!quiet)
		progress = vms_progress_new("decoding the recorded pages");
	/* rows are written on a second thread while this one decodes */
	if (vms_sink_set_async(sink, 1))
		goto out;
	rc = merge(&d, progress);
	if (vms_sink_set_async(sink, 0))
		rc = -1;
	vms_progress_done(progress);
out:
	*events = d.events;
	for (i = 0; i < d.ncpus; i++) {
		kbuffer_free(d.cpus[i].kbuf);
		free(d.cpus[i].pages);
	}
	free(d.cpus);
	record_decoder_free(d.decoder);
	tep_free(d.tep);
	return rc;
}
