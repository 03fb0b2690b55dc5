// SPDX-License-Identifier: GPL-2.0
/*
 * sim-sequential.c - which files the recording reads in sequence, in
 * rounds (model: sequential files), and the rule that tells a reader's new
 * round from readahead stepping back, which the gap filling of sim-run.c
 * shares.
 *
 * A workload that reads a file in rounds through a mapping uses, each
 * round, the pages the kernel kept resident and mapped without any event
 * (no fault: the PTE is there). Between two of its insertions it used the
 * pages in between. A file is taken as read so when its insertions, in time
 * order, go forward but for a few wraps back to its start: at least
 * SEQ_MIN_INSERTIONS of them, at least one wrap, and SEQ_RUN insertions or
 * more per wrap, and mapped (a fault or fault-around on it). A file read at
 * random steps back at every other insertion; a file read once never
 * wraps. Only with the recorded reads and faults: then only the pages the
 * recording had mapped are filled, not those read with read(2), whose uses
 * are all seen.
 */
#include <stdlib.h>

#include "vms.h"
#include "sim.h"

#define SEQ_MIN_INSERTIONS 256
#define SEQ_RUN 64		/* insertions per wrap, at least */
#define SEQ_SLOTS 128		/* open addressing over the first SIM_SEQ_FILES files */

enum whatif_step whatif_seq_step(long long last, long long max, long long first)
{
	if (last < 0)
		return WHATIF_STEP_FIRST;
	if (first > last)
		return WHATIF_STEP_FORWARD;
	/*
	 * back by less than a quarter of the file seen: readahead filling
	 * what it skipped, or reading around a fault (it starts before the
	 * page). thrash, its 65,536 pages read with large folios: steps back
	 * of up to 8,192 pages, its wraps 16,384 and more
	 */
	if (4 * (last - first) < max)
		return WHATIF_STEP_BACK;
	return WHATIF_STEP_WRAP;
}

struct seq_file {
	uint64_t ino;
	long long last, max, insertions, wraps;
	int used, mapped;
};

/* The slot of file @ino, made if @nfiles is not NULL and there is room; else NULL. */
static struct seq_file *slot_of(struct seq_file *tab, int *nfiles, uint64_t ino)
{
	unsigned h = (unsigned)((ino * 0x9e3779b97f4a7c15ull) >> 57);	/* 7 bits: SEQ_SLOTS */
	int k;

	for (k = 0; k < SEQ_SLOTS; k++) {
		struct seq_file *f = &tab[(h + (unsigned)k) % SEQ_SLOTS];

		if (f->used && f->ino == ino)
			return f;
		if (!f->used) {
			if (!nfiles || *nfiles == SIM_SEQ_FILES)
				return NULL;	/* more files than tracked: the rest are not filled */
			(*nfiles)++;
			f->used = 1;
			f->ino = ino;
			f->last = f->max = -1;
			return f;
		}
	}
	return NULL;
}

void whatif_find_sequential_files(struct whatif_rec *r)
{
	struct seq_file tab[SEQ_SLOTS] = { { 0 } };
	int nfiles = 0, k;
	long i;

	r->nseq = 0;
	if (!r->fm || !r->nacc)
		return;
	for (i = 0; i < r->nfm; i++) {
		const struct whatif_filemap *m = &r->fm[i];
		long long first = (long long)m->index, end = first + m->pages - 1;
		struct seq_file *f;

		if (m->removed || !(f = slot_of(tab, &nfiles, m->ino)))
			continue;
		f->insertions++;
		switch (whatif_seq_step(f->last, f->max, first)) {
		case WHATIF_STEP_BACK:
			if (end > f->last)
				f->last = end;
			continue;
		case WHATIF_STEP_WRAP:
			f->wraps++;
			break;
		default:
			break;
		}
		f->last = end;
		if (end > f->max)
			f->max = end;
	}
	/* mapped: a fault or fault-around on it (only mapped pages have uses no event shows) */
	for (i = 0; i < r->nacc; i++) {
		struct seq_file *f;

		if (r->acc[i].kind != WHATIF_READ && (f = slot_of(tab, NULL, r->acc[i].ino)))
			f->mapped = 1;
	}
	for (k = 0; k < SEQ_SLOTS; k++) {
		const struct seq_file *f = &tab[k];

		if (!f->used || !f->mapped || f->insertions < SEQ_MIN_INSERTIONS || !f->wraps ||
		    f->wraps * SEQ_RUN > f->insertions || whatif_random_file(r, f->ino))
			continue;
		r->seq_ino[r->nseq++] = f->ino;
		r->seq_wraps += f->wraps;
		r->seq_insertions += f->insertions;
	}
}

int whatif_sequential_file(const struct whatif_rec *r, uint64_t ino)
{
	int k;

	for (k = 0; k < r->nseq; k++)
		if (r->seq_ino[k] == ino)
			return 1;
	return 0;
}
