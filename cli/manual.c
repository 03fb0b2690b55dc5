// SPDX-License-Identifier: GPL-2.0
/*
 * manual.c - `vmscope help COMMAND`: show the manual page vmscope-COMMAND
 * with man(1), as `git help` does. In a build tree (the binary sits beside a
 * man/ directory made by `make man`) that directory is searched first, so
 * the pages can be read before `make install`.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli.h"

/* Put the build tree's man/ (beside the running binary) first on MANPATH. */
static void prefer_build_tree_pages(void)
{
	char exe[PATH_MAX], manpath[PATH_MAX + 2048];
	const char *old = getenv("MANPATH");
	struct stat st;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 8);
	char *slash;

	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	strcpy(slash + 1, "man");
	if (stat(exe, &st) || !S_ISDIR(st.st_mode))
		return;
	/* A trailing ':' keeps the system's own search path after ours. */
	if (snprintf(manpath, sizeof(manpath), "%s:%s", exe, old ? old : "") >= (int)sizeof(manpath))
		return;
	setenv("MANPATH", manpath, 1);
}

int cli_show_manual(const char *page)
{
	pid_t pid;
	int status;

	fflush(stdout);
	prefer_build_tree_pages();
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int devnull = open("/dev/null", 0);

		/* man's own "No manual entry" is replaced by our fallback. */
		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		execlp("man", "man", page, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
