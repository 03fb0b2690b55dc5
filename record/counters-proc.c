// SPDX-License-Identifier: GPL-2.0
/*
 * counters-proc.c - the parsers of the /proc and /sys counter files, on text
 * already read: /proc/vmstat, a memcg's memory.stat and per-node vmstat
 * ("name value" lines), /proc/meminfo ("Name:  value kB") and
 * /proc/zoneinfo (a sample per zone and per node). They hand each sample and
 * value to callbacks, so the live sampler (counters.c) and the readers of
 * counter logs (counters-mmtests.c) store the same names the same way.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters-set.h"

int proc_parse_name_value(char *text, const char *source, const char *scope,
			  const struct proc_parse_cb *cb)
{
	char *line, *next;

	long long sample = cb->begin(cb->arg, source, scope);

	if (sample < 0)
		return -1;
	for (line = text; line && *line; line = next) {
		char *end, *name;
		size_t nlen;
		long long v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		name = line;
		while (*line && !isspace((unsigned char)*line))
			line++;
		nlen = line - name;
		if (nlen && name[nlen - 1] == ':')
			nlen--;
		v = strtoll(line, &end, 10);
		if (!nlen || end == line)
			continue;
		if (cb->value(cb->arg, sample, name, nlen, v))
			return -1;
	}
	return 0;
}

/*
 * "Node N, zone NAME" opens a zone; "per-node stats" lines belong to the
 * node; watermarks (free is "pages free"), per-zone stats,
 * node_unreclaimable and start_pfn to the zone; the per-CPU pagesets are
 * skipped; "protection: (a, b, ...)" becomes protection_0, protection_1, ...
 */
int proc_parse_zoneinfo(char *text, const struct proc_parse_cb *cb)
{
	enum { ZONE, NODE, SKIP } mode = ZONE;
	long long zone_sample = -1, node_sample = -1, target;
	char zone_scope[96] = "", node_scope[96] = "";
	char *line, *next;

	for (line = text; line && *line; line = next) {
		char *p = line, *name, *end;
		long long v;
		int node;
		char zname[64];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		while (*p == ' ')
			p++;
		if (sscanf(line, "Node %d, zone %63s", &node, zname) == 2) {
			snprintf(zone_scope, sizeof(zone_scope), "node%d/%s", node, zname);
			zone_sample = cb->begin(cb->arg, "zoneinfo", zone_scope);
			if (zone_sample < 0)
				return -1;
			mode = ZONE;
			continue;
		}
		if (!strcmp(p, "per-node stats") && zone_sample >= 0) {
			snprintf(node_scope, sizeof(node_scope), "node%s", zone_scope + 4);
			*strchr(node_scope, '/') = '\0';
			node_sample = cb->begin(cb->arg, "zoneinfo", node_scope);
			if (node_sample < 0)
				return -1;
			mode = NODE;
			continue;
		}
		if (!strcmp(p, "pagesets")) {
			mode = SKIP;
			continue;
		}
		if (!strncmp(p, "pages free", 10)) {
			mode = ZONE;
			p += 6;	/* "free N" */
		}
		if (!strncmp(p, "node_unreclaimable:", 19) || !strncmp(p, "start_pfn:", 10))
			mode = ZONE;
		if (mode == SKIP || zone_sample < 0)
			continue;
		target = mode == NODE ? node_sample : zone_sample;
		if (!strncmp(p, "protection:", 11)) {
			char *q = strchr(p, '(');
			int i = 0;
			char pname[32];

			while (q && *q && *q != ')') {
				v = strtoll(q + 1, &end, 10);
				if (end == q + 1)
					break;
				snprintf(pname, sizeof(pname), "protection_%d", i++);
				if (cb->value(cb->arg, target, pname, strlen(pname), v))
					return -1;
				q = end;
			}
			continue;
		}
		name = p;
		while (*p && *p != ' ' && *p != ':')
			p++;
		if (p == name)
			continue;
		v = strtoll(*p == ':' ? p + 1 : p, &end, 10);
		if (end == p || end == p + 1)
			continue;
		if (cb->value(cb->arg, target, name, p - name, v))
			return -1;
	}
	return 0;
}
