// SPDX-License-Identifier: GPL-2.0
/*
 * text-filemap.c - the printed payload of the filemap events, which print
 * neither all key=value pairs nor decimal numbers:
 *   mm_filemap_add_to_page_cache / _delete_from_page_cache:
 *     "dev 254:0 ino a7a100 pfn=0x362b14 ofs=0 order=2"  (4.x: also page=%p)
 *   mm_filemap_fault: "dev=254:0 ino=3c6b4 ofs=200704"
 *   mm_filemap_map_pages, mm_filemap_get_pages: "dev=254:0 ino=5160a ofs=417792-446463"
 * into the fields of the binary format: s_dev (the kernel's dev_t, major <<
 * 20 | minor), i_ino (printed in hex without 0x), index and last_index
 * (printed as byte offsets: index << PAGE_SHIFT, the range's end as the
 * last byte), pfn, order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define PAGE_SHIFT 12		/* what the print format shifts by on x86_64 */

static int parse_ull(const char *s, size_t n, int base, unsigned long long *out)
{
	char buf[32], *end;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] == '-' || buf[0] == '+')
		return -1;
	*out = strtoull(buf, &end, base);
	return *end ? -1 : 0;
}

static int emit(payload_field_fn fn, void *ctx, const char *key, unsigned long long v)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%llu", v);

	return fn(ctx, key, strlen(key), num, (size_t)n);
}

/* One field of the payload. Return: 0, a callback's non-zero value, or 1 with *why set. */
static int field(const char *key, size_t klen, const char *val, size_t vlen, payload_field_fn fn,
		 void *ctx, const char **why)
{
	unsigned long long a, b;
	const char *sep;

	if (klen == 3 && !memcmp(key, "dev", 3)) {
		sep = memchr(val, ':', vlen);
		if (!sep || parse_ull(val, sep - val, 10, &a) ||
		    parse_ull(sep + 1, vlen - (sep + 1 - val), 10, &b) || a >= (1ULL << 12) ||
		    b >= (1ULL << 20)) {
			*why = "filemap: dev is not MAJOR:MINOR";
			return 1;
		}
		return emit(fn, ctx, "s_dev", a << 20 | b);
	}
	if (klen == 3 && !memcmp(key, "ino", 3)) {
		if (parse_ull(val, vlen, 16, &a)) {
			*why = "filemap: ino is not a hex number";
			return 1;
		}
		return emit(fn, ctx, "i_ino", a);
	}
	if (klen == 3 && !memcmp(key, "ofs", 3)) {
		int rc;

		sep = memchr(val, '-', vlen);
		if (parse_ull(val, sep ? (size_t)(sep - val) : vlen, 10, &a) ||
		    (sep && parse_ull(sep + 1, vlen - (sep + 1 - val), 10, &b))) {
			*why = "filemap: ofs is not a byte offset or range";
			return 1;
		}
		rc = emit(fn, ctx, "index", a >> PAGE_SHIFT);
		if (!rc && sep)
			rc = emit(fn, ctx, "last_index", (b + 1) >> PAGE_SHIFT ? ((b + 1) >> PAGE_SHIFT) - 1 : 0);
		return rc;
	}
	return fn(ctx, key, klen, val, vlen);
}

int text_filemap_parse(const char *p, size_t len, payload_field_fn fn, void *ctx, const char **why)
{
	size_t pos = 0;
	int rc;

	*why = NULL;
	while (pos < len) {
		const char *tok, *eq, *val;
		size_t n, vlen;

		while (pos < len && (p[pos] == ' ' || p[pos] == '\t'))
			pos++;
		if (pos >= len)
			break;
		tok = p + pos;
		while (pos < len && p[pos] != ' ' && p[pos] != '\t')
			pos++;
		n = (size_t)(p + pos - tok);
		eq = memchr(tok, '=', n);
		if (eq) {
			val = eq + 1;
			vlen = n - (size_t)(val - tok);
			n = (size_t)(eq - tok);
		} else {
			/* "dev 254:0", "ino a7a100": the value is the next token */
			while (pos < len && (p[pos] == ' ' || p[pos] == '\t'))
				pos++;
			val = p + pos;
			while (pos < len && p[pos] != ' ' && p[pos] != '\t')
				pos++;
			vlen = (size_t)(p + pos - val);
		}
		if (!n || !vlen) {
			*why = "filemap: a field has no value (line cut short?)";
			return 1;
		}
		if ((rc = field(tok, n, val, vlen, fn, ctx, why)))
			return rc;
	}
	return 0;
}
