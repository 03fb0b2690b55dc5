-- SPDX-License-Identifier: GPL-2.0
-- 900-indexes.sql: indexes for the analyzers. Applied when an import or a
-- recording finishes (bulk loading is faster without them); part of schema version 2.

CREATE INDEX IF NOT EXISTS direct_begin_pid ON mm_vmscan_direct_reclaim_begin (pid, seq);
CREATE INDEX IF NOT EXISTS direct_end_pid ON mm_vmscan_direct_reclaim_end (pid, seq);
CREATE INDEX IF NOT EXISTS memcg_begin_pid ON mm_vmscan_memcg_reclaim_begin (pid, seq);
CREATE INDEX IF NOT EXISTS memcg_end_pid ON mm_vmscan_memcg_reclaim_end (pid, seq);
CREATE INDEX IF NOT EXISTS kswapd_wake_nid ON mm_vmscan_kswapd_wake (nid, seq);
CREATE INDEX IF NOT EXISTS kswapd_sleep_nid ON mm_vmscan_kswapd_sleep (nid, seq);
-- No (pid, seq) index on mm_shrink_slab_start/_end any more: the pairs are
-- derived once (910-derived.sql, shrink_slab_call), and those two indexes
-- cost a tenth of an import.
-- No ts index on the high-volume LRU tables: rows are stored in time order,
-- so seq ranges serve there, and those indexes cost a fifth of an import.
CREATE INDEX IF NOT EXISTS generic_event ON event_generic (event, ts);
CREATE INDEX IF NOT EXISTS counter_sample_source ON counter_sample (source, scope, ts);
