// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-record.c - `vmscope record`: record reclaim live into a database,
 * with the counters that give the events their context sampled on the same
 * clock. Runs until --duration, Ctrl-C/SIGTERM, or the end of a command
 * given after `--`. On any stop every event read so far is committed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "vms.h"
#include "vms-import.h"
#include "cli.h"
#include "cgroup-run.h"
#include "counters.h"
#include "exec-maps.h"
#include "instance.h"
#include "live.h"
#include "exact-inputs.h"
#include "recover.h"

static const struct cli_help record_help = {
	.synopsis = { "vmscope record -o DB [options] [-- COMMAND [ARGS...]]",
		      "vmscope record --recover DB [--remove-instance]" },
	.about = "Record the kernel's reclaim live: vmscan and writeback trace events (and\n"
		 "kmem:mm_page_alloc_extfrag, and the filemap events of the page cache that\n"
		 "whatif simulates: insertions, removals, reads, faults) from a private tracefs\n"
		 "instance, plus /proc/vmstat, /proc/meminfo, /proc/zoneinfo, per-node vmstat\n"
		 "and a memcg's memory.stat sampled on the same clock (mono). Needs root.\n",
	.more = "While recording, vmscope only copies the ring-buffer pages into DB.spool-PID\n"
		"(as cheap as trace-cmd record); when the recording stops they are decoded\n"
		"into DB, with a progress line, and the spool is deleted.\n"
		"\n"
		"With -- COMMAND, records while COMMAND runs and exits with its exit status\n"
		"(-m only samples a memcg; --cgroup runs COMMAND in one, --memory-limit in a\n"
		"new one removed afterwards, on every exit path); a recording\n"
		"stopped first (--duration, a signal) sends COMMAND SIGTERM. Otherwise records\n"
		"until --duration or Ctrl-C (SIGINT, SIGTERM, SIGHUP), which keep every event\n"
		"read so far. Exit status: 0 recorded; 1 failure to start (no root, no\n"
		"tracefs, missing event: DB is not created or replaced) or an error while\n"
		"recording (what was recorded is kept, the run marked incomplete); 2 usage\n"
		"error. See docs/record.md.\n",
};

/* -b KB: 0 (leave the new instance's buffers as the kernel sizes them), or 64 KiB to 4 GiB. */
static int parse_buffer_kb(const char *s, void *value)
{
	char *end;
	long kb;

	errno = 0;
	kb = strtol(s, &end, 10);
	if (!*s || *end || errno || (kb && kb < 64) || kb < 0 || kb > 4194304)
		return -1;
	*(unsigned int *)value = (unsigned int)kb;
	return 0;
}

/* --memory-limit SIZE: bytes, K/M/G/T suffixes, at least 1 MiB. */
static int parse_memory_limit(const char *s, void *value)
{
	long long bytes;

	if (vms_parse_size(s, &bytes) || bytes < (1LL << 20))
		return -1;
	*(long long *)value = bytes;
	return 0;
}

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* Bytes of @path and its -wal file. */
static long long db_size(const char *path)
{
	struct stat st;
	char wal[4096];
	long long n = 0;

	if (!stat(path, &st))
		n += st.st_size;
	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (!stat(wal, &st))
		n += st.st_size;
	return n;
}

/* User and system CPU this process has used so far, seconds. */
static double cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static pid_t start_command(const char **argv, const struct memcg_run *cg)
{
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (cg && memcg_run_enter(cg)) {
			fprintf(stderr, "vmscope record: error: cannot move '%s' into %s: %s\n",
				argv[0], memcg_run_path(cg), strerror(errno));
			_exit(126);
		}
		/* the command must not hold vmscope's trace buffers open */
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "vmscope record: error: cannot run '%s': %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		vms_error("cannot start '%s': %s", argv[0], strerror(errno));
	return pid;
}

/*
 * The private instance of the dead recorder @pid traces on into its buffers
 * until removed: remove it with @remove, or when the user says so at a
 * terminal; else say how. Return: 0, or 1 when it could not be removed.
 */
static int dead_instance(int pid, int remove)
{
	char name[64], answer[16] = "";
	long kb = 0;

	if (pid <= 0 || !trace_buffer_left_by(pid, name, sizeof(name)))
		return 0;
	if (!remove && isatty(0) && isatty(2)) {
		fprintf(stderr, "vmscope record: tracefs instance '%s' of the dead recorder still "
			"traces into its buffers; remove it? [y/N] ", name);
		remove = fgets(answer, sizeof(answer), stdin) && (answer[0] == 'y' || answer[0] == 'Y');
	}
	if (!remove) {
		vms_warning("tracefs instance '%s' of the dead recorder still traces into its "
			    "buffers: remove it with 'echo 0 > %s/instances/%s/events/enable; rmdir "
			    "%s/instances/%s' (--remove-instance does it with --recover)", name,
			    tracefs_tracing_dir(), name, tracefs_tracing_dir(), name);
		return 0;
	}
	if (trace_buffer_remove(name, &kb)) {
		error_last();
		return 1;
	}
	note("removed tracefs instance '%s' of the dead recorder (%ld KiB per CPU)", name, kb);
	return 0;
}

int cmd_record(int argc, const char **argv)
{
	struct live_options lopt = { .buffer_kb = 16384 };
	const char *output = NULL, *memcg = NULL, **command = NULL, *recover = NULL;
	const char *cgroup = NULL;
	long long memory_limit = 0;
	int swappiness = -1, swappiness_seen = 0;
	struct memcg_run *cg = NULL;
	double duration = 0, interval_ms = 100, t0, last_status = 0, last_commit, capture_cpu, decode_start, decode_wall = 0;
	int force = 0, quiet = 0, rc = 1, child_status = 0, tty = isatty(2), decode_tried = 0;
	int remove_instance = 0;
	struct live_session *live = NULL;
	struct counters *counters = NULL;
	struct exec_maps *exec_maps = NULL;
	struct exact_inputs *exact = NULL;
	int no_exact = 0, no_memcg_sampling = 0;
	struct vms_sink *sink = NULL;
	struct vms_db *db = NULL;
	pid_t child = 0;
	struct utsname un;
	char *cmdline;
	struct cli_list events = { 0 };
	const struct cli_option opts[] = {
		OPT_STRING('o', "output", &output, "DB", "database to write (required)"),
		OPT_BOOL('f', "force", &force, "replace DB if it exists"),
		OPT_STRING_LIST('e', "event", &events, "EV",
				"record EV ('system' or 'system:event') instead of the\n"
				"default set; repeatable"),
		OPT_SECONDS('d', "duration", &duration, "S", "stop after S seconds"),
		OPT_NUMBER('i', "interval", &interval_ms, "MS",
			   "counter sampling and buffer drain interval (default 100)", 1, 3600000,
			   "milliseconds"),
		OPT_STRING('m', "memcg", &memcg, "PATH",
			   "also sample PATH/memory.stat (cgroup v1 or v2 directory) and\n"
			   "the file ranges its tasks map executable (/proc/PID/maps)"),
		OPT_CALLBACK('b', "buffer-kb", &lopt.buffer_kb, "KB",
			     "ring buffer per CPU (default 16384; 0: the kernel's)", parse_buffer_kb,
			     "0 or a whole number of KiB from 64 to 4194304"),
		OPT_BOOL('q', "quiet", &quiet, "no live status line and no summary"),
		OPT_STRING(0, "recover", &recover, "DB",
			   "decode the pages a recorder that died (SIGKILL, crash)\n"
			   "left next to DB (DB.spool-PID) and finish DB"),
		OPT_STRING(0, "cgroup", &cgroup, "PATH",
			   "run COMMAND in the memcg PATH (v1 or v2; relative to\n"
			   "the memory controller's root) and sample its memory.stat"),
		OPT_CALLBACK(0, "memory-limit", &memory_limit, "SIZE",
			     "run COMMAND in a new memcg limited to SIZE (K/M/G),\n"
			     "sampled, and removed afterwards", parse_memory_limit,
			     "a size of at least 1M (K, M, G, T suffixes)"),
		{ .type = CLI_OPT_INT, .long_name = "swappiness", .value = &swappiness, .argh = "N",
		  .help = "memory.swappiness of that new memcg (cgroup v1)", .min = 0, .max = 200,
		  .seen = &swappiness_seen },
		OPT_STRING(0, "instance", &lopt.instance, "NAME",
			   "record into the existing tracefs instance NAME (made\n"
			   "ahead of time), left as it was found"),
		OPT_BOOL(0, "top-level", &lopt.top_level,
			 "record into the top-level buffer, left as it was found\n"
			 "(refused while another process reads it)"),
		OPT_BOOL(0, "remove-instance", &remove_instance,
			 "with --recover: remove the dead recorder's tracefs instance"),
		OPT_BOOL(0, "no-exact-inputs", &no_exact,
			 "with -m: do not keep the memcg's decision inputs exactly (BPF)"),
		OPT_BOOL(0, "no-memcg-sampling", &no_memcg_sampling,
			 "with -m: do not sample memory.stat (each read flushes the\n"
			 "memcg's stats, which reclaim then sees) nor its tasks' maps"),
		OPT_REST(&command),
		OPT_END(),
	};

	if (cli_parse_options(argc, argv, opts, &record_help, &rc)) {
		cli_list_release(&events);
		return rc;
	}
	rc = 1;
	lopt.events = events.items;	/* freed at the end, as lopt.events */
	lopt.nevents = events.n;
	if (recover) {
		uint64_t n;
		int pid;

		free(lopt.events);
		if (output || command)
			return cli_usage_error(opts, &record_help, "--recover takes no -o and no command");
		if (record_recover(recover, quiet, &n, &pid)) {
			error_last();
			dead_instance(pid, remove_instance);	/* the instance is there all the same */
			return 1;
		}
		if (!quiet)
			note("recovered %llu events into %s (run marked incomplete: see vmscope info)",
			     (unsigned long long)n, recover);
		return dead_instance(pid, remove_instance);
	}
	if (!output || (command && !command[0])) {
		free(lopt.events);
		return cli_usage_error(opts, &record_help, !output ? "no output database (-o DB)" :
				       "no command after --");
	}
	if (cgroup || memory_limit || swappiness_seen) {
		const char *why = NULL;

		if (!command)
			why = "--cgroup, --memory-limit and --swappiness run a command: give it after --";
		else if (cgroup && (memory_limit || swappiness_seen))
			why = "--memory-limit and --swappiness make a new memcg; they do not change --cgroup's";
		else if (swappiness_seen && !memory_limit)
			why = "--swappiness sets the memcg that --memory-limit makes; give a limit too";
		else if (memcg)
			why = "--cgroup and --memory-limit sample their memcg: no -m with them";
		if (why) {
			free(lopt.events);
			return cli_usage_error(opts, &record_help, "%s", why);
		}
	}
	if ((lopt.instance && lopt.top_level) || remove_instance) {
		free(lopt.events);
		return cli_usage_error(opts, &record_help, remove_instance ?
				       "--remove-instance goes with --recover DB" :
				       "--instance and --top-level exclude each other");
	}
	if ((no_exact || no_memcg_sampling) && !memcg && !cgroup && !memory_limit) {
		free(lopt.events);
		return cli_usage_error(opts, &record_help, "--no-exact-inputs and --no-memcg-sampling "
				       "need -m PATH, --cgroup or --memory-limit");
	}

	/* stop requests during set-up are honoured once the loop starts */
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	signal(SIGHUP, on_stop);
	/* check before touching the output, so that a failed start replaces nothing */
	if (live_check())
		goto fail_nodb;
	db = vms_db_create(output, force, "live");
	if (!db)
		goto fail_nodb;
	sink = vms_sink_new(db);
	if (!sink)
		goto fail_db;
	cmdline = vms_join_args("vmscope", argc, argv);
	uname(&un);
	if (!cmdline || vms_db_set_run_text(db, "command_line", cmdline) ||
	    vms_db_set_run_text(db, "kernel_release", un.release) ||
	    vms_db_set_run_text(db, "source_compression", "none")) {
		free(cmdline);
		goto fail_db;
	}
	free(cmdline);
	{
		char full[1024];

		snprintf(full, sizeof(full), "%s %s %s %s %s", un.sysname, un.nodename, un.release,
			 un.version, un.machine);
		if (vms_db_set_run_text(db, "uname", full) ||
		    vms_db_set_run_text(db, "source_path", "live recording"))
			goto fail_db;
	}
	if (counters_store_sysctls(db))
		goto fail_db;
	if (cgroup || memory_limit) {
		cg = memcg_run_open(cgroup, memory_limit, swappiness_seen ? swappiness : -1);
		if (!cg)
			goto fail_db;
		memcg = memcg_run_path(cg);
	}
	counters = counters_new(db, no_memcg_sampling ? NULL : memcg);
	if (!counters || (memcg && counters_store_memcg_swappiness(db, memcg)))
		goto fail_db;
	/* reading maps takes each task's mmap lock: not with --no-memcg-sampling */
	if (memcg && !no_memcg_sampling && !(exec_maps = exec_maps_new(db, memcg)))
		goto fail_db;
	live = live_open(&lopt, db, sink);
	if (!live)
		goto fail_db;
	if (memcg && !no_exact && !(exact = exact_inputs_open(db, memcg)) && !quiet)
		note("exact inputs unavailable, decision inputs sampled: %s", vms_last_error());
	if (!exact && exact_inputs_store_unavailable(db, !memcg ? "no memcg given (-m)" :
						     no_exact ? "--no-exact-inputs" : vms_last_error()))
		goto fail_db;

	/* counters are sampled only while tracing is on, so that the first and the
	 * last sample bracket exactly what the trace saw */
	if (live_start(live) || counters_sample(counters) || exec_maps_poll(exec_maps, 1))
		goto fail_live;
	if (command) {
		child = start_command(command, cg);
		if (child < 0)
			goto fail_live;
	}
	t0 = last_commit = vms_now();
	while (!stop_signal) {
		double now, next = vms_now() + interval_ms / 1000.0;
		struct timespec ts;

		/* leave time for the sampler and for a stop request under any load */
		if (live_drain(live, interval_ms / 1000.0) < 0 || counters_sample(counters) ||
		    exec_maps_poll(exec_maps, 0) || exact_inputs_poll(exact) < 0)
			goto fail_live;
		now = vms_now();
		if (now - last_commit >= 1.0) {
			if (vms_db_commit(db))
				goto fail_live;
			last_commit = now;
		}
		if (child > 0 && waitpid(child, &child_status, WNOHANG) == child) {
			child = 0;
			break;
		}
		if (duration > 0 && now - t0 >= duration)
			break;
		if (!quiet && tty && now - last_status >= 0.5) {
			double el = now - t0;

			fprintf(stderr, "\rrecording %.1f s: %llu events (%.0f/s), lost %llu, "
				"%.1f MB of pages, database %.1f MB\033[K", el,
				(unsigned long long)live_events(live),
				el > 0 ? live_events(live) / el : 0.0,
				(unsigned long long)live_lost_seen(live), live_spool_bytes(live) / 1e6,
				db_size(output) / 1e6);
			last_status = now;
		}
		now = vms_now();
		if (next > now) {
			ts.tv_sec = (time_t)(next - now);
			ts.tv_nsec = (long)((next - now - ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);	/* a signal cuts it short */
		}
	}
	if (!quiet && tty)
		fprintf(stderr, "\r\033[K");
	/* detaching the BPF program takes a while: after tracing stops, not between */
	if (counters_sample(counters) || exec_maps_poll(exec_maps, 1) || live_stop(live) ||
	    exact_inputs_finish(exact) ||
	    live_store_losses(live, db))
		goto fail_live;
	capture_cpu = cpu_seconds();
	decode_start = vms_now();
	decode_tried = 1;
	if (live_decode(live, quiet) || vms_sink_finish(sink) || vms_db_finish(db, NULL))
		goto fail_live;
	decode_wall = vms_now() - decode_start;
	if (!quiet) {
		note("recorded %llu events and %llu counter samples into %s%s%s%s",
		     (unsigned long long)live_events(live),
		     (unsigned long long)counters_samples(counters), output,
		     stop_signal ? " (stopped by " : "", stop_signal ? strsignal(stop_signal) : "",
		     stop_signal ? ")" : "");
		note("CPU time: %.2f s while recording, %.2f s decoding after it",
		     capture_cpu, cpu_seconds() - capture_cpu);
		if (decode_wall > 0 && live_events(live))
			note("decoding after the stop: %.2f s, %.0f events/s (and the derived "
			     "tables and indexes)", decode_wall,
			     (double)live_events(live) / decode_wall);
		if (vms_sink_lost_total(sink))
			note("the kernel lost %llu events (table lost_events): enlarge --buffer-kb "
			     "or shorten --interval", (unsigned long long)vms_sink_lost_total(sink));
	}
	rc = 0;
	if (command) {
		if (child > 0) {
			/* the recording ended first (--duration or a signal): end the command */
			kill(child, SIGTERM);
			waitpid(child, &child_status, 0);
		}
		child = 0;
		rc = WIFEXITED(child_status) ? WEXITSTATUS(child_status) : 128 + WTERMSIG(child_status);
	}
	goto out;

fail_live:
	/* keep what was recorded: mark the run incomplete rather than lose it */
	error_last();
	if (live && db) {
		char detail[512];

		snprintf(detail, sizeof(detail), "recording stopped by an error: %s", vms_last_error());
		/* the pages spooled before the error are decoded all the same */
		if (!decode_tried) {
			if (live_stop(live))
				error_last();
			if (live_decode(live, quiet))
				error_last();
		}
		vms_sink_finish(sink);
		vms_db_finish(db, detail);
	}
	rc = 1;
	goto out;
fail_db:
	error_last();
	vms_sink_free(sink);
	sink = NULL;
	vms_db_close(db);
	db = NULL;
	vms_remove_db_files(output);
	rc = 1;
	goto out;
fail_nodb:
	rc = error_last();
out:
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
	exact_inputs_close(exact);
	live_close(live);
	counters_free(counters);
	exec_maps_free(exec_maps);
	vms_sink_free(sink);
	vms_db_close(db);
	free(lopt.events);
	if (memcg_run_close(cg)) {
		error_last();
		if (!rc)
			rc = 1;
	}
	return rc;
}
