/* reader_index.h: the index of region groups that scope's writer stores in
 * each file it writes (writer/file_index_format.h), read at open: the run's
 * file's own, and a node part's for the ranks linked to it. A rank found
 * in an index opens without opening any of its groups. */
#ifndef SCOPE_READER_INDEX_H
#define SCOPE_READER_INDEX_H

#include "file_index_format.h"
#include "reader_internal.h"

typedef struct reader_index {
    char *file;                          /* the part's file name as linked; NULL: the run's */
    char *missing;                       /* why the part cannot be opened; NULL: it can */
    struct file_index_rank *ranks;       /* sorted by rank */
    size_t nranks;
    struct file_index_region *regions;   /* sorted by rank */
    size_t nregions;
    char **names;                        /* index_names, from HDF5 */
    size_t nnames;
    uint32_t threads, callsites, starts, ends, bytes, messages, peers; /* datasets' bits */
    uint32_t values[SCOPE_VALUE_SLOTS];
} reader_index;

/* Every index met while opening a file. */
typedef struct reader_indexes {
    reader_index *list;   /* [0]: the run's file's (empty when it has none) */
    size_t n, cap;
} reader_indexes;

/* Reads the run's file's index (from its /metadata group); 0 also when it
 * has none, -1 (err set) when it is damaged. */
int reader_index_read_main(reader_indexes *all, hid_t metadata, scope_error *err);
/* The index holding rank `rank` (its /rank{N} is a group of the run's file
 * or a link to a part with an index) into *out: 1, 0 when none does (open
 * its groups then), 2 when /rank{N} links to a part that cannot be opened
 * (*out: the part's, with its file and why), -1 (err set) when a part's
 * index is damaged. */
int reader_index_find(reader_indexes *all, hid_t file, const char *file_path, int rank,
                      const reader_index **out, scope_error *err);
/* The rank's row and region rows [*first, *first + *n) in x. */
const struct file_index_rank *reader_index_rank(const reader_index *x, int rank, size_t *first,
                                                size_t *n);
/* The series of a region row, as open_series would build it from the
 * group; NULL (err set) when the row cannot be true. */
series *reader_index_series(const scope_file *f, const reader_index *x,
                            const struct file_index_region *row, scope_error *err);
void reader_indexes_free(reader_indexes *all);

#endif
