/* Whole 1-D integer datasets into memory, many at a time: a dataset
 * stored in chunks through deflate (after shuffle or not) has its chunks
 * read raw, one after another (HDF5 is called from one thread), and
 * inflated side by side on a few threads (reader_inflate.c,
 * reader_tasks.c); any other dataset is read by H5Dread at once. */
#ifndef SCOPE_READER_COLUMNS_H
#define SCOPE_READER_COLUMNS_H

#include "reader_internal.h"

typedef struct column_batch column_batch;

/* NULL when out of memory. */
column_batch *reader_columns_new(void);

/* Reads the dataset loc/name, converted to mem_type, into *data (malloc'd,
 * *len values, NULL when empty): now,
 * or, its chunks, in reader_columns_run. *data is the caller's either way,
 * also on failure. `where` names the group in messages. */
int reader_columns_add(column_batch *b, hid_t loc, const char *name, hid_t mem_type,
                       void **data, size_t *len, const char *where, scope_error *err);

/* Inflates every chunk added, on at most max_threads threads (0: as many
 * as reader_tasks.h allows), and frees b. */
int reader_columns_run(column_batch *b, size_t max_threads, scope_error *err);

/* Frees b without inflating what it holds. */
void reader_columns_free(column_batch *b);

#endif
