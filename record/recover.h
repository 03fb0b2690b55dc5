/* SPDX-License-Identifier: GPL-2.0 */
/* recover.h - finish a live recording whose recorder died (recover.c). */
#ifndef VMS_RECORD_RECOVER_H
#define VMS_RECORD_RECOVER_H

#include <stdint.h>

/*
 * record_recover() - decode the spool a dead recorder left next to @db_path
 * into it and finish the run (marked incomplete). *@events: events stored;
 * *@pid: the dead recorder's (its instance may still be there), 0 unknown.
 * Return: 0, or -1 with vms_error set (the database is left as it was).
 */
int record_recover(const char *db_path, int quiet, uint64_t *events, int *pid);

#endif
