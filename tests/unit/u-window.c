// SPDX-License-Identifier: GPL-2.0
/*
 * u-window.c - the report window helpers of lib/window.c that are plain
 * arithmetic: vms_percentile() is the nearest-rank percentile (the value at
 * rank ceil(p * n / 100), 1-based, of the sorted values), worked out here
 * for sizes where rounding the rank the wrong way shows.
 */
#include "vms.h"
#include "vms-window.h"
#include "tap.h"

int main(void)
{
	static const long long v[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };

	/* n = 7: p90 rank ceil(6.3) = 7, p50 ceil(3.5) = 4, p10 ceil(0.7) = 1, p99 ceil(6.93) = 7 */
	is_int(vms_percentile(v, 7, 90), 70, "n 7, p90: rank 7");
	is_int(vms_percentile(v, 7, 50), 40, "n 7, p50: rank 4");
	is_int(vms_percentile(v, 7, 10), 10, "n 7, p10: rank 1");
	is_int(vms_percentile(v, 7, 99), 70, "n 7, p99: rank 7");
	/* n = 10: p50 rank 5 exactly, p90 rank 9, p91 ceil(9.1) = 10 */
	is_int(vms_percentile(v, 10, 50), 50, "n 10, p50: rank 5");
	is_int(vms_percentile(v, 10, 90), 90, "n 10, p90: rank 9");
	is_int(vms_percentile(v, 10, 91), 100, "n 10, p91: rank 10");
	/* n = 3: p34 ceil(1.02) = 2; p0 is the first value; n = 1: every p is it */
	is_int(vms_percentile(v, 3, 34), 20, "n 3, p34: rank 2");
	is_int(vms_percentile(v, 3, 0), 10, "n 3, p0: rank 1");
	is_int(vms_percentile(v, 1, 99), 10, "n 1, p99: the only value");
	/* p100 is the largest */
	is_int(vms_percentile(v, 9, 100), 90, "n 9, p100: rank 9");
	return done_testing();
}
