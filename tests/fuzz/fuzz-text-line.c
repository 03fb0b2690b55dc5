// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-text-line.c - libFuzzer target: one line of a text trace through
 * text_line_parse() and, for an event line, its payload through
 * text_payload_parse() (record/text-line.c, text-payload.c). Every byte the
 * parsers hand back is read, so that a pointer or length out of the line
 * shows under AddressSanitizer.
 */
#include <stdint.h>
#include <stddef.h>

#include "../../record/text.h"

static unsigned sink_sum;

static void touch(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sink_sum += (unsigned char)p[i];
}

static int field(void *ctx, const char *key, size_t keylen, const char *val, size_t vallen)
{
	touch(key, keylen);
	touch(val, vallen);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *why;
	struct text_line tl;

	if (text_line_parse(s, size, &tl, &why) != TL_EVENT)
		return 0;
	touch(tl.comm, tl.comm_len);
	touch(tl.event, tl.event_len);
	touch(tl.payload, tl.payload_len);
	text_payload_parse(tl.event, tl.event_len, tl.payload, tl.payload_len, field, NULL, &why);
	return 0;
}
