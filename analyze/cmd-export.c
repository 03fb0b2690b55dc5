// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-export.c - `vmscope export`: write a run for another tool. Today one
 * format, the Chrome/Perfetto trace-event JSON (--perfetto FILE), to read a
 * run on a timeline in ui.perfetto.dev or chrome://tracing. The file is
 * written beside its destination and renamed into place when complete, so
 * a failure never leaves a half file under the name asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vms.h"
#include "cli.h"
#include "export.h"

static const struct cli_help export_help = {
	.synopsis = { "vmscope export DB --perfetto FILE [-f] [-q]" },
	.about = "Write the run in DB as a Chrome/Perfetto trace-event JSON file: reclaim\n"
		 "episodes as slices per task and per kswapd with shrinker calls nested inside,\n"
		 "throttling beside them, failed kswapd runs and node-hopeless intervals on a\n"
		 "track per node, counters (free pages against the watermarks, LRU sizes,\n"
		 "refault rates, slab/page-cache ratio) as counter tracks, and what-if\n"
		 "predictions beside the recorded values. Open it in ui.perfetto.dev.\n",
	.more = "FILE '-' writes to standard output. The export streams: memory does not\n"
		"grow with the run. Exit status: 0 written; 1 DB unreadable or FILE cannot be\n"
		"written (nothing is left under FILE); 2 usage error. See docs/export.md.\n",
};

/* A regular file may be replaced with -f; anything else never. */
static int check_destination(const char *path, int force)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return error("cannot check '%s': %s", path, strerror(errno));
	}
	if (!S_ISREG(st.st_mode))
		return error("'%s' exists and is not a regular file; not replacing it", path);
	if (!force)
		return error("'%s' exists; use -f to replace it", path);
	return 0;
}

int cmd_export(int argc, const char **argv)
{
	const char *path = NULL, *perfetto = NULL;
	int force = 0, quiet = 0, rc;
	struct vms_export_stats stats;
	char tmp[4096];
	struct vms_db *db;
	FILE *out;
	const struct cli_option opts[] = {
		OPT_STRING(0, "perfetto", &perfetto, "FILE",
			   "write Chrome/Perfetto trace-event JSON to FILE ('-': stdout)"),
		OPT_BOOL('f', "force", &force, "replace an existing FILE (a regular file only)"),
		OPT_BOOL('q', "quiet", &quiet, "no summary line on stderr"),
		OPT_ARG("DB", "database", &path),
		OPT_END(),
	};

	if (cli_parse_options(argc, argv, opts, &export_help, &rc))
		return rc;
	if (!perfetto)
		return cli_usage_error(opts, &export_help, "no output format given (--perfetto FILE)");
	if (strcmp(perfetto, "-") && check_destination(perfetto, force))
		return 1;
	db = vms_db_open(path, VMS_OPEN_READONLY);
	if (!db)
		return error_last();
	if (!strcmp(perfetto, "-")) {
		out = stdout;
	} else {
		if (snprintf(tmp, sizeof(tmp), "%s.partial-%d", perfetto, (int)getpid()) >= (int)sizeof(tmp)) {
			vms_db_close(db);
			return error("output name too long: '%s'", perfetto);
		}
		out = fopen(tmp, "w");
		if (!out) {
			rc = error("cannot create '%s': %s", tmp, strerror(errno));
			vms_db_close(db);
			return rc;
		}
	}
	rc = vms_export_perfetto(db, out, &stats);
	vms_db_close(db);
	if (out == stdout)
		return rc ? error_last() : 0;
	if (fclose(out) && !rc) {
		vms_error("cannot write '%s': %s", tmp, strerror(errno));
		rc = -1;
	}
	if (!rc && rename(tmp, perfetto)) {
		vms_error("cannot rename '%s' to '%s': %s", tmp, perfetto, strerror(errno));
		rc = -1;
	}
	if (rc) {
		unlink(tmp);
		return error_last();
	}
	if (!quiet)
		note("%s: %lld trace events (%lld slices, %lld counter values)%s", perfetto, stats.events,
		     stats.slices, stats.counters,
		     stats.skipped ? "; parts without their table in DB skipped" : "");
	return 0;
}
