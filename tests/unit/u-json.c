// SPDX-License-Identifier: GPL-2.0
/*
 * u-json.c - JSON escaping of untrusted trace text (comm, bdi names) and the
 * growable buffer it builds on.
 */
#include "vms.h"
#include "tap.h"

static void check(const char *in, size_t len, const char *want, const char *what)
{
	struct vms_buf b = { 0 };

	vms_json_append_string(&b, in, len);
	is_str(b.buf, b.len, want, "%s", what);
	vms_buf_release(&b);
}

int main(void)
{
	struct vms_buf b = { 0 };

	check("cat", 3, "\"cat\"", "plain text is quoted");
	check("a\"b\\c", 5, "\"a\\\"b\\\\c\"", "quotes and backslashes are escaped");
	check("x\ny\tz", 5, "\"x\\u000ay\\u0009z\"", "control characters are \\u escaped");
	check("\xff\x80", 2, "\"\\u00ff\\u0080\"", "bytes >= 0x80 are escaped, output stays valid JSON");
	check("a\0b", 3, "\"a\\u0000b\"", "NUL inside a field is kept, escaped");
	check("", 0, "\"\"", "empty string");

	vms_buf_addf(&b, "%d-%s", 42, "x");
	vms_buf_add(&b, "yz", 2);
	is_str(b.buf, b.len, "42-xyz", "buffer appends formatted and raw text");
	vms_buf_reset(&b);
	for (int i = 0; i < 1000; i++)
		vms_buf_add(&b, "0123456789", 10);
	is_int(b.len, 10000, "buffer grows past its first allocation");
	vms_buf_release(&b);
	return done_testing();
}
