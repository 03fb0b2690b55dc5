/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat-check.h - check a trace-cmd .dat file's CPU data against the layout
 * the file states (dat-check.c), so that an import never calls a damaged
 * file complete. Used by import-dat.c in its reader process.
 *
 * Protocol:
 *   1. dat_check_file() walks every CPU's data of every buffer the file
 *      lists, by the file's own rules, and calls @damage for each place
 *      that breaks them;
 *   2. the caller compares each dat_check.cpus[i].events (the records the
 *      pages hold) with the records libtracecmd delivered for that buffer
 *      and CPU;
 *   3. dat_check_release().
 */
#ifndef VMS_DAT_CHECK_H
#define VMS_DAT_CHECK_H

#include <stddef.h>
#include <stdint.h>

struct tep_handle;

/* The records one CPU of one buffer holds, as its pages say. */
struct dat_cpu_events {
	char buffer[64];		/* buffer instance name, "" for the top one */
	int cpu;
	uint64_t events;		/* data records in its pages (up to any damage) */
	long long offset;		/* file offset of its data */
	double per_byte;		/* records per byte of sound page data, 0 if none */
	double per_file_byte;		/* records per file byte of sound chunks, 0 if none */
};

struct dat_check {
	struct dat_cpu_events *cpus;	/* caller frees with dat_check_release() */
	size_t ncpus;
};

/*
 * The callback for one damaged place: the buffer and CPU, the file offset
 * (of the page, or of the compressed chunk holding it), an estimate of the
 * records lost (-1: unknown) and what is wrong. Return: 0, or -1 to stop.
 */
typedef int (*dat_damage_fn)(void *arg, const char *buffer, int cpu, long long offset,
			     long long lost, const char *what);

/**
 * dat_check_file() - walk the CPU data of a .dat file and report damage
 * @path: the file
 * @tep: its event formats (from libtracecmd), for the event ids and the
 *	 size of a sub-buffer's commit field
 * @out: filled with the records per buffer and CPU
 * @damage: called for each damaged place (also when the layout itself
 *	    cannot be read)
 * @arg: for @damage
 *
 * Return: 0 when checked, 1 when the file is of a kind not checked
 * (version 6, big endian, an unknown compression), -1 on a failure of
 * @damage or of an allocation (vms_error set).
 */
int dat_check_file(const char *path, struct tep_handle *tep, struct dat_check *out,
		   dat_damage_fn damage, void *arg);

void dat_check_release(struct dat_check *c);

/*
 * dat-check-bg.c: dat_check_file() in a process of its own, started before
 * the decoding and finished after it. dat_check_start() returns NULL when
 * no process could be started; dat_check_finish() (which also takes NULL)
 * then, or when the process gave no complete result, runs dat_check_file()
 * itself: it returns what dat_check_file() returns, the damaged places
 * reported through @damage in the same order. dat_check_abandon() ends
 * the process without a result.
 */
struct dat_check_job;
struct dat_check_job *dat_check_start(const char *path, struct tep_handle *tep);
int dat_check_finish(struct dat_check_job *job, const char *path, struct tep_handle *tep,
		     struct dat_check *out, dat_damage_fn damage, void *arg);
void dat_check_abandon(struct dat_check_job *job);

#endif
