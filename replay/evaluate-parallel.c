// SPDX-License-Identifier: GPL-2.0
/*
 * evaluate-parallel.c - evaluate the policies of a replay on two CPUs and
 * store their answers in order. Part of replay: called by cmd-replay.c,
 * uses evaluate.c.
 *
 * The policies are independent: each reads the decision records and gives
 * answers. Storing and counting the answers (SQLite, the summary) must
 * happen on one thread and in the policies' order, since the rows' order
 * and the summary's positions are part of the result. So the calling
 * thread evaluates the baseline and stores it as before, while a helper
 * thread evaluates the next policies into buffers (evaluate_policy_buffered())
 * from the front of the list; the calling thread then stores each buffer
 * in turn (evaluate_store_buffered()), and while the one it needs next is
 * still being evaluated, it evaluates one from the back of the list itself.
 * The tables and the summary are the same as one policy after the other
 * gives (t2120 holds their digests). At 10M events the policies took 4 s of
 * the 12 s of a replay on one thread.
 *
 * What every policy's evaluation reads and does not depend on the policy
 * (the recorded kernel's active-list targets, eval_shared_new()) is made
 * once, before the helper starts; nothing writes to it after.
 *
 * Plugins are evaluated on the calling thread only, and with one of them,
 * or one CPU, everything runs there in order as before: a plugin's hooks
 * need not be safe to call beside another's.
 */
#include <pthread.h>
#include <stdlib.h>

#include "vms.h"
#include "replay.h"

enum job_state { JOB_WAITING, JOB_RUNNING, JOB_DONE, JOB_FAILED };

struct job {
	struct eval_answers *buf;
	struct eval_totals tot;
	enum job_state state;
};

struct pool {
	const struct decision *all;
	long n;
	struct policy_instance *pols;
	int differences_only;
	const struct eval_shared *shared;	/* read-only: read by both threads */
	struct job *jobs;
	int front, back;		/* the waiting jobs: [front, back) */
	pthread_mutex_t lock;
	pthread_cond_t finished;	/* a job is done or failed */
};

/* Evaluate job @k (claimed by the caller, the lock not held) and mark it finished. */
static void run_job(struct pool *p, int k)
{
	struct job *j = &p->jobs[k];
	int rc = evaluate_policy_buffered(p->all, p->n, &p->pols[k], p->differences_only, p->shared,
					  j->buf, &j->tot);

	pthread_mutex_lock(&p->lock);
	j->state = rc ? JOB_FAILED : JOB_DONE;
	pthread_cond_broadcast(&p->finished);
	pthread_mutex_unlock(&p->lock);
}

static void *helper_main(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		int k;

		pthread_mutex_lock(&p->lock);
		if (p->front >= p->back) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		k = p->front++;
		p->jobs[k].state = JOB_RUNNING;
		pthread_mutex_unlock(&p->lock);
		run_job(p, k);
	}
}

/*
 * Wait until job @k is finished, evaluating waiting jobs meanwhile: @k
 * itself when no one has taken it, else the last one waiting. Return: its state.
 */
static enum job_state finish(struct pool *p, int k)
{
	enum job_state s;

	pthread_mutex_lock(&p->lock);
	while ((s = p->jobs[k].state) == JOB_WAITING || s == JOB_RUNNING) {
		int mine = -1;

		if (s == JOB_WAITING && p->front == k)
			mine = p->front++;
		else if (p->front < p->back)
			mine = --p->back;
		if (mine < 0) {
			pthread_cond_wait(&p->finished, &p->lock);
			continue;
		}
		p->jobs[mine].state = JOB_RUNNING;
		pthread_mutex_unlock(&p->lock);
		run_job(p, mine);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return s;
}

/* Whether policies 1..@npols-1 may be evaluated on a second thread. */
static int parallel(const struct policy_instance *pols, int npols)
{
	if (npols < 2 || vms_cpus_to_run_on() < 2)
		return 0;
	for (int i = 1; i < npols; i++)
		if (pols[i].dl)
			return 0;	/* a plugin */
	return 1;
}

static int one_after_another(struct vms_db *db, const struct decision *all, long n,
			     struct policy_instance *pols, int npols, struct eval_target *to,
			     void (*done)(const char *label, void *arg), void *arg)
{
	struct eval_totals tot;

	for (int i = 0; i < npols; i++) {
		to->policy_index = i;
		/* the trivial predictors' rows once, with the baseline's */
		if (evaluate_policy_into(db, all, n, &pols[i], i == 0, to, &tot))
			return vms_error("policy '%s': %s", pols[i].label, vms_last_error());
		done(pols[i].label, arg);
	}
	return 0;
}

/* evaluate_policies() with a helper thread: @to->shared is made. */
static int on_two_threads(struct vms_db *db, const struct decision *all, long n,
			  struct policy_instance *pols, int npols, struct eval_target *to,
			  void (*done)(const char *label, void *arg), void *arg)
{
	struct pool p = {
		.all = all, .n = n, .pols = pols, .differences_only = to->differences_only,
		.shared = to->shared, .front = 1, .back = npols,
	};
	struct eval_totals tot;
	pthread_t helper;
	int started = 0, rc = -1, k;

	p.jobs = calloc(npols, sizeof(*p.jobs));
	if (!p.jobs)
		return vms_error("out of memory");
	for (k = 1; k < npols; k++)
		if (!(p.jobs[k].buf = eval_answers_new())) {
			vms_error("out of memory");
			goto out;
		}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.finished, NULL);
	started = !pthread_create(&helper, NULL, helper_main, &p);
	/* without the thread, finish() evaluates every job here, in order */
	to->policy_index = 0;
	if (evaluate_policy_into(db, all, n, &pols[0], 1, to, &tot)) {
		vms_error("policy '%s': %s", pols[0].label, vms_last_error());
		goto stop;
	}
	done(pols[0].label, arg);
	for (k = 1; k < npols; k++) {
		if (finish(&p, k) == JOB_FAILED) {
			vms_error("policy '%s': out of memory", pols[k].label);
			goto stop;
		}
		to->policy_index = k;
		if (evaluate_store_buffered(db, all, &pols[k], to, p.jobs[k].buf)) {
			vms_error("policy '%s': %s", pols[k].label, vms_last_error());
			goto stop;
		}
		eval_answers_free(p.jobs[k].buf);	/* its memory back before the next */
		p.jobs[k].buf = NULL;
		done(pols[k].label, arg);
	}
	rc = 0;
stop:
	/* no job is started after this; the helper ends with the one it runs */
	pthread_mutex_lock(&p.lock);
	p.back = p.front;
	pthread_mutex_unlock(&p.lock);
	if (started)
		pthread_join(helper, NULL);
	pthread_cond_destroy(&p.finished);
	pthread_mutex_destroy(&p.lock);
out:
	for (k = 1; k < npols; k++)
		eval_answers_free(p.jobs[k].buf);
	free(p.jobs);
	return rc;
}

int evaluate_policies(struct vms_db *db, const struct decision *all, long n,
		      struct policy_instance *pols, int npols, struct eval_target *to,
		      void (*done)(const char *label, void *arg), void *arg)
{
	const struct eval_shared *given = to->shared;
	struct eval_shared *shared = NULL;
	int rc;

	/* what every policy reads, made once before any runs: then nothing is written to it */
	if (!given && !(shared = eval_shared_new(all, n)))
		return vms_error("out of memory");
	to->shared = given ? given : shared;
	rc = parallel(pols, npols) ? on_two_threads(db, all, n, pols, npols, to, done, arg) :
				     one_after_another(db, all, n, pols, npols, to, done, arg);
	to->shared = given;
	eval_shared_free(shared);
	return rc;
}
