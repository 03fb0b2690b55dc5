/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decode.h - decode binary trace records (struct tep_record) by field name
 * into the typed tables, with the event formats of the traced kernel. Shared
 * by the .dat importer (records from libtracecmd) and the live recorder
 * (records from libtracefs), so both store an event identically.
 */
#ifndef VMS_RECORD_DECODE_H
#define VMS_RECORD_DECODE_H

#include <stddef.h>

struct tep_handle;
struct tep_record;
struct vms_db;
struct vms_sink;
struct record_decoder;

/* Return: a decoder writing into @sink (caller frees with record_decoder_free()), or NULL. */
struct record_decoder *record_decoder_new(struct vms_sink *sink);
void record_decoder_free(struct record_decoder *rd);
/**
 * record_decoder_store() - decode @rec with the formats of @tep and store it
 *
 * Lost events the record reports (missed_events) are stored too.
 * Return: 0 stored; 1 the record's event id is not in @tep (vms_error says
 * so; nothing stored); -1 a database or memory failure (vms_error set).
 */
int record_decoder_store(struct record_decoder *rd, struct tep_handle *tep,
			 struct tep_record *rec);
/* Store every event format of @tep in the event_format table. Return: 0 or -1. */
int record_decoder_store_formats(struct tep_handle *tep, struct vms_db *db);
/*
 * record_decoder_formats() - the event_format text of every event of @tep
 * @fn: called for each; a nonzero return stops the walk and is returned
 */
int record_decoder_formats(struct tep_handle *tep,
			   int (*fn)(void *arg, const char *system, const char *name, int id,
				     const char *text, size_t len),
			   void *arg);
/* Store one row of event_format. Return: 0 or -1. */
int record_decoder_store_format(struct vms_db *db, const char *system, const char *name, int id,
				const char *text, size_t len);

#endif
