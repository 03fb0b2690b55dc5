// SPDX-License-Identifier: GPL-2.0
/*
 * recover.c - `vmscope record --recover DB`: finish a recording whose
 * recorder died (SIGKILL, a crash, the OOM killer) before it could decode
 * the ring-buffer pages it had spooled next to DB (DB.spool-PID). The pages
 * are decoded into DB with this boot's event formats, the run is finished
 * and marked incomplete (its last counter sample, the ring-buffer statistics
 * and the pages after the last copy are missing), and the spool is deleted.
 */
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "vms.h"
#include "recover.h"
#include "spool.h"

/*
 * The one spool next to @db_path whose recorder is gone. Return: its path
 * (free it), or NULL. @pid: the recorder's.
 */
static char *find_spool(const char *db_path, int *pid)
{
	char pattern[4096], *found = NULL;
	glob_t g;
	size_t i;

	snprintf(pattern, sizeof(pattern), "%s.spool-*", db_path);
	if (glob(pattern, 0, NULL, &g)) {
		vms_error("%s: no page spool (%s) next to it: nothing to recover", db_path, pattern);
		return NULL;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		const char *dash = strrchr(g.gl_pathv[i], '-');
		long pid_of = strtol(dash + 1, NULL, 10);

		if (pid_of > 0 && (kill((pid_t)pid_of, 0) == 0 || errno == EPERM)) {
			vms_error("%s: the recorder (pid %ld) is still running", g.gl_pathv[i], pid_of);
			goto out;
		}
		if (found) {
			vms_error("%s: more than one spool next to it (%s, %s): recover by hand",
				  db_path, found, g.gl_pathv[i]);
			free(found);
			found = NULL;
			goto out;
		}
		*pid = (int)pid_of;
		if (!(found = strdup(g.gl_pathv[i]))) {
			vms_error("out of memory");
			goto out;
		}
	}
out:
	globfree(&g);
	return found;
}

int record_recover(const char *db_path, int quiet, uint64_t *events, int *pid)
{
	char *spool_path, detail[4300];
	struct vms_sink *sink = NULL;
	struct spool *sp = NULL;
	struct vms_db *db = NULL;
	int rc = -1;

	*events = 0;
	*pid = 0;
	spool_path = find_spool(db_path, pid);
	if (!spool_path)
		return -1;
	if (!(db = vms_db_resume(db_path)) || !(sink = vms_sink_new(db)) ||
	    !(sp = spool_open(spool_path)))
		goto out;
	snprintf(detail, sizeof(detail), "recovered from %s by vmscope record --recover: the "
		 "recorder died, so the last counter sample, the ring-buffer statistics and the "
		 "events after its last page copy are missing", spool_path);
	if (spool_decode(sp, db, sink, quiet, events) || vms_sink_finish(sink) ||
	    vms_db_finish(db, detail)) {
		/* all or nothing, so that --recover can be run again */
		sqlite3_exec(vms_db_sql(db), "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	spool_keep(sp, 0);	/* stored: the spool can go */
	rc = 0;
out:
	spool_free(sp);
	vms_sink_free(sink);
	vms_db_close(db);
	free(spool_path);
	return rc;
}
