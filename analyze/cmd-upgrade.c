// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-upgrade.c - `vmscope upgrade`: bring a database written by an older
 * vmscope to this schema version, in place (vms_db_upgrade(),
 * lib/upgrade.c), or derive its tables again after its events were changed
 * by hand (--rederive). See docs/upgrade.md.
 */
#include <string.h>

#include "vms.h"
#include "cli.h"

static const struct cli_help upgrade_help = {
	.synopsis = { "vmscope upgrade [--rederive] [-q] DB" },
	.about = "Bring a database written by an older vmscope to this one's schema version,\n"
		 "in place and in one transaction: the events are kept, the derived tables\n"
		 "(pairings, rollups, episodes) are made again. Other commands refuse an\n"
		 "older database and name this command.\n",
	.more = "Exit status: 0 upgraded or already current; 1 DB unreadable, newer than\n"
		"this vmscope, or the upgrade failed (DB left as it was); 2 usage error.\n"
		"See docs/upgrade.md.\n",
};

int cmd_upgrade(int argc, const char **argv)
{
	const char *path = NULL;
	int rederive = 0, quiet = 0, old = 0, rc;
	const struct cli_option opts[] = {
		OPT_BOOL(0, "rederive", &rederive, "derive the tables again even when DB is current\n"
			 "(after its events or counters were changed by hand)"),
		OPT_BOOL('q', "quiet", &quiet, "no note when done"),
		OPT_ARG("DB", "database", &path),
		OPT_END(),
	};

	if (cli_parse_options(argc, argv, opts, &upgrade_help, &rc))
		return rc;
	rc = vms_db_upgrade(path, rederive ? VMS_UPGRADE_REDERIVE : 0, &old);
	if (rc < 0)
		return error_last();
	if (!quiet && rc == 1)
		note("'%s' is at schema version %d already: nothing to do", path, VMS_SCHEMA_VERSION);
	else if (!quiet && old == VMS_SCHEMA_VERSION)
		note("'%s': derived tables made again", path);
	else if (!quiet)
		note("'%s': upgraded from schema version %d to %d", path, old, VMS_SCHEMA_VERSION);
	return 0;
}
