// SPDX-License-Identifier: GPL-2.0
/*
 * kinds.c - the one list of plot kinds, in the order `vmscope plot --list`
 * prints them. A kind is added by one PLOT_KIND() line here and its file
 * plots/kind-NAME.c, which exports `const struct plot_kind plot_kind_NAME`
 * (see plot-local.h for the rest: its script, docs and test).
 */
#include <string.h>

#include "vms.h"
#include "plot-local.h"

#define PLOT_KINDS(PLOT_KIND)	\
	PLOT_KIND(ratio)	\
	PLOT_KIND(refaults)	\
	PLOT_KIND(kswapd)	\
	PLOT_KIND(scan)		\
	PLOT_KIND(stalls)	\
	PLOT_KIND(lru)		\
	PLOT_KIND(shrinkers)	\
	PLOT_KIND(replay)	\
	PLOT_KIND(whatif)

#define DECLARE_KIND(name) extern const struct plot_kind plot_kind_##name;
#define LIST_KIND(name) &plot_kind_##name,

PLOT_KINDS(DECLARE_KIND)

const struct plot_kind *const plot_kinds[] = { PLOT_KINDS(LIST_KIND) };
const int plot_nkinds = sizeof(plot_kinds) / sizeof(plot_kinds[0]);

const struct plot_kind *plot_kind_find(const char *name)
{
	int i;

	for (i = 0; i < plot_nkinds; i++)
		if (!strcmp(plot_kinds[i]->name, name))
			return plot_kinds[i];
	return NULL;
}
