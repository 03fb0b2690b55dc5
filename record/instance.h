/* SPDX-License-Identifier: GPL-2.0 */
/*
 * instance.h - the tracefs ring buffer a live recording reads (instance.c):
 * a private instance it creates and removes, an instance made ahead of time
 * (--instance NAME), or the top-level buffer (--top-level); the last two are
 * borrowed and left as they were found.
 * Protocol:
 *  1. trace_buffer_open(): creates or finds the buffer; for a borrowed one,
 *     refuses when another process reads it, and saves its state.
 *  2. trace_buffer_resize(), trace_buffer_note_events() (before and after
 *     enabling events: what was enabled by the recording is disabled again).
 *  3. trace_buffer_close() on every path: tracing off, the recording's
 *     events disabled, a borrowed buffer's size, clock, tracing_on and
 *     set_event_notrace_pid restored, a private instance removed.
 */
#ifndef VMS_RECORD_INSTANCE_H
#define VMS_RECORD_INSTANCE_H

#include <stddef.h>

struct tracefs_instance;

struct trace_buffer {
	struct tracefs_instance *instance;	/* NULL: the top-level buffer */
	char name[128];				/* for messages */
	int owned;				/* created here: removed at close */
	int opened;				/* trace_buffer_open() succeeded */
	/* the state of a borrowed buffer, restored at close */
	char *clock, *notrace_pid, *events_before, *events_ours;
	long size_kb;				/* per CPU, -1 unknown */
	int resized, tracing_on;
};

/*
 * Open the buffer of a recording by process @pid: with @name an existing
 * instance, with @top_level the top-level buffer, else a new instance
 * "vmscope-PID". Return: 0, or -1 (vms_error set; a failed creation for
 * want of memory names the ways around it).
 */
int trace_buffer_open(struct trace_buffer *b, const char *name, int top_level, int pid);
/*
 * Ask for @want_kb per CPU; when the kernel cannot allocate it, for half as
 * much, down to the size the buffer has. @got_kb: the size it has after.
 * Return: 0 (also when it kept a smaller size), or -1 on another error.
 */
int trace_buffer_resize(struct trace_buffer *b, unsigned int want_kb, long *got_kb);
/* Call before (@after 0) and after (1) enabling events. Return: 0 or -1. */
int trace_buffer_note_events(struct trace_buffer *b, int after);
void trace_buffer_close(struct trace_buffer *b);

/*
 * Processes other than @self reading @instance's trace (trace_pipe or a
 * CPU's trace_pipe_raw; NULL: the top level). Return: the first one's pid,
 * 0 none, or -1 when /proc cannot be read.
 */
int trace_buffer_reader(struct tracefs_instance *instance, int self, char *comm, int comm_len);

/* Whether the private instance of recorder @pid is there; @name: its name. */
int trace_buffer_left_by(int pid, char *name, size_t len);
/* Remove instance @name, its events disabled first. @kb: its size per CPU. Return: 0 or -1. */
int trace_buffer_remove(const char *name, long *kb);

#endif
