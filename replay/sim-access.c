// SPDX-License-Identifier: GPL-2.0
/*
 * sim-access.c - the demand's hits: the filemap events that show a task
 * using pages already in the page cache, which no insertion shows
 * (schema/017-filemap-access.sql). Read here into r->acc, in time order;
 * sim-run.c replays them against what the recording had resident.
 *
 * What each event means (mm/filemap.c of 6.18):
 *  - mm_filemap_get_pages, at the end of each filemap_get_pages() of a
 *    read(2): "index" to last_index is the whole read, and a read longer
 *    than one batch fires it again with a later index and the same
 *    last_index. Each batch is a use of the pages from its index to the
 *    next batch's (the kernel fires the event once a batch is in, so the
 *    pages of the batches after it may not be in the cache yet).
 *    filemap_read() marks a folio accessed once per read, and
 *    not the folio the previous read of the file ended in
 *    (pos_same_folio()): a read beginning in the page where the task's
 *    previous read of the file ended does not use that page again.
 *  - mm_filemap_fault, at the start of filemap_fault(): the faulting page,
 *    cached or not (a miss is followed by its insertion).
 *  - mm_filemap_map_pages, at the end of filemap_map_pages(): the
 *    fault-around window; only its cached pages that were not mapped get
 *    mapped (young), which sim-run.c sorts out.
 * The continuation test keeps one read per task (64 slots by pid): a task
 * reading two files in turn, batch by batch, is rare and would count a
 * batch as a read.
 *
 * Files mapped for random access: a mapping with MADV_RANDOM (or
 * MADV_SEQUENTIAL, which does read ahead: not found so) has no recency (vma_has_recency()): reclaim ignores its
 * young PTEs, so a page it faults in is as good as unreferenced. No event
 * names the advice; what shows it is that such a mapping's faults do no
 * readahead (do_sync_mmap_readahead() returns at VM_RAND_READ): each fault
 * that misses inserts its own page and no neighbour. A file whose missing
 * faults (64 at least) did so nine times in ten is taken as mapped so
 * (r->random_ino). A file on a device without readahead looks the same,
 * and its references would count: the assumption row says which files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "vms-window.h"
#include "replay.h"
#include "sim.h"

#define RANDOM_MIN_FAULTS 64
#define FAULT_IN_NS 100000000LL	/* a fault's insertion follows it within this */
#define MAX_RANGE (1LL << 20)	/* pages: a longer range (4 GiB; a read(2) is at most 2 GiB),
				 * or a negative index, is not a use: skipped, and counted */
#define READ_SLOTS 64

struct access_row {
	long long ts, seq, pid;
	uint64_t ino;
	long long first, last;
	int kind;
};

/* The last read of a task: which file, its last page, the index of its latest batch. */
struct last_read {
	long long pid;
	uint64_t ino;
	long long last, batch;
	long k;			/* the access of its latest batch, -1 none */
};

static const char *const access_table[WHATIF_NACCESS] = {
	"mm_filemap_get_pages", "mm_filemap_fault", "mm_filemap_map_pages",
};

static int cmp_row(const void *a, const void *b)
{
	const struct access_row *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int read_table(struct vms_window *w, int kind, const struct whatif_pids *tasks,
		      struct access_row **rows, long *n, int *alloc)
{
	char sql[256];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT seq, ts, pid, i_ino, s_dev, \"index\", %s FROM %s "
		 "WHERE ts BETWEEN ?1 AND ?2 AND i_ino IS NOT NULL AND \"index\" IS NOT NULL "
		 "ORDER BY seq", kind == WHATIF_FAULT ? "\"index\"" : "last_index",
		 access_table[kind]);
	st = vms_window_prepare(w, sql);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct access_row *a;
		long long pid = sqlite3_column_int64(st, 2);

		if (tasks && !whatif_pids_has(tasks, pid))
			continue;	/* another memcg's task */
		if (vms_array_reserve(rows, alloc, (int)*n, 4096, sizeof(**rows))) {
			sqlite3_finalize(st);
			return -1;
		}
		a = &(*rows)[(*n)++];
		a->seq = sqlite3_column_int64(st, 0);
		a->ts = sqlite3_column_int64(st, 1);
		a->pid = pid;
		a->ino = (uint64_t)sqlite3_column_int64(st, 3) ^
			 ((uint64_t)sqlite3_column_int64(st, 4) << 40);
		a->first = sqlite3_column_int64(st, 5);
		a->last = sqlite3_column_type(st, 6) == SQLITE_NULL ? a->first :
			  sqlite3_column_int64(st, 6);
		a->kind = kind;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vms_error("reading %s: %s", access_table[kind], sqlite3_errmsg(w->sql));
	return 0;
}

/*
 * A read event @a about to become access @k of r->acc. Return: 1 a new
 * read, 2 the next batch of the read before it (whose access now ends
 * where this batch begins), 0 nothing new (an empty range).
 */
static int read_batch(struct whatif_rec *r, struct last_read *slot, struct access_row *a, long k)
{
	struct last_read *t = &slot[(unsigned long long)a->pid % READ_SLOTS];
	int same_file = t->pid == a->pid && t->ino == a->ino;

	if (same_file && a->last == t->last && a->first > t->batch && t->k >= 0) {
		struct whatif_access *prev = &r->acc[t->k];
		long long keep = a->first - (long long)prev->index;

		if (keep < 0)
			keep = 0;
		if (keep < prev->pages) {	/* the earlier batch read up to this one */
			r->acc_pages[WHATIF_READ] -= prev->pages - keep;
			prev->pages = (int)keep;
		}
		t->batch = a->first;
		t->k = k;
		return 2;
	}
	t->pid = a->pid;
	t->ino = a->ino;
	t->batch = a->first;
	t->k = -1;
	if (same_file && a->first == t->last)
		a->first++;	/* begins where the last read ended: that page is not used again */
	t->last = a->last;
	if (a->first > a->last)
		return 0;
	t->k = k;
	return 1;
}

static int whatif_find_random_files(struct whatif_rec *r);

int whatif_load_accesses(struct vms_window *w, struct whatif_rec *r, const struct whatif_pids *tasks)
{
	struct access_row *rows = NULL;
	struct last_read slot[READ_SLOTS];
	long n = 0, i, k = 0;
	int alloc = 0, kind;

	memset(slot, 0, sizeof(slot));
	for (i = 0; i < READ_SLOTS; i++)
		slot[i].k = -1;
	if (r->acc_off)
		return 0;	/* --assume access=insertions: not read at all */
	for (kind = 0; kind < WHATIF_NACCESS; kind++) {
		char sql[128];
		long long any = 0;
		sqlite3_stmt *st;

		if (!whatif_table_exists(w, access_table[kind]))
			continue;
		/* recorded at all (the schema makes the table in every database) */
		snprintf(sql, sizeof(sql), "SELECT EXISTS (SELECT 1 FROM %s)", access_table[kind]);
		st = vms_window_prepare(w, sql);
		if (!st) {
			free(rows);
			return -1;
		}
		if (sqlite3_step(st) == SQLITE_ROW)
			any = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		if (!any)
			continue;
		r->acc_recorded = 1;
		if (read_table(w, kind, tasks, &rows, &n, &alloc)) {
			free(rows);
			return -1;
		}
	}
	if (!n)
		return 0;
	qsort(rows, n, sizeof(*rows), cmp_row);
	r->acc = malloc(n * sizeof(*r->acc));
	if (!r->acc) {
		free(rows);
		return vms_error("out of memory (%ld filemap accesses)", n);
	}
	for (i = 0; i < n; i++) {
		struct access_row *a = &rows[i];
		struct whatif_access *x;
		int batch = 0;

		if (a->first < 0 || a->last < a->first || a->last - a->first >= MAX_RANGE ||
		    (a->kind == WHATIF_READ && !(batch = read_batch(r, slot, a, k)))) {
			r->acc_skipped++;
			continue;
		}
		x = &r->acc[k++];
		x->ts = a->ts;
		x->ino = a->ino;
		x->index = (uint64_t)a->first;
		x->pages = (int)(a->last - a->first + 1);
		x->kind = (int8_t)a->kind;
		if (batch == 2)
			r->acc_batches++;
		else
			r->acc_events[a->kind]++;
		r->acc_pages[a->kind] += x->pages;
	}
	free(rows);
	r->nacc = k;
	return whatif_find_random_files(r);
}

int whatif_access_assumption(const struct whatif_rec *r, const struct sim_stats *base,
			     const struct sim_stats *wi, struct whatif_assumption *a, int max)
{
	if (!r->fm || max < 1)
		return 0;
	snprintf(a->item, sizeof(a->item), "demand: reads and faults");
	a->source = "events";
	a->firmness = "exact";
	if (r->acc_off) {
		snprintf(a->value, sizeof(a->value), "left out (--assume access=insertions): the "
			 "recorded reads and faults are not read; each insertion is a use");
		a->source = "--assume access=insertions";
		a->firmness = "assumed";
		return 1;
	}
	if (!r->acc_recorded) {
		snprintf(a->value, sizeof(a->value), "not recorded (filemap:mm_filemap_get_pages, "
			 "mm_filemap_fault, mm_filemap_map_pages; vmscope record takes them by "
			 "default from this version on): a page the recording kept resident and "
			 "used again leaves no event, so towards less memory the misses are a "
			 "lower bound");
		a->source = "missing";
		a->firmness = "assumed";
		return 1;
	}
	snprintf(a->value, sizeof(a->value), "%lld reads (%lld pages, %lld later batches; "
		 "%lld empty ranges), %lld faults, %lld fault-arounds (%lld pages) of the lruvec's "
		 "tasks are the uses; an insertion only brings a page in. Pages resident in the "
		 "recording used again: baseline %lld (%lld misses here), whatif %lld (%lld "
		 "misses); faults on misses %lld; left out: not resident in the recording %lld, "
		 "mapped already (fault-around) %lld. A mapping used without a fault shows nothing",
		 r->acc_events[WHATIF_READ], r->acc_pages[WHATIF_READ], r->acc_batches,
		 r->acc_skipped,
		 r->acc_events[WHATIF_FAULT], r->acc_events[WHATIF_FAULT_AROUND],
		 r->acc_pages[WHATIF_FAULT_AROUND], base->access_used, base->access_missed,
		 wi->access_used, wi->access_missed, base->access_faulted_in, base->access_unknown,
		 base->access_mapped);
	if (max < 2)
		return 1;
	a++;
	snprintf(a->item, sizeof(a->item), "model: random mappings");
	if (r->nrandom)
		snprintf(a->value, sizeof(a->value), "%ld file(s) taken as mapped with MADV_RANDOM: "
			 "%lld of their faults that missed brought in their own "
			 "page and no readahead (nine in ten at least, 64 at least), which is what "
			 "VM_RAND_READ does; reclaim ignores such a mapping's young PTEs "
			 "(vma_has_recency()), so their faults do not reference the page (a device "
			 "without readahead looks the same, and there they would)", r->nrandom,
			 r->random_faults);
	else
		snprintf(a->value, sizeof(a->value), "none: no file's faults brought in their page "
			 "alone nine times in ten (64 at least): references through mappings count");
	a->source = "events";
	a->firmness = r->nrandom ? "inferred" : "assumed";
	return 2;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct fault_tally {
	uint64_t ino;
	long long alone, with_readahead;
};

/* The first insertion or removal at or after @ts. */
static long first_at(const struct whatif_rec *r, long long ts)
{
	long lo = 0, hi = r->nfm;

	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		if (r->fm[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int covers(const struct whatif_filemap *f, uint64_t ino, uint64_t index)
{
	return !f->removed && f->ino == ino && f->index <= index && index < f->index + (uint64_t)f->pages;
}

struct fault_miss {
	uint64_t ino;
	int alone;
};

static int cmp_miss(const void *a, const void *b)
{
	const struct fault_miss *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Tally the missing faults of each file: alone, or with readahead. */
static struct fault_tally *tally_faults(const struct whatif_rec *r, long *ntally)
{
	struct fault_tally *t;
	struct fault_miss *miss;
	long i, n = 0, m = 0;

	miss = malloc((r->acc_events[WHATIF_FAULT] + 1) * sizeof(*miss));
	if (!miss)
		return NULL;
	for (i = 0; i < r->nacc; i++) {
		const struct whatif_access *a = &r->acc[i];
		long long end = a->ts + FAULT_IN_NS, pages = 0;
		long k, next;
		int found = 0;

		if (a->kind != WHATIF_FAULT)
			continue;
		/* what the fault brought in: the insertions of its file before the next fault */
		for (next = i + 1; next < r->nacc && r->acc[next].kind != WHATIF_FAULT; next++)
			;
		if (next < r->nacc && r->acc[next].ts < end)
			end = r->acc[next].ts;
		for (k = first_at(r, a->ts); k < r->nfm && r->fm[k].ts < end; k++) {
			if (r->fm[k].removed || r->fm[k].ino != a->ino)
				continue;
			pages += r->fm[k].pages;
			found |= covers(&r->fm[k], a->ino, a->index);
		}
		if (!found)
			continue;	/* a hit, or a page that came another way */
		miss[n].ino = a->ino;
		miss[n++].alone = pages == 1;
	}
	/* per file: sorted by file, then added up */
	if (n)
		qsort(miss, n, sizeof(*miss), cmp_miss);
	t = calloc(n ? n : 1, sizeof(*t));
	if (!t) {
		free(miss);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (!m || t[m - 1].ino != miss[i].ino)
			t[m++].ino = miss[i].ino;
		if (miss[i].alone)
			t[m - 1].alone++;
		else
			t[m - 1].with_readahead++;
	}
	free(miss);
	*ntally = m;
	return t;
}

/* The files mapped for random access (r->random_ino). Return: 0, or -1 with vms_error set. */
static int whatif_find_random_files(struct whatif_rec *r)
{
	struct fault_tally *t;
	long n = 0, m;

	if (!r->fm || !r->acc_events[WHATIF_FAULT])
		return 0;
	t = tally_faults(r, &n);
	if (!t)
		return vms_error("out of memory");
	for (m = 0; m < n; m++) {
		if (t[m].alone < RANDOM_MIN_FAULTS || t[m].alone < 9 * t[m].with_readahead)
			continue;
		if (vms_array_reserve(&r->random_ino, &r->random_alloc, (int)r->nrandom, 8,
				      sizeof(*r->random_ino))) {
			free(t);
			return -1;
		}
		r->random_ino[r->nrandom++] = t[m].ino;
		r->random_faults += t[m].alone;
	}
	free(t);
	if (r->nrandom)
		qsort(r->random_ino, r->nrandom, sizeof(*r->random_ino), cmp_u64);
	return 0;
}

int whatif_random_file(const struct whatif_rec *r, uint64_t ino)
{
	return r->nrandom && bsearch(&ino, r->random_ino, r->nrandom, sizeof(ino), cmp_u64);
}
