/* file_index.c: gathers the rows of a file's index as the writer ends its
 * ranks and regions, and writes them into /metadata (file_index.h). */
#include "file_index.h"
#include "grow_array.h"
#include "region_encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The region columns' datasets in the order of region_encode.h's columns,
 * then the peer totals. */
const char *const file_index_dataset_bits[] = {
    "start_times", "end_times", "thread_ids", "callsite_ids", "bytes", "peer", "tag", "comm",
    "offset", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "retval",
    "msg_call", "msg_kind", "msg_peer", "msg_bytes", "msg_tag", "msg_comm", "peer_ranks"};
const size_t file_index_ndataset_bits =
    sizeof file_index_dataset_bits / sizeof file_index_dataset_bits[0];
_Static_assert(sizeof file_index_dataset_bits / sizeof file_index_dataset_bits[0] ==
                   REGION_NCOLUMNS + 1, "a name for each column, then peer_ranks");

uint32_t file_index_dataset_bit(const char *name)
{
    for (size_t i = 0; i < file_index_ndataset_bits; i++)
        if (strcmp(file_index_dataset_bits[i], name) == 0)
            return UINT32_C(1) << i;
    return 0;
}

int8_t file_index_payload_code(const char *family)
{
    for (size_t i = 1; family && i < FILE_INDEX_PAYLOADS; i++)
        if (strcmp(family, file_index_payload_names[i]) == 0)
            return (int8_t)i;
    return 0;
}

int file_index_add_rank(struct file_index *x, const struct file_index_rank *row,
                        const struct h5_err *e)
{
    if (scope_grow_array((void **)&x->ranks, &x->rank_cap, x->nranks + 1, sizeof *x->ranks)) {
        snprintf(e->buf, e->len, "out of memory for the file's index");
        return -1;
    }
    x->ranks[x->nranks++] = *row;
    return 0;
}

int file_index_add_region(struct file_index *x, const struct file_index_region *row,
                          char *name, const struct h5_err *e)
{
    if (scope_grow_array((void **)&x->regions, &x->region_cap, x->nregions + 1,
                         sizeof *x->regions) ||
        scope_grow_array((void **)&x->names, &x->name_cap, x->nregions + 1, sizeof *x->names)) {
        free(name);
        snprintf(e->buf, e->len, "out of memory for the file's index");
        return -1;
    }
    x->regions[x->nregions] = *row;
    x->names[x->nregions++] = name;
    return 0;
}

/* index_regions' dataset_bits: the names of its datasets' bits, in order. */
static int write_bit_names(hid_t d, hid_t string, const struct h5_err *e)
{
    hsize_t n = file_index_ndataset_bits;
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t a = space < 0 ? H5I_INVALID_HID
                        : H5Acreate2(d, "dataset_bits", string, space, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 || H5Awrite(a, string, file_index_dataset_bits) < 0
                 ? h5_fail(e, "cannot write /metadata/index_regions's dataset_bits")
                 : 0;
    if (a >= 0)
        H5Aclose(a);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

static const char *const *sorting_names;   /* qsort's context */

static int cmp_row_name(const void *a, const void *b)
{
    return strcmp(sorting_names[*(const size_t *)a], sorting_names[*(const size_t *)b]);
}

/* Numbers the distinct names in name order into each row's `name`; the
 * distinct names into *unique (*n of them). */
static int number_names(struct file_index *x, const char ***unique, size_t *n)
{
    size_t *order = malloc((x->nregions ? x->nregions : 1) * sizeof *order);
    *unique = malloc((x->nregions ? x->nregions : 1) * sizeof **unique);
    if (!order || !*unique) {
        free(order);
        free(*unique);
        return -1;
    }
    for (size_t i = 0; i < x->nregions; i++)
        order[i] = i;
    sorting_names = (const char *const *)x->names;
    qsort(order, x->nregions, sizeof *order, cmp_row_name);
    *n = 0;
    for (size_t i = 0; i < x->nregions; i++) {
        const char *name = x->names[order[i]];
        if (*n == 0 || strcmp((*unique)[*n - 1], name) != 0)
            (*unique)[(*n)++] = name;
        x->regions[order[i]].name = (int32_t)(*n - 1);
    }
    free(order);
    return 0;
}

static int write_regions(struct file_index *x, hid_t meta, const struct h5_err *e)
{
    static const struct file_index_region none;   /* HDF5 wants a buffer, even for 0 rows */
    const char **unique = NULL;
    size_t nunique = 0;
    if (number_names(x, &unique, &nunique) < 0) {
        snprintf(e->buf, e->len, "out of memory for the file's index");
        return -1;
    }
    hid_t string = h5_utf8_string();
    hid_t mem = file_index_region_type(0), disk = file_index_region_type(1);
    int rc = -1;
    if (string < 0 || mem < 0 || disk < 0) {
        rc = h5_fail(e, "cannot make the types of /metadata's index");
    } else if (h5_write_dataset(meta, "index_names", string, string, 1, &(hsize_t){nunique},
                                nunique ? (const void *)unique : (const void *)&none, e) == 0 &&
               h5_write_dataset(meta, "index_regions", disk, mem, 1, &(hsize_t){x->nregions},
                                x->nregions ? (void *)x->regions : (void *)&none, e) == 0) {
        hid_t d = H5Dopen2(meta, "index_regions", H5P_DEFAULT);
        rc = d < 0 ? h5_fail(e, "cannot open /metadata/index_regions")
                   : write_bit_names(d, string, e);
        if (d >= 0)
            H5Dclose(d);
    }
    hid_t types[] = {disk, mem, string};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i] >= 0)
            H5Tclose(types[i]);
    free(unique);
    return rc;
}

int file_index_write(struct file_index *x, hid_t file, const struct h5_err *e)
{
    static const struct file_index_rank none;
    hid_t meta = H5Lexists(file, "metadata", H5P_DEFAULT) > 0
                     ? H5Gopen2(file, "metadata", H5P_DEFAULT)
                     : h5_group_create(file, "metadata");
    if (meta < 0)
        return h5_fail(e, "cannot open /metadata");
    hid_t mem = file_index_rank_type(0), disk = file_index_rank_type(1);
    int rc = mem < 0 || disk < 0
                 ? h5_fail(e, "cannot make the type of /metadata/index_ranks")
                 : h5_write_dataset(meta, "index_ranks", disk, mem, 1, &(hsize_t){x->nranks},
                                    x->nranks ? (void *)x->ranks : (void *)&none, e);
    if (rc == 0)
        rc = write_regions(x, meta, e);
    if (mem >= 0)
        H5Tclose(mem);
    if (disk >= 0)
        H5Tclose(disk);
    H5Gclose(meta);
    return rc;
}

void file_index_free(struct file_index *x)
{
    for (size_t i = 0; i < x->nregions; i++)
        free(x->names[i]);
    free(x->names);
    free(x->regions);
    free(x->ranks);
    *x = (struct file_index){0};
}
