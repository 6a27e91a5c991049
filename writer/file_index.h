/* file_index.h: the index of the region groups a writer puts in its file
 * (layout: file_index_format.h), gathered as ranks and regions end and
 * written into /metadata when the file is finished. */
#ifndef SCOPE_FILE_INDEX_H
#define SCOPE_FILE_INDEX_H

#include "file_index_format.h"
#include "h5_util.h"

#include <stddef.h>

struct file_index {
    struct file_index_rank *ranks;
    size_t nranks, rank_cap;
    struct file_index_region *regions;   /* their names not set yet: */
    char **names;                        /* names[i]: regions[i]'s, owned */
    size_t nregions, region_cap, name_cap;
};

/* The names of the bits of a region row's `datasets`, in bit order. */
extern const char *const file_index_dataset_bits[];
extern const size_t file_index_ndataset_bits;

/* The bit of dataset `name` in a region row's `datasets` (0: none). */
uint32_t file_index_dataset_bit(const char *name);
/* The payload code of an mpi_payload family (NULL or unknown: 0). */
int8_t file_index_payload_code(const char *family);

/* Adds a row; a region's name (its group's link name) is taken over, even
 * on failure. -1 (e filled) when out of memory. */
int file_index_add_rank(struct file_index *x, const struct file_index_rank *row,
                        const struct h5_err *e);
int file_index_add_region(struct file_index *x, const struct file_index_region *row,
                          char *name, const struct h5_err *e);
/* Adds the rows of the index in `file`'s /metadata for the ranks in
 * ranks[0 .. nranks) (all of them: ranks NULL): 1, or 0 when the file has
 * no index or one whose dataset_bits name the bits otherwise than
 * file_index_dataset_bits (its ranks are then left out), -1 (e filled)
 * when its rows cannot be read or cannot be true. `scope pack` joins the
 * indexes of a run's files with it. */
int file_index_add_from(struct file_index *x, hid_t file, const int *ranks, size_t nranks,
                        const struct h5_err *e);
/* Writes index_ranks, index_names and index_regions into /metadata, which
 * it creates when the file has none (a node's part). */
int file_index_write(struct file_index *x, hid_t file, const struct h5_err *e);
void file_index_free(struct file_index *x);

#endif
