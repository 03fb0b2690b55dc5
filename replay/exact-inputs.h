/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exact-inputs.h - the exact decision inputs of a recording (tables
 * exact_input*, schema/008-exact-inputs.sql) as decisions.c uses them
 * (exact-inputs.c). Protocol:
 *  1. exact_view_open() once: 0 with *out NULL when the run has no exact
 *     inputs (older databases, imports, BPF unavailable while recording);
 *  2. exact_view_fill() for each pass, after its sampled inputs are set
 *     (decisions.c); exact_view_sizes() for each record, in the kernel's
 *     order (decision-load.c decisions_order());
 *  3. exact_view_free().
 */
#ifndef VMS_REPLAY_EXACT_INPUTS_H
#define VMS_REPLAY_EXACT_INPUTS_H

#include "vms-policy.h"

struct sqlite3;
struct exact_view;

/* Load the run's exact inputs into *@out (caller frees with exact_view_free()). Return: 0 or -1. */
int exact_view_open(struct sqlite3 *sql, struct exact_view **out);
/*
 * exact_view_fill() - give the memcg reclaim pass of @pid whose first event
 * is at @ts, and whose task's previous pass (or reclaim begin) ended at
 * @since (0: not known; the pass's isolate record must then be within 5 ms
 * of @ts), the inputs the kernel read (provenance exact): the list sizes
 * and refaults of the rstat-flushed view at its decision point, and the
 * refaults since the last snapshot_refaults() of the memcg. Inputs it
 * cannot make exact stay as they are; a pass of an episode that reclaims
 * another memcg (its task was elsewhere) gets unknown list sizes and
 * refaults. Return: 1 when it set them exact, 0 when not.
 */
int exact_view_fill(const struct exact_view *v, int pid, long long ts, long long since,
		    struct vms_pass_input *in);
/*
 * exact_view_nothing_to_isolate() - the memcg reclaim of @pid that began
 * shortly before @ts (its first pass) found the memcg's inactive file list
 * empty, and its inactive anon list too unless @anon_scannable is 0, with
 * an active list to age: 6.18 do_try_to_free_pages() then runs a first
 * sweep and a full-walk retry that isolate nothing and leave no event
 * (shrink_list() skips the active list, sc->skipped_deactivate), and the
 * first recorded pass belongs to the retry with force_deactivate.
 * Return: 1 when so, 0 when not or not known.
 */
int exact_view_nothing_to_isolate(const struct exact_view *v, int pid, long long ts,
				  int anon_scannable);
/*
 * exact_view_sizes() - the list sizes (lru_size[]) of decision record @id
 * read back from the decision table, whose rows keep only the flushed view.
 * Return: 1 when set, 0 when the record has no exact inputs.
 */
int exact_view_sizes(struct exact_view *v, long long id, struct vms_pass_input *in,
		     long long *restored);
void exact_view_free(struct exact_view *v);

#endif
