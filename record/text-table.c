// SPDX-License-Identifier: GPL-2.0
/*
 * text-table.c - the table of an event line of a text trace. The schema's
 * table when it has one; for an event it does not know, a table made from
 * the fields of its first line whose payload is all fields (the names the
 * line gives; INTEGER where the value is a plain number, else TEXT; source
 * "text fields", see lib/sink-generate.c); event_generic for the lines of
 * such an event before that one. A text line names its fields but not their
 * types, so such a table is lenient: a later value that is not a number
 * stays text in its column, and a later payload with free text keeps the
 * fields it has and the payload in `extra`.
 */
#include <string.h>

#include "vms.h"
#include "text.h"

#define MAX_FIELDS 64
#define MAX_NAME 64

struct field_names {
	struct vms_field_desc f[MAX_FIELDS];
	char name[MAX_FIELDS][MAX_NAME + 1];
	int n, unusable;
};

static int collect(void *p, const char *key, size_t keylen, const char *val, size_t vallen)
{
	struct field_names *c = p;

	if (c->n >= MAX_FIELDS || !keylen || keylen > MAX_NAME || memchr(key, '\0', keylen)) {
		c->unusable = 1;
		return 0;
	}
	memcpy(c->name[c->n], key, keylen);
	c->name[c->n][keylen] = '\0';
	c->f[c->n].name = c->name[c->n];
	c->f[c->n].is_text = !vms_sink_text_is_number(val, vallen);
	c->n++;
	return 0;
}

struct vms_table *text_event_table(struct vms_sink *sink, const char *event, const char *payload,
				   size_t len)
{
	struct vms_table *t = vms_sink_table(sink, event);
	struct field_names c;
	const char *why;

	if (!vms_table_is_generic(t))
		return t;
	c.n = c.unusable = 0;
	if (text_payload_parse(event, strlen(event), payload, len, collect, &c, &why) ||
	    c.unusable || !c.n)
		return t;
	return vms_sink_table_for_format(sink, "", event, c.f, c.n, "text fields");
}
