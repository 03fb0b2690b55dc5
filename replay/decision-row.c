// SPDX-License-Identifier: GPL-2.0
/*
 * decision-row.c - one row of table decision as values, before it is
 * bound to the INSERT: the build fills a row (decisions.c), binds it, and
 * makes the in-memory record the evaluation needs from the same row
 * (decision-load.c), so that the values are not read back from the table
 * and the record cannot drift from what is stored. Columns are numbered
 * as the INSERT's parameters (DC_* in decisions-local.h).
 */
#include <sqlite3.h>

#include "decisions-local.h"

void dc_row_bind_at(const struct dc_row *r, sqlite3_stmt *st, int base)
{
	for (int c = 1; c <= DC_COLUMNS; c++)
		switch (r->type[c]) {
		case SQLITE_INTEGER:
			sqlite3_bind_int64(st, base + c, r->i[c]);
			break;
		case SQLITE_FLOAT:
			sqlite3_bind_double(st, base + c, r->f[c]);
			break;
		case SQLITE_TEXT:
			/* not copied: the caller keeps the texts until the row is stepped */
			sqlite3_bind_text(st, base + c, r->text[c], r->len[c], SQLITE_STATIC);
			break;
		default:
			sqlite3_bind_null(st, base + c);
		}
}

void dc_row_bind(const struct dc_row *r, sqlite3_stmt *st)
{
	dc_row_bind_at(r, st, 0);
}
