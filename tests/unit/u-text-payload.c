// SPDX-License-Identifier: GPL-2.0
/*
 * u-text-payload.c - text_payload_parse(): the (key, value) pairs found in
 * each event's printed payload, for the print formats of the kernels in
 * scope (4.14 ... 6.18). Payloads are written from the kernels' print fmt
 * strings (see docs and the kernel memo, §1.1 and Appendix A); the expected
 * pairs are what those formats mean, joined as "key=value; key=value".
 */
#include <stdlib.h>

#include "../../record/text.h"
#include "tap.h"

struct collect {
	char buf[4096];
	size_t len;
	int calls;
	int stop_at;		/* return 7 from this call (1-based), 0: never */
};

static int collect(void *p, const char *key, size_t keylen, const char *val, size_t vallen)
{
	struct collect *c = p;
	int n;

	n = snprintf(c->buf + c->len, sizeof(c->buf) - c->len, "%s%.*s=%.*s",
		     c->len ? "; " : "", (int)keylen, key, (int)vallen, val);
	if (n > 0 && (size_t)n < sizeof(c->buf) - c->len)
		c->len += n;
	c->calls++;
	return c->calls == c->stop_at ? 7 : 0;
}

/* Parse and compare; @rc: expected return, @want: expected pairs. */
static void check(const char *what, const char *event, const char *payload, int rc,
		  const char *want)
{
	struct collect c = { .len = 0 };
	const char *why = "unset";
	int got = text_payload_parse(event, strlen(event), payload, strlen(payload), collect, &c,
				     &why);

	is_int(got, rc, "%s: returns %d", what, rc);
	if (rc == 0)
		ok(why == NULL, "%s: no reason", what);
	else
		ok(why && *why, "%s: says why (%s)", what, why ? why : "(null)");
	is_str(c.buf, c.len, want, "%s: fields", what);
}

static void shrink_slab(void)
{
	/* 6.18 (4.16+): "%pS %p: nid: %d objects to shrink %ld gfp_flags %s cache items %ld
	 * delta %lld total_scan %ld priority %d" */
	check("6.18 shrink_slab_start", "mm_shrink_slab_start",
	      "super_cache_scan+0x0/0x1a0 000000009c4e2a71: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 4719 delta 36 total_scan 36 priority 12",
	      0, "shrink=super_cache_scan+0x0/0x1a0; shr=000000009c4e2a71; nid=0; objects_to_shrink=0; "
	      "gfp_flags=GFP_KERNEL; cache_items=4719; delta=36; total_scan=36; priority=12");
	/* 6.18: "%pS %p: nid: %d unused scan count %ld new scan count %ld total_scan %ld
	 * last shrinker return val %d" */
	check("6.18 shrink_slab_end", "mm_shrink_slab_end",
	      "super_cache_scan+0x0/0x1a0 000000009c4e2a71: nid: 0 unused scan count 0 new scan count 0 total_scan 0 last shrinker return val 36",
	      0, "shrink=super_cache_scan+0x0/0x1a0; shr=000000009c4e2a71; nid=0; unused_scan_count=0; "
	      "new_scan_count=0; total_scan=0; last_shrinker_return_val=36");
	/* 4.14: %pF, unhashed %p, pgs_scanned/lru_pgs instead of priority */
	check("4.14 shrink_slab_start", "mm_shrink_slab_start",
	      "super_cache_scan+0x0/0x1b0 ffff88013a6e0c30: nid: 0 objects to shrink 1024 gfp_flags GFP_NOFS|__GFP_NOWARN pgs_scanned 32 lru_pgs 102400 cache items 8192 delta 5 total_scan 1029",
	      0, "shrink=super_cache_scan+0x0/0x1b0; shr=ffff88013a6e0c30; nid=0; objects_to_shrink=1024; "
	      "gfp_flags=GFP_NOFS|__GFP_NOWARN; pgs_scanned=32; lru_pgs=102400; cache_items=8192; "
	      "delta=5; total_scan=1029");
	/* %pS of a module's function: "symbol+off/len [module]" */
	check("6.18 module shrinker", "mm_shrink_slab_start",
	      "xfs_buftarg_shrink_scan+0x0/0x30 [xfs] 000000003a7e2f1c: nid: 1 objects to shrink 12 gfp_flags GFP_KERNEL|__GFP_NOWARN cache items 300 delta 2 total_scan 14 priority 10",
	      0, "shrink=xfs_buftarg_shrink_scan+0x0/0x30 [xfs]; shr=000000003a7e2f1c; nid=1; "
	      "objects_to_shrink=12; gfp_flags=GFP_KERNEL|__GFP_NOWARN; cache_items=300; delta=2; "
	      "total_scan=14; priority=10");
	/* %pS of an address kallsyms cannot name (module unloaded) */
	check("unresolved shrinker address", "mm_shrink_slab_end",
	      "0xffffffffc0a1b2c3 000000001f2e3d4c: nid: 0 unused scan count 5 new scan count 7 total_scan 2 last shrinker return val 0",
	      0, "shrink=0xffffffffc0a1b2c3; shr=000000001f2e3d4c; nid=0; unused_scan_count=5; "
	      "new_scan_count=7; total_scan=2; last_shrinker_return_val=0");
}

static void lru(void)
{
	/* 4.14-5.1: one nr_activate */
	check("4.14 lru_shrink_inactive", "mm_vmscan_lru_shrink_inactive",
	      "nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=1 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate=2 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC",
	      0, "nid=0; nr_scanned=32; nr_reclaimed=30; nr_dirty=1; nr_writeback=0; nr_congested=0; "
	      "nr_immediate=0; nr_activate=2; nr_ref_keep=0; nr_unmap_fail=0; priority=12; "
	      "flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC");
	/* 5.2+: nr_activate0/1 printed as nr_activate_anon/_file */
	check("5.4 lru_shrink_inactive", "mm_vmscan_lru_shrink_inactive",
	      "nid=1 nr_scanned=32 nr_reclaimed=17 nr_dirty=4 nr_writeback=2 nr_congested=0 nr_immediate=1 nr_activate_anon=3 nr_activate_file=5 nr_ref_keep=6 nr_unmap_fail=1 priority=9 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC",
	      0, "nid=1; nr_scanned=32; nr_reclaimed=17; nr_dirty=4; nr_writeback=2; nr_congested=0; "
	      "nr_immediate=1; nr_activate_anon=3; nr_activate_file=5; nr_ref_keep=6; "
	      "nr_unmap_fail=1; priority=9; flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC");
	/* <=6.7: starts with isolate_mode; classzone_idx (<=5.7) printed as classzone= */
	check("4.14 lru_isolate", "mm_vmscan_lru_isolate",
	      "isolate_mode=0 classzone=3 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_file",
	      0, "isolate_mode=0; classzone=3; order=0; nr_requested=32; nr_scanned=32; nr_skipped=0; "
	      "nr_taken=32; lru=inactive_file");
	/* 6.8+: no isolate_mode */
	check("6.18 lru_isolate", "mm_vmscan_lru_isolate",
	      "classzone=2 order=0 nr_requested=32 nr_scanned=47 nr_skipped=15 nr_taken=32 lru=active_anon",
	      0, "classzone=2; order=0; nr_requested=32; nr_scanned=47; nr_skipped=15; nr_taken=32; "
	      "lru=active_anon");
	/* 6.18 write_folio: "page=%p pfn=0x%lx flags=%s" (hex pfn) */
	check("6.18 write_folio hex pfn", "mm_vmscan_write_folio",
	      "page=00000000c1d2e3f4 pfn=0x1a2b3c flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC",
	      0, "page=00000000c1d2e3f4; pfn=0x1a2b3c; flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC");
	/* <=5.10 writepage: "page=%p pfn=%lu flags=%s" (decimal pfn, 1715004 == 0x1a2b3c) */
	check("5.4 writepage decimal pfn", "mm_vmscan_writepage",
	      "page=000000007e5d4c3b pfn=1715004 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC",
	      0, "page=000000007e5d4c3b; pfn=1715004; flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC");
	/* 5.16+: the field usec_delayed is printed with the typo usect_delayed */
	check("6.18 throttled", "mm_vmscan_throttled",
	      "nid=0 usec_timeout=100000 usect_delayed=4000 reason=VMSCAN_THROTTLE_WRITEBACK",
	      0, "nid=0; usec_timeout=100000; usect_delayed=4000; reason=VMSCAN_THROTTLE_WRITEBACK");
	/* boosted-watermark wakeup: gfp 0 prints "none" */
	check("5.4 wakeup_kswapd gfp_flags=none", "mm_vmscan_wakeup_kswapd",
	      "nid=0 order=0 gfp_flags=none",
	      0, "nid=0; order=0; gfp_flags=none");
	/* 4.14-5.1 direct_reclaim_begin carried may_writepage and classzone_idx */
	check("4.14 direct_reclaim_begin", "mm_vmscan_direct_reclaim_begin",
	      "order=0 may_writepage=1 gfp_flags=GFP_HIGHUSER_MOVABLE classzone_idx=2",
	      0, "order=0; may_writepage=1; gfp_flags=GFP_HIGHUSER_MOVABLE; classzone_idx=2");
	/* compaction's "classzone_idx=%-8s" pads the zone name with spaces */
	check("6.18 kcompactd_wake padded zone", "mm_compaction_kcompactd_wake",
	      "nid=0 order=9 classzone_idx=DMA32   ",
	      0, "nid=0; order=9; classzone_idx=DMA32");
}

static void writeback(void)
{
	/* writeback_work_class: "bdi %s: sb_dev %d:%d nr_pages=%ld ..." */
	check("6.18 writeback_start", "writeback_start",
	      "bdi 8:0: sb_dev 8:0 nr_pages=4096 sync_mode=0 kupdate=0 range_cyclic=1 background=0 reason=vmscan cgroup_ino=1",
	      0, "bdi=8:0; sb_dev=8:0; nr_pages=4096; sync_mode=0; kupdate=0; range_cyclic=1; "
	      "background=0; reason=vmscan; cgroup_ino=1");
	check("4.14 writeback_written, background work", "writeback_written",
	      "bdi 253:1: sb_dev 0:0 nr_pages=9223372036854774783 sync_mode=0 kupdate=0 range_cyclic=1 background=1 reason=background cgroup_ino=1",
	      0, "bdi=253:1; sb_dev=0:0; nr_pages=9223372036854774783; sync_mode=0; kupdate=0; "
	      "range_cyclic=1; background=1; reason=background; cgroup_ino=1");
	/* a bdi with no device prints "(unknown)" */
	check("4.14 writeback_dirty_page (unknown) bdi", "writeback_dirty_page",
	      "bdi (unknown): ino=12 index=3",
	      0, "bdi=(unknown); ino=12; index=3");
	/* 6.18 wbc_writepage: short labels, hex range */
	check("6.18 wbc_writepage", "wbc_writepage",
	      "bdi 0:45: towrt=1024 skip=0 mode=0 kupd=0 bgrd=1 cyclic=1 start=0x0 end=0x7fffffffffffffff cgroup_ino=1",
	      0, "bdi=0:45; towrt=1024; skip=0; mode=0; kupd=0; bgrd=1; cyclic=1; start=0x0; "
	      "end=0x7fffffffffffffff; cgroup_ino=1");
	/* writeback_pages_written: "%ld" alone */
	check("writeback_pages_written", "writeback_pages_written", "1024", 0, "pages=1024");
	/* <=5.7 global_dirty_state has unstable= */
	check("5.4 global_dirty_state", "global_dirty_state",
	      "dirty=1345 writeback=0 unstable=0 bg_thresh=195840 thresh=391680 limit=391680 dirtied=2310421 written=2309076",
	      0, "dirty=1345; writeback=0; unstable=0; bg_thresh=195840; thresh=391680; limit=391680; "
	      "dirtied=2310421; written=2309076");
	check("6.18 global_dirty_state", "global_dirty_state",
	      "dirty=22 writeback=0 bg_thresh=399871 thresh=799743 limit=799743 dirtied=1040 written=1018",
	      0, "dirty=22; writeback=0; bg_thresh=399871; thresh=799743; limit=799743; dirtied=1040; "
	      "written=1018");
	/* 4.14 balance_dirty_pages still says bdi_setpoint/bdi_dirty */
	check("4.14 balance_dirty_pages", "balance_dirty_pages",
	      "bdi 8:16: limit=391680 setpoint=342720 dirty=350000 bdi_setpoint=171360 bdi_dirty=180000 dirty_ratelimit=102400 task_ratelimit=51200 dirtied=32 dirtied_pause=32 paused=0 pause=12 period=12 think=0 cgroup_ino=1",
	      0, "bdi=8:16; limit=391680; setpoint=342720; dirty=350000; bdi_setpoint=171360; "
	      "bdi_dirty=180000; dirty_ratelimit=102400; task_ratelimit=51200; dirtied=32; "
	      "dirtied_pause=32; paused=0; pause=12; period=12; think=0; cgroup_ino=1");
}

static void free_text_and_cuts(void)
{
	struct collect c = { .stop_at = 3 };
	const char *why, *p;

	/* the recorder's own trace_marker anchors (memo §5.2) */
	check("trace_marker anchor", "tracing_mark_write", "vmstat seq=3 mono_ns=1234567890",
	      1, "seq=3; mono_ns=1234567890");
	check("free text only", "tracing_mark_write", "hello world", 1, "");
	check("value with no label", "tracing_mark_write", "42 apples=3", 1, "apples=3");

	/* cut lines: what was read before the cut is delivered, the result says so */
	check("cut in a key", "mm_vmscan_lru_shrink_inactive",
	      "nid=0 nr_scanned=32 nr_recl", 1, "nid=0; nr_scanned=32");
	check("cut after '='", "mm_vmscan_lru_shrink_inactive",
	      "nid=0 nr_scanned=32 nr_reclaimed=", 1, "nid=0; nr_scanned=32");
	check("cut in a phrase", "mm_shrink_slab_start",
	      "super_cache_scan+0x0/0x1a0 000000009c4e2a71: nid: 0 objects to shrink 0 gfp_flags",
	      1, "shrink=super_cache_scan+0x0/0x1a0; shr=000000009c4e2a71; nid=0; objects_to_shrink=0");
	check("cut in the shrinker address", "mm_shrink_slab_start",
	      "super_cache_scan+0x0/0x1a0 0000000", 1, "shrink=super_cache_scan+0x0/0x1a0");
	check("cut after the shrinker address", "mm_shrink_slab_end",
	      "super_cache_scan+0x0/0x1a0 000000009c4e2a71:", 1,
	      "shrink=super_cache_scan+0x0/0x1a0; shr=000000009c4e2a71");
	check("cut in the module name", "mm_shrink_slab_start",
	      "xfs_buftarg_shrink_scan+0x0/0x30 [xf", 1, "");
	check("cut in the bdi name", "writeback_start", "bdi 8:0", 1, "");
	check("cut after the bdi prefix", "writeback_start", "bdi 8:0:", 1, "bdi=8:0");
	check("cut writeback_pages_written", "writeback_pages_written", "", 1, "");

	/* an empty value inside the payload is a value (a %s of ""), not a cut */
	check("empty value mid-payload", "some_event", "name= ino=5", 0, "name=; ino=5");

	/* the callback's non-zero return stops the walk and is returned */
	p = "nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=1";
	is_int(text_payload_parse("mm_vmscan_lru_shrink_inactive", 29, p, strlen(p), collect, &c,
				  &why), 7, "callback's return value is returned");
	is_int(c.calls, 3, "no call after the callback said stop");
}

int main(void)
{
	shrink_slab();
	lru();
	writeback();
	free_text_and_cuts();
	return done_testing();
}
