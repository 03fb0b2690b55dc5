// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-whatif.c - `vmscope whatif`: simulate a recording forward with the
 * recording's own knobs (baseline) and with changed knobs or another policy
 * (whatif), and compare both with what was recorded. The simulation is
 * replay/sim-*.c; this file parses the options, checks that the recording
 * holds what the simulation needs (refusing, with the missing piece named,
 * rather than guessing), prints the outcome and the assumptions, and has
 * them stored (sim-store.c) in the tables of schema/930-whatif.sql.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "cli.h"
#include "replay.h"
#include "sim.h"
#include "whatif-rerun.h"
#include "vms-table.h"
#include "vms-window.h"

static const struct cli_help whatif_help = {
	.synopsis = { "vmscope whatif DB [--policy P] [--set K=V]... [--assume K=V]... [options]" },
	.about = "Simulate the reclaimed lruvec of a recording (the memcg sampled by record -m,\n"
		 "else the node) forward: once with the recording's own knobs and the baseline\n"
		 "policy, once with the changes, and print the outcome (refaults, reclaim, swap,\n"
		 "reclaim episodes and time) recorded, simulated as recorded (baseline) and\n"
		 "simulated with the changes, with the assumptions the simulation made. Results\n"
		 "are stored in the tables outcome, whatif_series and whatif_assumption of DB.\n",
	.more = "Knobs: vm.swappiness, memcg.swappiness, memcg.limit (bytes, K/M/G suffixes),\n"
		"vm.min_free_kbytes, vm.watermark_scale_factor, vm.watermark_boost_factor\n"
		"(node reclaim of a recording with kmem:mm_page_alloc_extfrag: the boost\n"
		"model), vm.vfs_cache_pressure (memcg reclaim of a recording with the memcg's\n"
		"kernel memory: the vfs model). --assume also takes\n"
		"demand=counters (accept demand derived from counter samples when no filemap\n"
		"events were recorded), access=insertions (leave out the recorded reads and\n"
		"faults, filemap:mm_filemap_get_pages, _fault and _map_pages, which are the\n"
		"hits of the demand by default), access=recorded (only those: no file is taken\n"
		"as read in sequence; by default a file the recording inserts in rounds, going\n"
		"forward and wrapping back to its start, is, and the pages it had resident and\n"
		"mapped between two insertions are its hits), access=sequential (every file\n"
		"so: between two recorded insertions of a file the workload used the pages in\n"
		"between) and access=protected (the same, and the pages so used are ones the\n"
		"kernel protected, as it does exec-mapped pages), and exec=protected (the file\n"
		"ranges the memcg's tasks mapped executable, which record -m samples, are\n"
		"protected as the kernel protects VM_EXEC pages), and pinned=none (no file\n"
		"page is taken as pinned, whatever share of the recorded file scans reclaim\n"
		"kept for no traced reason).\n"
		"\n"
		"Exit status: 0 done; 1 DB unreadable, or the recording lacks what the\n"
		"simulation needs (the message names it); 2 usage error. See docs/whatif.md.\n",
};

#define MAX_CHANGES 16

struct whatif_opts {
	const char *path, *policy, *rerun;
	const char *set[MAX_CHANGES], *assume[MAX_CHANGES];
	int nset, nassume;
	double from_s, to_s;
	int has_from, has_to;
	enum out_format fmt;
	int list_knobs;
};

/* Copy the values of --set or --assume into @dst. Return: 0, or a usage error. */
static int take_changes(const struct cli_option *opts, const char *opt, const struct cli_list *l,
			const char **dst, int *n)
{
	int i;

	if (l->n > MAX_CHANGES)
		return cli_usage_error(opts, &whatif_help, "at most %d of '%s'", MAX_CHANGES, opt);
	for (i = 0; i < l->n; i++) {
		if (!strchr(l->items[i], '='))
			return cli_usage_error(opts, &whatif_help, "option '%s' takes KNOB=VALUE, not '%s'",
					       opt, l->items[i]);
		dst[(*n)++] = l->items[i];
	}
	return 0;
}

/* The command line of whatif. Return: 0 to go on, else the exit status to return (0 after --help). */
static int parse_whatif_options(int argc, const char **argv, struct whatif_opts *o, int *rc)
{
	struct cli_list set = { 0 }, assume = { 0 };
	struct cli_window win = { 0 };
	const struct cli_option opts[] = {
		OPT_STRING('p', "policy", &o->policy, "P",
			   "a replay policy (vmscope replay --list) or plugin PATH.so,\n"
			   "NAME:key=value,...; default: the baseline v6.18"),
		OPT_STRING_LIST('s', "set", &set, "K=V", "change a knob (repeatable; knobs below)"),
		OPT_STRING_LIST('a', "assume", &assume, "K=V",
				"a knob value the recording lacks (same names);\n"
				"or demand=counters,\n"
				"access=insertions|recorded|sequential|protected,\n"
				"exec=protected,\n"
				"pinned=none (below)"),
		OPT_STRING(0, "rerun", &o->rerun, "DB2",
			   "a real rerun of the workload with the changes: set the\n"
			   "prediction beside what it recorded (and the trivial predictor)"),
		OPT_WINDOW(&win, "the run"),
		OPT_FORMAT(&o->fmt),
		OPT_MODE(0, "list-knobs", &o->list_knobs,
			 "list the names --set and --assume take, one a line, and exit"),
		OPT_ARG("DB", "database", &o->path),
		OPT_END(),
	};
	int stop, i;

	memset(o, 0, sizeof(*o));
	stop = cli_parse_options(argc, argv, opts, &whatif_help, rc);
	if (!stop && o->list_knobs) {
		for (i = 0; i < K_NKNOBS; i++)
			printf("%s\n", whatif_knob_names[i]);
		printf("demand\naccess\nexec\npinned\n");
		stop = 1;
	}
	if (!stop && (take_changes(opts, "--set", &set, o->set, &o->nset) ||
		      take_changes(opts, "--assume", &assume, o->assume, &o->nassume))) {
		*rc = EXIT_USAGE;
		stop = 1;
	}
	/* the values point into argv, which outlives the command */
	cli_list_release(&set);
	cli_list_release(&assume);
	o->from_s = win.from;
	o->to_s = win.to;
	o->has_from = win.has_from;
	o->has_to = win.has_to;
	return stop;
}

static int knob_index(const char *name, size_t len)
{
	int i;

	for (i = 0; i < K_NKNOBS; i++)
		if (strlen(whatif_knob_names[i]) == len && !strncmp(whatif_knob_names[i], name, len))
			return i;
	return -1;
}

/* "KNOB=VALUE" → knob and value (memcg.limit: bytes with K/M/G → pages). Return: 0 or -1. */
static int parse_knob(const char *spec, int *knob, long long *value)
{
	const char *eq = strchr(spec, '=');
	long long v;
	char *end;

	*knob = knob_index(spec, eq - spec);
	if (*knob < 0)
		return vms_error("no knob '%.*s' (vm.swappiness, memcg.swappiness, memcg.limit, "
				 "vm.watermark_scale_factor, vm.watermark_boost_factor, "
				 "vm.vfs_cache_pressure, vm.min_free_kbytes)", (int)(eq - spec), spec);
	if (*knob == K_MEMCG_LIMIT) {
		if (vms_parse_size(eq + 1, &v))
			return vms_error("'%s' takes a whole number of bytes (K, M, G, T suffixes; up "
					 "to 2^62), not '%s'", whatif_knob_names[*knob], eq + 1);
		v /= 4096;
	} else {
		errno = 0;
		v = strtoll(eq + 1, &end, 10);
		if (errno || end == eq + 1 || *end || v < 0)
			return vms_error("'%s' takes a whole number, not '%s'", whatif_knob_names[*knob],
					 eq + 1);
	}
	if ((*knob == K_VM_SWAPPINESS || *knob == K_MEMCG_SWAPPINESS) && v > 200)
		return vms_error("'%s' takes 0..200, not %lld", whatif_knob_names[*knob], v);
	if (*knob == K_WATERMARK_SCALE && (v < 1 || v > 3000))
		return vms_error("'%s' takes 1..3000, not %lld", whatif_knob_names[*knob], v);
	if (*knob != K_MEMCG_LIMIT && v > INT_MAX)	/* the sysctls are ints */
		return vms_error("'%s' takes 0..%d, not %lld", whatif_knob_names[*knob], INT_MAX, v);
	*value = v;
	return 0;
}

/* Does the simulation of this recording's lruvec use @knob? */
static int knob_used(const struct whatif_rec *r, int knob)
{
	if (r->memcg)
		return knob == K_MEMCG_LIMIT ||
		       knob == (r->cgroup_v1 ? K_MEMCG_SWAPPINESS : K_VM_SWAPPINESS) ||
		       (knob == K_VFS_CACHE_PRESSURE && r->vfs);
	return knob == K_VM_SWAPPINESS || knob == K_MIN_FREE_KBYTES || knob == K_WATERMARK_SCALE ||
	       (knob == K_WATERMARK_BOOST && r->fallback_recorded);
}

struct run {
	struct whatif_rec rec;
	long long base_knob[K_NKNOBS], new_knob[K_NKNOBS];
	const char *source[K_NKNOBS];	/* of the baseline value */
	int demand_counters;		/* --assume demand=counters */
	char scenario[1024];
};

/* Apply --assume and --set, and refuse what cannot be simulated. Return: 0 or -1. */
static int settle_knobs(const struct whatif_opts *o, struct run *run)
{
	struct whatif_rec *r = &run->rec;
	int i, k, set[K_NKNOBS] = { 0 };
	long long v;
	size_t len;

	for (i = 0; i < o->nassume; i++) {
		if (!strcmp(o->assume[i], "demand=counters")) {
			run->demand_counters = 1;
			continue;
		}
		if (!strcmp(o->assume[i], "access=insertions")) {
			r->acc_off = 1;
			continue;
		}
		if (!strcmp(o->assume[i], "access=recorded")) {
			r->nseq = 0;	/* no file taken as read in sequence */
			r->seq_off = 1;
			continue;
		}
		if (!strcmp(o->assume[i], "access=sequential")) {
			r->sequential = 1;
			continue;
		}
		if (!strcmp(o->assume[i], "access=protected")) {
			r->sequential = r->protect = 1;
			continue;
		}
		if (!strcmp(o->assume[i], "pinned=none")) {
			whatif_unmark_pinned(r);
			continue;
		}
		if (!strcmp(o->assume[i], "exec=protected")) {
			if (!r->fm)
				return vms_error("--assume exec=protected: the recording has no "
						 "filemap demand for the exec mappings to mark (record "
						 "filemap:mm_filemap_add_to_page_cache)");
			if (!r->exec_recorded)
				return vms_error("--assume exec=protected: the recording has no exec "
						 "mappings ('vmscope record -m' reads them from "
						 "/proc/PID/maps of the memcg's tasks; an import, a "
						 "recording without -m or an older one has none)");
			if (!r->use_exec)
				whatif_exec_mark(r);
			continue;
		}
		if (parse_knob(o->assume[i], &k, &v))
			return -1;
		if (r->knob[k].known)
			vms_warning("the recording says %s=%lld (%s); --assume %s overrides it",
				    whatif_knob_names[k], r->knob[k].v, r->knob[k].source, o->assume[i]);
		r->knob[k].v = v;
		r->knob[k].known = 1;
		r->knob[k].source = "--assume";
	}
	for (k = 0; k < K_NKNOBS; k++) {
		run->base_knob[k] = run->new_knob[k] = r->knob[k].v;
		run->source[k] = r->knob[k].known ? r->knob[k].source : NULL;
	}
	for (i = 0; i < o->nset; i++) {
		if (parse_knob(o->set[i], &k, &v))
			return -1;
		if (k == K_WATERMARK_BOOST && !r->memcg && !r->fallback_recorded)
			return vms_error("%s acts through the allocator's fragmentation fallbacks, which "
					 "this recording lacks: record kmem:mm_page_alloc_extfrag (in "
					 "vmscope record's default events)", whatif_knob_names[k]);
		if (k == K_VFS_CACHE_PRESSURE && !r->vfs)
			return vms_error("%s acts on slab, which this recording's simulation cannot "
					 "model: %s", whatif_knob_names[k], r->vfs_why);
		if (!knob_used(r, k))
			return vms_error("%s does not act on the reclaim this recording's simulation "
					 "models (%s%s)", whatif_knob_names[k],
					 r->memcg ? "memcg reclaim" : "node reclaim",
					 r->memcg && r->cgroup_v1 && k == K_VM_SWAPPINESS ?
					 ", which on cgroup v1 uses memcg.swappiness" : "");
		run->new_knob[k] = v;
		set[k] = 1;
		if (k == K_WATERMARK_BOOST && r->knob[k].known && v > run->base_knob[k] && r->nfallback)
			vms_warning("the recording's %ld boosting fallbacks were made with "
				    "vm.watermark_boost_factor %lld; with more boosting the kernel makes "
				    "fewer (it frees and compacts ahead of them; docs/whatif.md has a "
				    "measured pair), so the boosts and their reclaim predicted are an "
				    "upper bound", r->nfallback, run->base_knob[k]);
	}
	for (k = 0; k < K_NKNOBS; k++) {
		int wmark = k == K_MIN_FREE_KBYTES || k == K_WATERMARK_SCALE;

		/* the baseline takes the recorded watermarks; recomputing them needs both knobs */
		if (!knob_used(r, k) || r->knob[k].known ||
		    (wmark && (set[k] || (!set[K_MIN_FREE_KBYTES] && !set[K_WATERMARK_SCALE]))))
			continue;
		return vms_error("the recording does not say %s, which the simulation needs: give "
				 "the value it ran with, --assume %s=VALUE", whatif_knob_names[k],
				 whatif_knob_names[k]);
	}
	if (r->memcg && r->vfs && run->base_knob[K_MEMCG_LIMIT] > r->max_lru_kmem)
		r->nonlru = run->base_knob[K_MEMCG_LIMIT] - r->max_lru_kmem;
	else if (r->memcg && !r->vfs && run->base_knob[K_MEMCG_LIMIT] > r->max_lru)
		r->nonlru = run->base_knob[K_MEMCG_LIMIT] - r->max_lru;
	if (!r->fm && !run->demand_counters && r->fm_others)
		return vms_error("the recording's %ld page-cache insertions are none of the memcg's "
				 "tasks: no task entered memcg reclaim in the window, and record -m "
				 "saw none in the memcg (exec_mapping), so they cannot be told from "
				 "other tasks'; accept counts with --assume demand=counters",
				 r->fm_others);
	if (!r->fm && !run->demand_counters)
		return vms_error("the recording has no page-cache events (filemap:"
				 "mm_filemap_add_to_page_cache, mm_filemap_delete_from_page_cache), so "
				 "file demand is known only as counts: record them (vmscope record's "
				 "default events include them; with -e, add -e filemap:"
				 "mm_filemap_add_to_page_cache -e filemap:mm_filemap_delete_from_page_cache), "
				 "or accept counts with --assume demand=counters");
	len = 0;
	run->scenario[0] = 0;
	for (k = 0; k < K_NKNOBS; k++)
		if (set[k])
			len += snprintf(run->scenario + len, sizeof(run->scenario) - len, "%s%s=%lld",
					len ? " " : "", whatif_knob_names[k], run->new_knob[k]);
	if (o->policy && len < sizeof(run->scenario))
		len += snprintf(run->scenario + len, sizeof(run->scenario) - len, "%spolicy=%s",
				len ? " " : "", o->policy);
	if (!len)
		snprintf(run->scenario, sizeof(run->scenario), "no change");
	return 0;
}

static struct table *outcome_table(const struct run *run, const double *base, const double *wi)
{
	struct table *t = table_new("whatif", "outcome", "What would have happened");
	int m;

	if (!t)
		return NULL;
	table_column(t, "metric", NULL, 0);
	table_column(t, "recorded", NULL, 0);
	table_column(t, "baseline", NULL, 0);
	table_column(t, "whatif", NULL, 0);
	table_column(t, "change", "%", 1);
	table_column(t, "scaled", NULL, 0);
	for (m = 0; m < M_NMETRICS; m++) {
		int dec = m == M_SECONDS ? 3 : 0;
		double c = whatif_change_pct(run->rec.recorded[m], wi[m]);
		/* the model's own error on this recording divided out */
		double scaled = base[m] > 0 ? run->rec.recorded[m] * wi[m] / base[m] : NAN;

		table_row(t);
		table_text(t, whatif_metric_names[m]);
		if (dec) {
			table_real(t, run->rec.recorded[m]);
			table_real(t, base[m]);
			table_real(t, wi[m]);
		} else {
			table_int(t, (long long)run->rec.recorded[m]);
			table_int(t, (long long)base[m]);
			table_int(t, (long long)wi[m]);
		}
		if (isnan(c))
			table_null(t);
		else
			table_real(t, c);
		if (isnan(scaled))
			table_null(t);
		else if (dec)
			table_real(t, scaled);
		else
			table_int(t, (long long)(scaled + 0.5));
	}
	table_note(t, "scenario: %s; lruvec: %s", run->scenario,
		   run->rec.memcg ? "the sampled memcg" : "node 0");
	table_note(t, "baseline: the recording simulated with its own knobs; compare whatif with "
		   "baseline for the effect of the change, baseline with recorded for the model's error");
	table_note(t, "scaled: recorded x whatif / baseline, the prediction with the model's error on "
		   "this recording divided out (meaningless where the baseline is far off or near 0)");
	return t;
}

/* The files whatif took as read in sequence (sim-sequential.c), after the text in @value. */
static void sequential_files(const struct whatif_rec *r, char *value, size_t size)
{
	size_t len = strlen(value);

	if (r->nseq)
		snprintf(value + len, size - len, "; and %d file(s) read in sequence, in rounds, through a mapping "
			 "(%lld wraps back to the start in %lld insertions): the pages between two of "
			 "their insertions that the recording had resident and mapped were used too, "
			 "hits no event shows (--assume access=recorded leaves them out)", r->nseq,
			 r->seq_wraps, r->seq_insertions);
	else if (r->seq_off)
		snprintf(value + len, size - len, "; no file taken as read in sequence "
			 "(--assume access=recorded)");
	else
		snprintf(value + len, size - len, "; no file read in sequence, in rounds, through a "
			 "mapping (256 insertions and a wrap back to the start per 64 at least, and a "
			 "fault)");
}

static int assumptions(const struct run *run, struct whatif_assumption *a, int max)
{
	static const struct { const char *item, *value; } model[] = {
		{ "model: pages", "clean: file reclaim never waits for writeback; no MGLRU; slab "
		  "only as the vfs model has it (model: vfs)" },
		{ "model: referenced", "pages are mapped: one comes in referenced, an inactive scan "
		  "keeps a referenced page once and activates it when referenced again (exec-mapped "
		  "pages: model: exec); a page the recording wrote (dirtied within 1 s of "
		  "its insertion) is unmapped and reclaimed at its first scan" },
		{ "model: shadows", "file shadows sit in xarray nodes of 64 pages; the shadow "
		  "shrinker frees shadow-only nodes beyond one per 8 LRU pages, oldest first, half "
		  "the excess per reclaim pass (filemap demand only); anon shadows are kept" },
		{ "model: kswapd", "runs to the high watermark (and its boost: model: boost) at the "
		  "allocation that wakes it; order-0 wakes only: kswapd woken for higher orders, and "
		  "compaction, are not modelled" },
		{ "model: flush", "reclaim sees refaults counted up to the last memory.stat read "
		  "(the recorder's reads flush the kernel's counters) or the 2 s periodic flush" },
		{ "demand: hits", "accesses that hit in the recording left no trace: with less memory "
		  "resident than recorded, refaults are a lower bound" },
	};
	/* the same two rows when the recorded reads and faults are the uses */
	static const char referenced_by_use[] = "an insertion brings a page in not referenced "
		"and not mapped; a read marks it accessed (a second activates it; unmapped, it is "
		"reclaimed at its first scan), a fault or fault-around maps it referenced (a use "
		"through a mapping sets the young bit only, no page is activated at its use): an "
		"inactive scan keeps a referenced mapped page once and activates it when referenced again (exec-mapped "
		"pages: model: exec); a fault on a file mapped for random access does not count "
		"(no recency)";
	static const char hits_by_use[] = "reads and faults show the hits of read(2) and of a "
		"mapping's faults; a page used through a mapping without a fault left no trace "
		"(the kernel sees its young PTE) but in a file read in sequence (demand: access): "
		"for other mapped files, refaults towards less memory are a lower bound";
	const struct whatif_rec *r = &run->rec;
	int n = 0, k;
	size_t i;

	for (k = 0; k < K_NKNOBS && n < max; k++) {
		if (!knob_used(r, k) || !run->source[k])
			continue;	/* not needed (node watermarks as recorded) */
		snprintf(a[n].item, sizeof(a[n].item), "%s", whatif_knob_names[k]);
		if (run->new_knob[k] != run->base_knob[k])
			snprintf(a[n].value, sizeof(a[n].value), "%lld (recorded %lld)",
				 run->new_knob[k], run->base_knob[k]);
		else
			snprintf(a[n].value, sizeof(a[n].value), "%lld", run->base_knob[k]);
		if (k == K_MEMCG_LIMIT && r->vfs)
			snprintf(a[n].value + strlen(a[n].value), sizeof(a[n].value) - strlen(a[n].value),
				 " pages, of which %lld neither LRU nor kernel memory (limit minus the "
				 "largest LRU total + kmem recorded)", r->nonlru);
		else if (k == K_MEMCG_LIMIT)
			snprintf(a[n].value + strlen(a[n].value), sizeof(a[n].value) - strlen(a[n].value),
				 " pages, of which %lld outside the LRU lists (limit minus the largest "
				 "LRU total recorded)", r->nonlru);
		a[n].source = run->source[k];
		a[n].firmness = strcmp(run->source[k], "--assume") ? "sampled" : "assumed";
		n++;
	}
	if (n < max) {
		snprintf(a[n].item, sizeof(a[n].item), "swap");
		snprintf(a[n].value, sizeof(a[n].value), "%lld pages (SwapTotal; memcg swap limits "
			 "ignored)", r->swap_pages);
		a[n].source = "meminfo";
		a[n++].firmness = "sampled";
	}
	if (n < max) {
		snprintf(a[n].item, sizeof(a[n].item), "demand");
		if (r->fm)
			snprintf(a[n].value, sizeof(a[n].value), "filemap: %ld page-cache insertions "
				 "and removals of the lruvec's tasks; anon from counters", r->nfm);
		else
			snprintf(a[n].value, sizeof(a[n].value), "counters: file and anon pages "
				 "entering per sample interval; refaults re-access earlier pages in "
				 "first-insertion order (a cyclic scan)");
		a[n].source = r->fm ? "events" : "--assume demand=counters";
		a[n++].firmness = r->fm ? "exact" : "assumed";
	}
	if (n < max && r->fm) {
		snprintf(a[n].item, sizeof(a[n].item), "demand: access");
		snprintf(a[n].value, sizeof(a[n].value), "%s", r->protect ?
			 "protected: the pages between two recorded insertions of a file that the "
			 "recording had resident were used too (hits), and the kernel protected them "
			 "(activated at their first referenced scan, kept active when referenced, as "
			 "exec-mapped pages); gaps over twice the lruvec's pages are jumps" :
			 r->sequential ?
			 "sequential: the pages between two recorded insertions of a file that the "
			 "recording had resident were used too (hits); gaps over twice the lruvec's "
			 "pages are jumps" :
			 r->nacc && !r->acc_off ?
			 "recorded: the reads and faults of the recording name the pages used again "
			 "(demand: reads and faults)" :
			 "misses only: pages resident in the recording are not used again");
		if (!r->protect && !r->sequential && r->nacc && !r->acc_off)
			sequential_files(r, a[n].value, sizeof(a[n].value));
		a[n].source = r->protect ? "--assume access=protected" :
			      r->sequential ? "--assume access=sequential" :
			      r->acc_off ? "--assume access=insertions" :
			      r->seq_off ? "--assume access=recorded" :
			      r->nacc ? "events" : "default";
		a[n++].firmness = r->protect || r->sequential || !r->nacc || r->acc_off ?
				  "assumed" : r->nseq ? "inferred" : "exact";
	}
	if (n < max && r->fm) {
		snprintf(a[n].item, sizeof(a[n].item), "model: exec");
		if (r->use_exec)
			snprintf(a[n].value, sizeof(a[n].value), "%ld file range(s), %lld pages, mapped "
				 "executable by the memcg's tasks (for the whole window): their %ld "
				 "insertions are protected as VM_EXEC pages (activated at their first "
				 "referenced scan, kept active while referenced)",
				 r->exec_ranges, r->exec_pages, r->exec_marked);
		else if (r->exec_recorded)
			snprintf(a[n].value, sizeof(a[n].value), "%ld file range(s), %lld pages, mapped "
				 "executable were recorded and not used: no exec protection "
				 "(--assume exec=protected uses them)", r->exec_ranges, r->exec_pages);
		else
			snprintf(a[n].value, sizeof(a[n].value), "no exec mappings recorded: no exec "
				 "protection");
		a[n].source = r->use_exec ? "--assume exec=protected" :
			      r->exec_recorded ? "default" : "missing";
		a[n++].firmness = r->use_exec ? "sampled" : "assumed";
	}
	if (n < max && r->fm) {
		snprintf(a[n].item, sizeof(a[n].item), "model: pinned");
		if (r->pinned_off)
			snprintf(a[n].value, sizeof(a[n].value), "none: --assume pinned=none (%d.%d%% "
				 "of the recorded file scans kept the page for no reason the tracepoint "
				 "names)", r->pinned_permille / 10, r->pinned_permille % 10);
		else if (r->pinned_permille < 0)
			snprintf(a[n].value, sizeof(a[n].value), "none: too few recorded file scans, or "
				 "a tracepoint without their reasons, to tell pages reclaim cannot free");
		else if (r->pinned_marked)
			snprintf(a[n].value, sizeof(a[n].value), "%d.%d%% of the recorded file scans "
				 "kept the page for no reason the tracepoint names (a reference held "
				 "elsewhere, as a pipe's): %lld pages taken as pinned (the smallest "
				 "inactive file list while reclaim scanned, times that share), the "
				 "oldest insertions reclaim did not evict, %lld marked; reclaim keeps them "
				 "on the inactive list", r->pinned_permille / 10, r->pinned_permille % 10,
				 r->pinned_pages, r->pinned_marked);
		else
			snprintf(a[n].value, sizeof(a[n].value), "none: %d.%d%% of the recorded file "
				 "scans kept the page for no reason the tracepoint names, taken as "
				 "transient (pinned from half on)", r->pinned_permille / 10,
				 r->pinned_permille % 10);
		a[n].source = r->pinned_off ? "--assume pinned=none" : "events";
		a[n++].firmness = r->pinned_marked ? "inferred" : "assumed";
	}
	if (n < max) {
		snprintf(a[n].item, sizeof(a[n].item), "demand: anon frees");
		if (r->has_swap)
			snprintf(a[n].value, sizeof(a[n].value), "%lld anon pages freed by the workload "
				 "(per sample interval, new anon less the growth of all anon: resident + "
				 "swap used, the swap cache counted once or twice, whichever grew more; "
				 "net, so an interval that allocates and frees shows the difference), the "
				 "oldest first, resident or swapped", r->anon_freed);
		else
			snprintf(a[n].value, sizeof(a[n].value), "not modelled: the samples lack swap "
				 "use (%s), so anon freed by the workload cannot be told from anon "
				 "swapped out; anon is taken as never freed",
				 r->memcg ? (r->cgroup_v1 ? "memory.stat total_swap: swap accounting "
					     "off" : "cgroup v2 memory.swap.current is not sampled") :
				 "meminfo SwapFree");
		a[n].source = r->has_swap ? (r->memcg ? "memory.stat" : "vmstat, meminfo") : "missing";
		a[n++].firmness = r->has_swap ? "sampled" : "assumed";
	}
	if (n < max && !r->memcg) {
		const struct whatif_sample *first = &r->smp[0], *last = &r->smp[r->nsmp - 1];

		snprintf(a[n].item, sizeof(a[n].item), "model: node memory");
		snprintf(a[n].value, sizeof(a[n].value), "the LRU lists and free memory share what "
			 "each vmstat sample shows of them (nr_free_pages + the four LRU lists: %lld "
			 "pages at the start, %lld at the end): memory outside them (slab, "
			 "unevictable, page tables, per-cpu free lists) follows the recording; the "
			 "watermark checks add to the zones' sums %lld pages the lower zones reserve "
			 "for allocations of the highest (lowmem_reserve), kswapd's target does not",
			 first->free + first->lru[0] + first->lru[1] + first->lru[2] + first->lru[3],
			 last->free + last->lru[0] + last->lru[1] + last->lru[2] + last->lru[3],
			 r->reserve);
		a[n].source = "vmstat, zoneinfo";
		a[n++].firmness = "sampled";
	}
	if (n < max && r->memcg) {
		snprintf(a[n].item, sizeof(a[n].item), "memcg reclaimers");
		snprintf(a[n].value, sizeof(a[n].value), "%lld task(s) entered memcg reclaim%s",
			 r->reclaimers, r->reclaimers > 1 ? ": the events do not say which memcg, so "
			 "all count as the sampled memcg's (reclaim and demand of another memcg "
			 "reclaiming meanwhile would be counted)" : "");
		a[n].source = "events";
		a[n++].firmness = r->reclaimers > 1 ? "assumed" : "exact";
	}
	if (n < max && r->memcg) {
		snprintf(a[n].item, sizeof(a[n].item), "model: vfs");
		if (r->vfs)
			snprintf(a[n].value, sizeof(a[n].value), "a file the filemap events name is a dentry "
				 "(192 B) and an inode: %lld B of slab per file (kmem growth over the "
				 "%lld files made before reclaim), charged against the limit; the "
				 "superblock shrinker runs each pass at vfs_cache_pressure/%lld, freeing "
				 "an inode once its pages are gone (its shadow cleared), stopped in "
				 "%d.%d%% of the reclaim calls (GFP_NOFS, as recorded); other slab as "
				 "at the start; stat(2) inserting no page is unseen",
				 r->file_bytes, r->calib_files, r->vfs_denom,
				 r->nofs_permille / 10, r->nofs_permille % 10);
		else
			snprintf(a[n].value, sizeof(a[n].value), "off: %s; slab counts as part of "
				 "the constant outside the LRU lists", r->vfs_why);
		a[n].source = r->vfs ? "memory.kmem.usage_in_bytes, events" : "model";
		a[n++].firmness = r->vfs ? "inferred" : "assumed";
	}
	if (n < max) {
		snprintf(a[n].item, sizeof(a[n].item), "reclaim_seconds");
		snprintf(a[n].value, sizeof(a[n].value), "%.0f ns per page scanned (the recording's "
			 "reclaim time over its pages scanned)", r->ns_per_scanned);
		a[n].source = "events";
		a[n++].firmness = "inferred";
	}
	for (i = 0; i < sizeof(model) / sizeof(model[0]) && n < max; i++, n++) {
		snprintf(a[n].item, sizeof(a[n].item), "%s", model[i].item);
		int by_use = r->fm && r->nacc && !r->acc_off;

		snprintf(a[n].value, sizeof(a[n].value), "%s",
			 by_use && !strcmp(model[i].item, "model: referenced") ? referenced_by_use :
			 by_use && !strcmp(model[i].item, "demand: hits") ? hits_by_use :
			 model[i].value);
		a[n].source = "model";
		a[n].firmness = "assumed";
	}
	return n;
}

/*
 * The assumption row of watermark boosting (node reclaim): the fallbacks
 * it starts from and what the simulations made of them. Return: rows written.
 */
static int boost_model(const struct run *run, const struct sim_stats *base,
		       const struct sim_stats *wi, struct whatif_assumption *a)
{
	const struct whatif_rec *r = &run->rec;

	if (r->memcg)
		return 0;
	snprintf(a->item, sizeof(a->item), "model: boost");
	if (!r->fallback_recorded) {
		snprintf(a->value, sizeof(a->value), "off: kmem:mm_page_alloc_extfrag was not "
			 "recorded, so no fallback boosts the watermarks (with "
			 "vm.watermark_boost_factor %lld the kernel may have boosted them)",
			 run->base_knob[K_WATERMARK_BOOST]);
		a->source = "missing";
		a->firmness = "assumed";
		return 1;
	}
	snprintf(a->value, sizeof(a->value), "%ld of %lld fallbacks (mm_page_alloc_extfrag) "
		 "boost a zone by a pageblock (512 pages) up to its high watermark x "
		 "watermark_boost_factor / 10000 and wake kswapd, which reclaims the boost "
		 "file-only; boosted kswapd runs: baseline %lld (%lld pages), whatif %lld (%lld "
		 "pages). The fallbacks are as recorded: boosting makes later ones rarer (it "
		 "frees and compacts ahead of them), so from a run with less boosting the "
		 "boosts are over-counted", r->nfallback, r->fallback_events, base->boosted_runs,
		 base->boost_reclaimed, wi->boosted_runs, wi->boost_reclaimed);
	a->source = "events";
	a->firmness = "inferred";
	return 1;
}

/*
 * The assumption row of a policy: which of its answers the simulation used,
 * and where it answered undecidable (the baseline's answer used instead:
 * also said on stderr, as the outcome is then partly the baseline's).
 * Return: 1 (rows written).
 */
static int policy_use(const char *label, const struct sim_policy_use *use,
		      struct whatif_assumption *a)
{
	size_t len = 0;
	long long undecidable = 0;

	snprintf(a->item, sizeof(a->item), "policy");
	len = snprintf(a->value, sizeof(a->value), "%s asked", label);
	for (int q = 0; q < SIM_NQ && len < sizeof(a->value); q++) {
		len += snprintf(a->value + len, sizeof(a->value) - len, "%s %s %lld", q ? "," : "",
				sim_question_names[q], use->asked[q]);
		if (use->undecidable[q] && len < sizeof(a->value))
			len += snprintf(a->value + len, sizeof(a->value) - len, " (%lld undecidable)",
					use->undecidable[q]);
		undecidable += use->undecidable[q];
	}
	if (undecidable && len < sizeof(a->value))
		snprintf(a->value + len, sizeof(a->value) - len, "; where it answered undecidable the "
			 "baseline's (v6.18) answer was used");
	if (undecidable)
		vms_warning("policy '%s' answered undecidable %lld times (it does not model those "
			    "questions): the simulation used the baseline's answers there (see the "
			    "assumption 'policy')", label, undecidable);
	a->source = "policy";
	a->firmness = undecidable ? "assumed" : "exact";
	return 1;
}

/*
 * --rerun: say where the rerun ran with other knobs than the whatif
 * simulates (the comparison is then not of the same change): on stderr
 * and under the table @t.
 */
static void rerun_mismatch(const struct run *run, const struct whatif_rerun *rr, struct table *t)
{
	int k;

	if (rr->memcg != run->rec.memcg)
		vms_warning("the rerun '%s' is of %s, the recording of %s: not the same lruvec",
			    rr->path, rr->memcg ? "a memcg" : "the node",
			    run->rec.memcg ? "a memcg" : "the node");
	for (k = 0; k < K_NKNOBS; k++) {
		if (!knob_used(&run->rec, k) || !rr->known[k] || rr->knob[k] == run->new_knob[k])
			continue;
		vms_warning("the rerun '%s' ran with %s=%lld, the whatif simulates %lld: not the same "
			    "change", rr->path, whatif_knob_names[k], rr->knob[k], run->new_knob[k]);
		table_note(t, "the rerun ran with %s=%lld, the whatif simulates %lld: not the same "
			   "change", whatif_knob_names[k], rr->knob[k], run->new_knob[k]);
	}
}

static struct table *assumption_table(const struct whatif_assumption *a, int n)
{
	struct table *t = table_new("whatif", "assumptions", "Assumptions of the simulation");
	int i;

	if (!t)
		return NULL;
	table_column(t, "item", NULL, 0);
	table_column(t, "value", NULL, 0);
	table_column(t, "source", NULL, 0);
	table_column(t, "firmness", NULL, 0);
	for (i = 0; i < n; i++) {
		table_row(t);
		table_text(t, a[i].item);
		table_text(t, a[i].value);
		table_text(t, a[i].source);
		table_text(t, a[i].firmness);
	}
	return t;
}

/* access=sequential|protected: how many pages the gaps it filled gave, and how many missed here. */
static void gap_counts(struct whatif_assumption *a, int n, const struct sim_stats *base,
		       const struct sim_stats *wi)
{
	int i;

	for (i = 0; i < n; i++) {
		size_t len = strlen(a[i].value);

		if (strcmp(a[i].item, "demand: access") || !(base->gap_used || wi->gap_used))
			continue;
		snprintf(a[i].value + len, sizeof(a[i].value) - len, "; pages so used: baseline "
			 "%lld (%lld misses here), whatif %lld (%lld misses)", base->gap_used,
			 base->gap_missed, wi->gap_used, wi->gap_missed);
	}
}

int cmd_whatif(int argc, const char **argv)
{
	struct whatif_point *bseries = NULL, *wseries = NULL;
	struct policy_instance pol = { 0 };
	struct table *t1 = NULL, *t2 = NULL, *t3 = NULL;
	struct whatif_rerun rerun;
	struct whatif_rerun_row rerun_rows[M_NMETRICS];
	struct whatif_assumption asm_rows[32];
	double base[M_NMETRICS], wi[M_NMETRICS];
	struct vms_window w = { 0 };
	struct whatif_opts o;
	struct vms_db *db = NULL;
	struct out *out = NULL;
	struct run *run;
	struct sim_stats bstats, wstats;
	long nb = 0, nw = 0;
	int rc, na, has_policy = 0;

	memset(&bstats, 0, sizeof(bstats));
	memset(&wstats, 0, sizeof(wstats));
	if (parse_whatif_options(argc, argv, &o, &rc))
		return rc;
	run = calloc(1, sizeof(*run));
	if (!run)
		return error("out of memory");
	rc = 1;
	if (o.policy) {
		if (policy_open(o.policy, &pol))
			goto fail;
		has_policy = 1;
	}
	for (na = 0; na < o.nassume; na++)	/* before loading: the accesses are not read then */
		if (!strcmp(o.assume[na], "access=insertions"))
			run->rec.acc_off = 1;
	db = vms_db_open(o.path, 0);
	w.db = db;
	if (!db || vms_window_open(&w, o.from_s, o.to_s, o.has_from, o.has_to) ||
	    whatif_rec_load(&w, &run->rec) || settle_knobs(&o, run))
		goto fail;
	/* the rerun first: a bad one fails before the simulations, not after */
	if (o.rerun && whatif_rerun_load(o.rerun, o.from_s, o.to_s, o.has_from, o.has_to, &rerun))
		goto fail;
	if (whatif_simulate(&run->rec, run->base_knob, NULL, base, &bseries, &nb, &bstats) ||
	    whatif_simulate(&run->rec, run->new_knob, has_policy ? &pol : NULL, wi, &wseries, &nw,
			    &wstats))
		goto fail;
	if (bstats.over_limit || wstats.over_limit)
		vms_warning("the simulation found no room for a charge after all its reclaim (the "
			    "kernel would have gone out of memory): baseline %lld times, whatif %lld; "
			    "its outcome from then on is not meaningful (see the assumption "
			    "'out of memory')", bstats.over_limit, wstats.over_limit);
	na = assumptions(run, asm_rows, sizeof(asm_rows) / sizeof(asm_rows[0]));
	gap_counts(asm_rows, na, &bstats, &wstats);
	if ((bstats.over_limit || wstats.over_limit) &&
	    na < (int)(sizeof(asm_rows) / sizeof(asm_rows[0]))) {
		struct whatif_assumption *a = &asm_rows[na++];

		snprintf(a->item, sizeof(a->item), "out of memory");
		snprintf(a->value, sizeof(a->value), "charges no reclaim made room for: baseline "
			 "%lld, whatif %lld (after %s; the next charges skip reclaim, twice as many "
			 "after each, until reclaim frees again); the simulation went on as if they "
			 "fit, so its reclaim counts from then on are not the kernel's (which would "
			 "have OOM-killed)", bstats.over_limit, wstats.over_limit,
			 run->rec.memcg ? "16 reclaim calls" : "16 direct reclaims");
		a->source = "model";
		a->firmness = "measured";
	}
	if (na < (int)(sizeof(asm_rows) / sizeof(asm_rows[0])))
		na += boost_model(run, &bstats, &wstats, &asm_rows[na]);
	na += whatif_access_assumption(&run->rec, &bstats, &wstats, &asm_rows[na],
				       (int)(sizeof(asm_rows) / sizeof(asm_rows[0])) - na);
	if (has_policy && na < (int)(sizeof(asm_rows) / sizeof(asm_rows[0])))
		na += policy_use(pol.label ? pol.label : o.policy, &wstats.use, &asm_rows[na]);
	na += whatif_consistency(&run->rec, run->demand_counters, base, asm_rows + na,
				 (int)(sizeof(asm_rows) / sizeof(asm_rows[0])) - na);
	if (o.rerun) {
		int changed = has_policy, k;

		for (k = 0; k < K_NKNOBS; k++)
			changed |= run->new_knob[k] != run->base_knob[k];
		whatif_rerun_compare(&rerun, &run->rec, base, wi, changed, rerun_rows);
		t3 = whatif_rerun_table(&rerun, &run->rec, wi, rerun_rows);
		if (!t3) {
			vms_error("out of memory");
			goto fail;
		}
		rerun_mismatch(run, &rerun, t3);
	}
	if (vms_db_apply_schema_file(db, "930-whatif.sql") || vms_db_exec(db, "BEGIN") ||
	    whatif_store(db, run->scenario, &run->rec, base, wi, bseries, wseries, nb, asm_rows, na) ||
	    whatif_rerun_store(db, run->scenario, o.rerun ? &rerun : NULL, rerun_rows) ||
	    vms_db_exec(db, "COMMIT"))
		goto fail;
	t1 = outcome_table(run, base, wi);
	t2 = assumption_table(asm_rows, na);
	out = out_open(stdout, o.fmt);
	if (!t1 || !t2 || !out) {
		vms_error("out of memory");
		goto fail;
	}
	out_meta(out, "database", o.path);
	out_meta(out, "scenario", run->scenario);
	out_table(out, t1);
	if (t3)
		out_table(out, t3);
	out_table(out, t2);
	rc = out_close(out) ? error("cannot write to standard output") : 0;
	out = NULL;
	goto out;
fail:
	rc = error_last();
out:
	if (out)
		out_close(out);
	table_free(t1);
	table_free(t2);
	table_free(t3);
	free(bseries);
	free(wseries);
	whatif_rec_release(&run->rec);
	free(run);
	if (has_policy)
		policy_close(&pol);
	vms_db_close(db);
	return rc;
}
