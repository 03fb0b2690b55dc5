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

static const char upgrade_usage[] =
	"usage: vmscope upgrade [--rederive] [-q] DB\n"
	"\n"
	"Bring a database written by an older vmscope to this one's schema version,\n"
	"in place and in one transaction: the events are kept, the derived tables\n"
	"(pairings, rollups, episodes) are made again. Other commands refuse an\n"
	"older database and name this command.\n"
	"\n"
	"  --rederive   derive the tables again even when DB is current (after its\n"
	"               events or counters were changed by hand)\n"
	"  -q, --quiet  no note when done\n"
	"  -h, --help   this help\n"
	"\n"
	"Exit status: 0 upgraded or already current; 1 DB unreadable, newer than\n"
	"this vmscope, or the upgrade failed (DB left as it was); 2 usage error.\n"
	"See docs/upgrade.md.\n";

int cmd_upgrade(int argc, const char **argv)
{
	const char *path = NULL;
	int flags = 0, quiet = 0, old = 0, rc, i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (is_help(a))
			return show_help(upgrade_usage);
		if (!strcmp(a, "--rederive"))
			flags |= VMS_UPGRADE_REDERIVE;
		else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
			quiet = 1;
		else if (a[0] == '-')
			return usage_error(upgrade_usage, "unknown option '%s'", a);
		else if (path)
			return usage_error(upgrade_usage, "one database at a time, not '%s' too", a);
		else
			path = a;
	}
	if (!path)
		return usage_error(upgrade_usage, "no database given");
	rc = vms_db_upgrade(path, flags, &old);
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
