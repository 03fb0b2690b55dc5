// SPDX-License-Identifier: GPL-2.0
/*
 * exact-inputs-info.c - the one-line account of a run's decision-input
 * source (exact from BPF, or sampled and why) that `vmscope info` prints,
 * read from exact_input_run and exact_input_item (schema/008-exact-inputs.sql).
 */
#include <stdio.h>

#include <sqlite3.h>

#include "vms.h"
#include "vms-exact-inputs.h"

/* The start provenances of the items: "N exact, N start-offset, N delta-only". */
static int describe_starts(sqlite3 *sql, struct vms_buf *out)
{
	sqlite3_stmt *st;
	int rc = 0, first = 1;

	if (sqlite3_prepare_v2(sql, "SELECT start_provenance, COUNT(*) FROM exact_input_item"
			       " GROUP BY 1 ORDER BY 1", -1, &st, NULL))
		return 0;
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		rc = vms_buf_addf(out, "%s%d %s", first ? "; start values: " : ", ",
				  sqlite3_column_int(st, 1), (const char *)sqlite3_column_text(st, 0));
		first = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* "; N per-CPU flush turns" when the view was recorded one CPU's turn at a time. */
static int describe_turns(sqlite3 *sql, struct vms_buf *out)
{
	sqlite3_stmt *st;
	long long n = 0;

	if (sqlite3_prepare_v2(sql, "SELECT COUNT(*) FROM exact_input WHERE kind = 'flush_cpu'",
			       -1, &st, NULL))
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n ? vms_buf_addf(out, "; %lld per-CPU flush turns", n) : 0;
}

int vms_exact_inputs_describe(sqlite3 *sql, struct vms_buf *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(sql, "SELECT source, reason, memcg, records, dropped, flushes, nodes"
			       " FROM exact_input_run WHERE id = 1", -1, &st, NULL))
		return vms_buf_addf(out, "sampled (no exact_input tables: recorded before exact "
				    "inputs existed)");
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return vms_buf_addf(out, "sampled (no exact inputs recorded: imported, or recorded "
				    "without them)");
	}
	if (sqlite3_column_text(st, 0) &&
	    sqlite3_column_text(st, 0)[0] == 'b') {
		rc = vms_buf_addf(out, "exact (BPF on the memcg tracepoints: memcg %s, %lld records,"
				  " %lld lost, %lld flushes seen, %d node%s",
				  sqlite3_column_text(st, 2) ? (const char *)sqlite3_column_text(st, 2) :
				  "?", sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4),
				  sqlite3_column_int64(st, 5), sqlite3_column_int(st, 6),
				  sqlite3_column_int(st, 6) == 1 ? "" : "s: values are per memcg");
		rc = rc ? rc : describe_turns(sql, out);
		rc = rc ? rc : describe_starts(sql, out);
		if (!rc && sqlite3_column_text(st, 1))
			rc = vms_buf_addf(out, "; %s", (const char *)sqlite3_column_text(st, 1));
		rc = rc ? rc : vms_buf_addf(out, ")");
	} else {
		rc = vms_buf_addf(out, "sampled (exact inputs unavailable: %s)",
				  sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) :
				  "not recorded");
	}
	sqlite3_finalize(st);
	return rc;
}
