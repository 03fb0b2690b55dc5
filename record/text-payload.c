// SPDX-License-Identifier: GPL-2.0
/*
 * text-payload.c - read the fields of a printed event payload by name.
 *
 * How it works: most reclaim events print `key=value` pairs. The others
 * print phrases followed by a value ("objects to shrink 12", "sb_dev 8:0"):
 * label words are joined with '_' into a key ("objects_to_shrink") and the
 * schema's alias table maps that key to the field. A few events begin with a
 * fixed prefix: shrink_slab prints the shrinker's function (" [module]"
 * appended for module code) and address, writeback events print
 * "bdi NAME: ". Other values never contain spaces in these events, so
 * tokens are split on white space.
 */
#include <string.h>

#include "text.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int is_value_start(const char *t, size_t n)
{
	if (!n)
		return 0;
	if (t[0] >= '0' && t[0] <= '9')
		return 1;
	return n > 1 && t[0] == '-' && t[1] >= '0' && t[1] <= '9';
}

static int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

/* Only white space left in p[pos..len)? */
static int at_end(const char *p, size_t len, size_t pos)
{
	while (pos < len && is_space(p[pos]))
		pos++;
	return pos >= len;
}

/* Next white-space separated token of p[*pos..len). Return: its length, 0 at end. */
static size_t next_token(const char *p, size_t len, size_t *pos, const char **tok)
{
	size_t i = *pos, start;

	while (i < len && is_space(p[i]))
		i++;
	start = i;
	while (i < len && !is_space(p[i]))
		i++;
	*tok = p + start;
	*pos = i;
	return i - start;
}

int text_payload_parse(const char *event, size_t event_len, const char *p, size_t len,
		       payload_field_fn fn, void *ctx, const char **why)
{
	char label[128];
	size_t label_len = 0, pos = 0, n;
	const char *tok;
	int rc, free_text = 0;

	*why = NULL;
	if (starts_with(event, event_len, "mm_filemap_"))
		return text_filemap_parse(p, len, fn, ctx, why);
	if (starts_with(event, event_len, "mm_shrink_slab_")) {
		/* "%pS %p: nid: ..."; %pS of a module symbol ends in " [mod]" */
		const char *sym;
		size_t symlen, save;

		n = next_token(p, len, &pos, &tok);
		if (!n)
			goto truncated;
		sym = tok;
		symlen = n;
		save = pos;
		n = next_token(p, len, &pos, &tok);
		if (n && tok[0] == '[') {
			/* " [mod]", or " [mod buildid]" on CONFIG_STACKTRACE_BUILD_ID kernels */
			while (n && tok[n - 1] != ']')
				n = next_token(p, len, &pos, &tok);
			if (!n)
				goto truncated;
			symlen = tok + n - sym;
		} else {
			pos = save;
		}
		if ((rc = fn(ctx, "shrink", 6, sym, symlen)))
			return rc;
		n = next_token(p, len, &pos, &tok);
		if (n < 2 || tok[n - 1] != ':')
			goto truncated;
		if ((rc = fn(ctx, "shr", 3, tok, n - 1)))
			return rc;
		if (at_end(p, len, pos))
			goto prefix_only;
	} else if (starts_with(p, len, "bdi ")) {
		/* writeback: "bdi %s: ..." - the name may itself contain ':' ("8:0") */
		size_t i = 4, start = 4;

		while (i < len && !(p[i] == ':' && (i + 1 == len || is_space(p[i + 1]))))
			i++;
		if (i >= len)
			goto truncated;
		if ((rc = fn(ctx, "bdi", 3, p + start, i - start)))
			return rc;
		pos = i + 1;
		if (at_end(p, len, pos))
			goto prefix_only;	/* every "bdi %s: " event prints fields after it */
	}
	if (event_len == 23 && !memcmp(event, "writeback_pages_written", 23)) {
		n = next_token(p, len, &pos, &tok);
		if (!is_value_start(tok, n))
			goto truncated;
		return fn(ctx, "pages", 5, tok, n);
	}

	while ((n = next_token(p, len, &pos, &tok))) {
		const char *eq = memchr(tok, '=', n);

		/* a value ends a phrase; gfp_flags takes any value ("none", "GFP_KERNEL") */
		if (label_len && (is_value_start(tok, n) ||
				  (label_len == 9 && !memcmp(label, "gfp_flags", 9)))) {
			if ((rc = fn(ctx, label, label_len, tok, n)))
				return rc;
			label_len = 0;
			continue;
		}
		if (eq && eq != tok) {
			/* words before it with no value ("vmstat seq=3") are free text */
			if (label_len) {
				free_text = 1;
				label_len = 0;
			}
			if (eq + 1 == tok + n && at_end(p, len, pos)) {
				*why = "the last field has no value (line cut short?)";
				return 1;
			}
			if ((rc = fn(ctx, tok, eq - tok, eq + 1, n - (eq + 1 - tok))))
				return rc;
			continue;
		}
		if (eq || is_value_start(tok, n)) {
			free_text = 1;	/* a value with no label */
			label_len = 0;
			continue;
		}
		/* a label word; a trailing ':' ("nid:") ends it */
		if (n && tok[n - 1] == ':')
			n--;
		if (label_len + n + 1 >= sizeof(label)) {
			free_text = 1;
			label_len = 0;
			continue;
		}
		if (label_len)
			label[label_len++] = '_';
		memcpy(label + label_len, tok, n);
		label_len += n;
	}
	if (label_len) {
		*why = "text at the end of the payload has no value (line cut short?)";
		return 1;
	}
	if (free_text) {
		*why = "payload has text that is not fields";
		return 1;
	}
	return 0;
truncated:
	*why = "payload ends before its fixed prefix is complete (line cut short?)";
	return 1;
prefix_only:
	*why = "payload has no fields after its fixed prefix (line cut short?)";
	return 1;
}
