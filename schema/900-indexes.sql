-- SPDX-License-Identifier: GPL-2.0
-- 900-indexes.sql: indexes for the analyzers. Applied when an import or a
-- recording finishes (bulk loading is faster without them); part of schema version 1.

CREATE INDEX IF NOT EXISTS direct_begin_pid ON mm_vmscan_direct_reclaim_begin (pid, seq);
CREATE INDEX IF NOT EXISTS direct_end_pid ON mm_vmscan_direct_reclaim_end (pid, seq);
CREATE INDEX IF NOT EXISTS memcg_begin_pid ON mm_vmscan_memcg_reclaim_begin (pid, seq);
CREATE INDEX IF NOT EXISTS memcg_end_pid ON mm_vmscan_memcg_reclaim_end (pid, seq);
CREATE INDEX IF NOT EXISTS kswapd_wake_nid ON mm_vmscan_kswapd_wake (nid, seq);
CREATE INDEX IF NOT EXISTS kswapd_sleep_nid ON mm_vmscan_kswapd_sleep (nid, seq);
CREATE INDEX IF NOT EXISTS slab_start_pid ON mm_shrink_slab_start (pid, seq);
CREATE INDEX IF NOT EXISTS slab_end_pid ON mm_shrink_slab_end (pid, seq);
CREATE INDEX IF NOT EXISTS lru_isolate_ts ON mm_vmscan_lru_isolate (ts);
CREATE INDEX IF NOT EXISTS shrink_inactive_ts ON mm_vmscan_lru_shrink_inactive (ts);
CREATE INDEX IF NOT EXISTS shrink_active_ts ON mm_vmscan_lru_shrink_active (ts);
CREATE INDEX IF NOT EXISTS generic_event ON event_generic (event, ts);
CREATE INDEX IF NOT EXISTS counter_sample_source ON counter_sample (source, scope, ts);
