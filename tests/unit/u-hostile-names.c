// SPDX-License-Identifier: GPL-2.0
/*
 * u-hostile-names.c - names and text from a hostile trace: a field name
 * holding a NUL never matches a known name and never makes the lookup read
 * past that name (sink_name_is(), run under ASan by `make SANITIZE=...`),
 * and control characters, C1 ones in UTF-8 included, become '?' for text
 * and CSV output (vms_control_len(), vms_make_printable()).
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/sink-local.h"
#include "tap.h"

static void printable(const char *in, const char *want, const char *what)
{
	char *s = strdup(in);

	vms_make_printable(s);
	is_str(s, strlen(s), want, "%s", what);
	free(s);
}

int main(void)
{
	/* the known name on the heap with nothing after it: ASan sees any over-read */
	char *nid = strdup("nid");
	static const char key[] = "nid\0xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";

	ok(sink_name_is(nid, "nid", 3), "the same name matches");
	ok(!sink_name_is(nid, "ni", 2), "a prefix does not match");
	ok(!sink_name_is(nid, "nids", 4), "a longer name does not match");
	ok(!sink_name_is(nid, key, sizeof(key) - 1), "a name with a NUL after 'nid' does not match");
	ok(!sink_name_is(nid, key, 4), "nor 'nid' plus the NUL alone");
	free(nid);

	is_int((long long)vms_control_len("\033[2J"), 1, "ESC is a control character");
	is_int((long long)vms_control_len("\x7f"), 1, "so is DEL");
	is_int((long long)vms_control_len("\xc2\x9b" "2J"), 2, "the UTF-8 CSI is two bytes of it");
	is_int((long long)vms_control_len("\xc2\xa0"), 0, "a UTF-8 no-break space is not");
	is_int((long long)vms_control_len("\xc3\xa9"), 0, "nor an e acute");
	is_int((long long)vms_control_len(""), 0, "the end of the string is not");
	printable("ev\033[2Jil", "ev?[2Jil", "ESC becomes ?");
	printable("a\r\nb\tc", "a??b?c", "CR, LF and tab become ?");
	printable("c1\xc2\x9b" "2Jx", "c1??2Jx", "both bytes of a C1 control become ?");
	printable("caf\xc3\xa9 \xc2", "caf\xc3\xa9 \xc2", "other UTF-8 and a lone 0xc2 at the end stay");
	return done_testing();
}
