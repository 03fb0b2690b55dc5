// SPDX-License-Identifier: GPL-2.0
/*
 * u-text-line.c - text_line_parse(): the anatomy of one text trace line as
 * each kernel and trace-cmd print it. The lines are written from the print
 * formats, not from the parser's output:
 *
 *   tracefs 4.14  "%16s-%-5d " ["(%5d) " | "(-----) "] "[%03d] " 4 flags " %5lu.%06lu: "
 *   tracefs 5.15+ "%16s-%-7d " ["(%7d) " | "(-------) "] "[%03d] " 5 flags ...
 *   non-ns clocks (counter, uptime, x86-tsc): " %12llu: "
 *   trace-cmd report     "%16s-%-5d [%03d]" " %6.1000d:" (or "%12d:" for raw clocks)
 *   trace-cmd report -l  "%8.8s-%-5d %3d" <latency flags> " %6.1000d:"
 *   trace-cmd report -t  nanoseconds: " %9.1d:"
 */
#include <stdint.h>

#include "../../record/text.h"
#include "tap.h"

static enum text_line_kind parse(const char *line, struct text_line *tl, const char **why)
{
	return text_line_parse(line, strlen(line), tl, why);
}

struct want {
	const char *comm;
	int pid, tgid, cpu;
	uint64_t ts;
	int ts_raw, ts_digits;
	const char *event, *payload;
};

static void check_event(const char *what, const char *line, const struct want *w)
{
	struct text_line tl;
	const char *why = "unset";
	enum text_line_kind k = parse(line, &tl, &why);

	if (!is_int(k, TL_EVENT, "%s: is an event", what)) {
		printf("#   line '%s', why '%s'\n", line, why ? why : "(null)");
		return;
	}
	ok(why == NULL, "%s: no reason given for a good line", what);
	is_str(tl.comm, tl.comm_len, w->comm, "%s: comm", what);
	is_int(tl.pid, w->pid, "%s: pid", what);
	is_int(tl.tgid, w->tgid, "%s: tgid", what);
	is_int(tl.cpu, w->cpu, "%s: cpu", what);
	is_int(tl.ts, w->ts, "%s: ts", what);
	is_int(tl.ts_raw, w->ts_raw, "%s: ts_raw", what);
	is_int(tl.ts_digits, w->ts_digits, "%s: ts_digits", what);
	is_str(tl.event, tl.event_len, w->event, "%s: event", what);
	is_str(tl.payload, tl.payload_len, w->payload, "%s: payload", what);
}

static void check_bad(const char *what, const char *line)
{
	struct text_line tl;
	const char *why = NULL;

	is_int(parse(line, &tl, &why), TL_BAD, "%s: TL_BAD", what);
	ok(why && *why, "%s: says why (%s)", what, why ? why : "(null)");
}

static void check_lost(const char *what, const char *line, int cpu, long long lost)
{
	struct text_line tl;
	const char *why;

	is_int(parse(line, &tl, &why), TL_LOST, "%s: TL_LOST", what);
	is_int(tl.cpu, cpu, "%s: cpu", what);
	is_int(tl.lost, lost, "%s: count", what);
}

static void check_kind(const char *what, const char *line, enum text_line_kind kind)
{
	struct text_line tl;
	const char *why;

	is_int(parse(line, &tl, &why), kind, "%s", what);
}

static void tracefs_4_14(void)
{
	struct text_line tl;
	const char *why;

	/* 4.14: pid padded to 5, 4 latency flags, µs */
	check_event("4.14 kswapd_wake",
		    "         kswapd0-52    [001] ....  4123.456789: mm_vmscan_kswapd_wake: nid=0 zid=2 order=0",
		    &(struct want){ "kswapd0", 52, -1, 1, 4123456789000ULL, 0, 6,
				    "mm_vmscan_kswapd_wake", "nid=0 zid=2 order=0" });
	/* 4.14 with options/record-tgid: "(%5d) " */
	check_event("4.14 tgid",
		    "            bash-2210  ( 2210) [003] d..1    88.000001: mm_vmscan_direct_reclaim_begin: order=0 may_writepage=1 gfp_flags=GFP_HIGHUSER_MOVABLE classzone_idx=2",
		    &(struct want){ "bash", 2210, 2210, 3, 88000001000ULL, 0, 6,
				    "mm_vmscan_direct_reclaim_begin",
				    "order=0 may_writepage=1 gfp_flags=GFP_HIGHUSER_MOVABLE classzone_idx=2" });
	/* 4.14: tgid not known prints "(-----)"; comm not saved prints "<...>" */
	check_event("4.14 unknown tgid, <...> comm",
		    "           <...>-4711  (-----) [000] d.s.   120.500000: mm_vmscan_writepage: page=ffffea0001a2eb00 pfn=428972 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC",
		    &(struct want){ "<...>", 4711, -1, 0, 120500000000ULL, 0, 6,
				    "mm_vmscan_writepage",
				    "page=ffffea0001a2eb00 pfn=428972 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC" });
	/* 4.14: comm with '-' and digits; the pid is the last "-<digits>" */
	check_event("4.14 comm systemd-journal",
		    " systemd-journal-391   [002] ...1     7.000100: mm_vmscan_kswapd_sleep: nid=0",
		    &(struct want){ "systemd-journal", 391, -1, 2, 7000100000ULL, 0, 6,
				    "mm_vmscan_kswapd_sleep", "nid=0" });
	/* 4.14, preempt depth 'f' (hex), hardirq 'h', need-resched 'N' */
	check_event("4.14 flags dNhf",
		    "          python-9     [007] dNhf 99999.999999: mm_vmscan_kswapd_sleep: nid=1",
		    &(struct want){ "python", 9, -1, 7, 99999999999000ULL, 0, 6,
				    "mm_vmscan_kswapd_sleep", "nid=1" });

	/* the trace file's header */
	check_kind("4.14 '# tracer: nop'", "# tracer: nop", TL_COMMENT);
	is_int(parse("# entries-in-buffer/entries-written: 45/45   #P:4", &tl, &why), TL_COMMENT,
	       "entries header is a comment");
	is_int(tl.entries_lost, 0, "entries 45/45: none lost");
	is_int(parse("# entries-in-buffer/entries-written: 1000/2453   #P:8", &tl, &why), TL_COMMENT,
	       "entries header with overrun is a comment");
	is_int(tl.entries_lost, 1453, "entries 1000/2453: 1453 lost");
	parse("#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION", &tl, &why);
	is_int(tl.entries_lost, -1, "other comment: entries_lost -1");
	check_kind("4.14 column ruler", "#              | |       |   ||||       |         |", TL_COMMENT);
}

static void tracefs_5_15(void)
{
	/* 5.15: pid padded to 7, 5 latency flags (migrate-disable added) */
	check_event("5.15 kworker comm with '/', ':' and '-'",
		    "kworker/u8:2-flush-8:0-231     [002] ..... 12345.678901: writeback_written: bdi 8:0: sb_dev 0:0 nr_pages=9223372036854775231 sync_mode=0 kupdate=0 range_cyclic=1 background=1 reason=background cgroup_ino=1",
		    &(struct want){ "kworker/u8:2-flush-8:0", 231, -1, 2, 12345678901000ULL, 0, 6,
				    "writeback_written",
				    "bdi 8:0: sb_dev 0:0 nr_pages=9223372036854775231 sync_mode=0 kupdate=0 range_cyclic=1 background=1 reason=background cgroup_ino=1" });
	/* 5.15 with record-tgid: "(%7d) ", comm with a space */
	check_event("5.15 tgid, comm with space",
		    "     Web Content-4242    (   4200) [001] d..2. 98765.432100: mm_vmscan_wakeup_kswapd: nid=0 order=3 gfp_flags=GFP_KERNEL|__GFP_COMP",
		    &(struct want){ "Web Content", 4242, 4200, 1, 98765432100000ULL, 0, 6,
				    "mm_vmscan_wakeup_kswapd",
				    "nid=0 order=3 gfp_flags=GFP_KERNEL|__GFP_COMP" });
	/* 5.15: unknown tgid is "(-------)"; idle task */
	check_event("5.15 unknown tgid, <idle>",
		    "          <idle>-0       (-------) [003] d.h1.     0.000001: mm_vmscan_kswapd_sleep: nid=0",
		    &(struct want){ "<idle>", 0, -1, 3, 1000ULL, 0, 6,
				    "mm_vmscan_kswapd_sleep", "nid=0" });
	/* counter clock: bare " %12llu" */
	check_event("5.15 counter clock",
		    "         kswapd0-52      [001] .....      1234567: mm_vmscan_kswapd_sleep: nid=0",
		    &(struct want){ "kswapd0", 52, -1, 1, 1234567ULL, 1, 0,
				    "mm_vmscan_kswapd_sleep", "nid=0" });
	/* x86-tsc clock with irq-info off: no flags column */
	check_event("5.15 x86-tsc, no flags",
		    "         kswapd0-52      [001]  7251983650417: mm_vmscan_kswapd_wake: nid=0 order=0",
		    &(struct want){ "kswapd0", 52, -1, 1, 7251983650417ULL, 1, 0,
				    "mm_vmscan_kswapd_wake", "nid=0 order=0" });
}

static void tracefs_6_18(void)
{
	/* 6.18: still 5 flags, first can be 'b'/'D' (BH off), need-resched 'L' (lazy) */
	check_event("6.18 flags bL.1.",
		    "      kcompactd0-71      [000] bL.1.   512.000010: mm_compaction_kcompactd_wake: nid=0 order=9 classzone_idx=Normal  ",
		    &(struct want){ "kcompactd0", 71, -1, 0, 512000010000ULL, 0, 6,
				    "mm_compaction_kcompactd_wake", "nid=0 order=9 classzone_idx=Normal" });
	check_event("6.18 flags DB..1, 3-digit cpu",
		    "           stress-100001  [127] DB..1 100000.000000: mm_vmscan_throttled: nid=1 usec_timeout=100000 usect_delayed=2000 reason=VMSCAN_THROTTLE_WRITEBACK",
		    &(struct want){ "stress", 100001, -1, 127, 100000000000000ULL, 0, 6,
				    "mm_vmscan_throttled",
				    "nid=1 usec_timeout=100000 usect_delayed=2000 reason=VMSCAN_THROTTLE_WRITEBACK" });
	/* shrink_slab payload starts with a symbol and a colon-terminated address */
	check_event("6.18 shrink_slab_start",
		    "         kswapd0-90      [002] ..... 51234.100200: mm_shrink_slab_start: super_cache_scan+0x0/0x1a0 000000009c4e2a71: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 4719 delta 36 total_scan 36 priority 12",
		    &(struct want){ "kswapd0", 90, -1, 2, 51234100200000ULL, 0, 6, "mm_shrink_slab_start",
				    "super_cache_scan+0x0/0x1a0 000000009c4e2a71: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 4719 delta 36 total_scan 36 priority 12" });
	/* the tgid column with a comm that itself has parentheses */
	check_event("6.18 comm (sd-pam) with tgid",
		    "        (sd-pam)-1502    (   1502) [000] ..... 60000.000001: mm_vmscan_kswapd_sleep: nid=0",
		    &(struct want){ "(sd-pam)", 1502, 1502, 0, 60000000001000ULL, 0, 6,
				    "mm_vmscan_kswapd_sleep", "nid=0" });
	/* CRLF line endings (pasted from elsewhere) */
	check_event("6.18 CRLF",
		    "         kswapd0-90      [002] ..... 51234.100300: mm_vmscan_kswapd_sleep: nid=0\r",
		    &(struct want){ "kswapd0", 90, -1, 2, 51234100300000ULL, 0, 6,
				    "mm_vmscan_kswapd_sleep", "nid=0" });
	/* 6.18 writeback_pages_written: the payload is a bare number */
	check_event("6.18 writeback_pages_written",
		    "   kworker/u16:5-1234    [005] ..... 51234.100400: writeback_pages_written: 1024",
		    &(struct want){ "kworker/u16:5", 1234, -1, 5, 51234100400000ULL, 0, 6,
				    "writeback_pages_written", "1024" });
}

static void trace_cmd_report(void)
{
	struct text_line tl;
	const char *why;

	/* trace-cmd record -B NAME: report prefixes each line with the buffer name */
	check_event("report of an instance buffer",
		    "vms-sample:               dd-6777  [000]   803.893555: mm_vmscan_throttled:  nid=0 usec_timeout=100000 usect_delayed=4000 reason=VMSCAN_THROTTLE_WRITEBACK",
		    &(struct want){ "dd", 6777, -1, 0, 803893555000ULL, 0, 6, "mm_vmscan_throttled",
				    "nid=0 usec_timeout=100000 usect_delayed=4000 reason=VMSCAN_THROTTLE_WRITEBACK" });

	/* default report: "%16s-%-5d [%03d]" " %6.1000d:" " %s: " name padded to 20 */
	check_event("report default",
		    "             cat-3113  [001]    78.906798: writeback_start:      bdi 8:0: sb_dev 8:0 nr_pages=1024 sync_mode=0 kupdate=0 range_cyclic=0 background=0 reason=vmscan cgroup_ino=1",
		    &(struct want){ "cat", 3113, -1, 1, 78906798000ULL, 0, 6, "writeback_start",
				    "bdi 8:0: sb_dev 8:0 nr_pages=1024 sync_mode=0 kupdate=0 range_cyclic=0 background=0 reason=vmscan cgroup_ino=1" });
	/* -t: nanoseconds, 9 digits kept exactly */
	check_event("report -t ns",
		    "             cat-3113  [001]    78.906798123: mm_vmscan_kswapd_sleep: nid=0",
		    &(struct want){ "cat", 3113, -1, 1, 78906798123ULL, 0, 9,
				    "mm_vmscan_kswapd_sleep", "nid=0" });
	/* raw clock: "%12d:" has no leading space, a 13-digit TSC touches the ']' */
	check_event("report x86-tsc glued to ']'",
		    "         kswapd0-52    [001]4012345678901: mm_vmscan_kswapd_wake: nid=0 order=0",
		    &(struct want){ "kswapd0", 52, -1, 1, 4012345678901ULL, 1, 0,
				    "mm_vmscan_kswapd_wake", "nid=0 order=0" });
	/* -l: "%8.8s-%-5d %3d" + flags, no brackets */
	check_event("report -l",
		    "     cat-3113    1.....    78.906798: mm_vmscan_direct_reclaim_end: nr_reclaimed=32",
		    &(struct want){ "cat", 3113, -1, 1, 78906798000ULL, 0, 6,
				    "mm_vmscan_direct_reclaim_end", "nr_reclaimed=32" });
	/* -l truncates the comm to 8 characters */
	check_event("report -l truncated comm",
		    "kworker/-231     0d..2. 12345.678901: writeback_pages_written: 1024",
		    &(struct want){ "kworker/", 231, -1, 0, 12345678901000ULL, 0, 6,
				    "writeback_pages_written", "1024" });
	/* -l with "<name>-<n> [<n>]" in the payload: not a CPU column */
	check_event("report -l, brackets in payload",
		    "    bash-2000    2d..1.  1001.000001: tracing_mark_write: job-7 [3] begin",
		    &(struct want){ "bash", 2000, -1, 2, 1001000001000ULL, 0, 6,
				    "tracing_mark_write", "job-7 [3] begin" });

	/* headers */
	is_int(parse("cpus=8", &tl, &why), TL_HEADER, "cpus=8 is a header");
	is_int(tl.header_cpus, 8, "cpus=8: header_cpus");
	is_int(parse("CPU 5 is empty", &tl, &why), TL_HEADER, "'CPU 5 is empty' is a header");
	is_int(tl.header_cpus, -1, "'CPU 5 is empty': header_cpus -1");
	check_kind("'version = 6' is a header", "version = 6", TL_HEADER);
	/* a task named "version..." in -l output (no brackets, has '=') is an event */
	check_event("report -l, comm starting with 'version'",
		    "versiond-77      0.....     5.000001: mm_vmscan_kswapd_sleep: nid=0",
		    &(struct want){ "versiond", 77, -1, 0, 5000001000ULL, 0, 6,
				    "mm_vmscan_kswapd_sleep", "nid=0" });
}

static void lost_and_blank(void)
{
	/* tracefs: "CPU:%d [LOST %lu EVENTS]" */
	check_lost("tracefs LOST", "CPU:2 [LOST 1234 EVENTS]", 2, 1234);
	/* trace-cmd: "CPU:%d [%lld EVENTS DROPPED]" and "CPU:%d [EVENTS DROPPED]" */
	check_lost("trace-cmd DROPPED n", "CPU:0 [12 EVENTS DROPPED]", 0, 12);
	check_lost("trace-cmd DROPPED unknown", "CPU:13 [EVENTS DROPPED]", 13, -1);

	check_kind("empty line", "", TL_BLANK);
	check_kind("blank line", "   \t  ", TL_BLANK);
	check_kind("CR only", "\r", TL_BLANK);
}

static void bad_lines(void)
{
	check_bad("garbage", "hello world");
	check_bad("shell error", "trace-cmd: No such file or directory");
	check_bad("function tracer line (no 'event:')",
		  "            bash-2210  [003] ....  88.000001: do_sys_open <-SyS_open");
	check_bad("cut in the timestamp", "         kswapd0-52    [001] ....  4123.45");
	check_bad("cut before the timestamp's ':'",
		  "         kswapd0-52    [001] ....  4123.456789");
	check_bad("cut in the event name",
		  "         kswapd0-52    [001] ....  4123.456789: mm_vmscan_kswa");
	check_bad("cut in the CPU column", "         kswapd0-52    [00");
	check_bad("cut in the pid", "         kswapd0-5");
	check_bad("10-digit fraction", "         kswapd0-52    [001] ....  4123.4567891234: mm_vmscan_kswapd_sleep: nid=0");
	check_bad("no pid before the CPU column", "         kswapd0 [001] ....  4123.456789: mm_vmscan_kswapd_sleep: nid=0");
	check_bad("-l cut after the flags", "     cat-3113    1.....");
}

int main(void)
{
	tracefs_4_14();
	tracefs_5_15();
	tracefs_6_18();
	trace_cmd_report();
	lost_and_blank();
	bad_lines();
	return done_testing();
}
