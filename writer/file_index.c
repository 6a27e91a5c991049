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

/* The n rows of dataset `name` of meta, read as mem (size bytes each);
 * NULL when it cannot be read. */
static void *read_rows(hid_t meta, const char *name, hid_t mem, size_t size, size_t *n)
{
    hid_t d = H5Dopen2(meta, name, H5P_DEFAULT);
    hid_t space = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    hssize_t count = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    void *rows = count >= 0 ? calloc((size_t)count + 1, size) : NULL;
    if (rows && count > 0 && H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0) {
        free(rows);
        rows = NULL;
    }
    *n = rows ? (size_t)count : 0;
    if (space >= 0)
        H5Sclose(space);
    if (d >= 0)
        H5Dclose(d);
    return rows;
}

/* Whether index_regions' dataset_bits are file_index_dataset_bits. */
static int same_bits(hid_t meta, hid_t string)
{
    hid_t d = H5Dopen2(meta, "index_regions", H5P_DEFAULT);
    hid_t a = d >= 0 && H5Aexists(d, "dataset_bits") > 0
                  ? H5Aopen(d, "dataset_bits", H5P_DEFAULT) : H5I_INVALID_HID;
    hid_t space = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    char *names[32] = {0};
    int same = space >= 0 && file_index_ndataset_bits <= 32 &&
               H5Sget_simple_extent_npoints(space) == (hssize_t)file_index_ndataset_bits &&
               H5Aread(a, string, names) >= 0;
    for (size_t i = 0; same && i < file_index_ndataset_bits; i++)
        same = names[i] && strcmp(names[i], file_index_dataset_bits[i]) == 0;
    for (size_t i = 0; i < 32; i++)
        H5free_memory(names[i]);
    if (space >= 0)
        H5Sclose(space);
    if (a >= 0)
        H5Aclose(a);
    if (d >= 0)
        H5Dclose(d);
    return same;
}

static int wanted(int rank, const int *ranks, size_t nranks)
{
    for (size_t i = 0; ranks && i < nranks; i++)
        if (ranks[i] == rank)
            return 1;
    return !ranks;
}

int file_index_add_from(struct file_index *x, hid_t file, const int *ranks, size_t nranks,
                        const struct h5_err *e)
{
    if (H5Lexists(file, "metadata", H5P_DEFAULT) <= 0)
        return 0;
    hid_t meta = H5Gopen2(file, "metadata", H5P_DEFAULT);
    hid_t string = h5_utf8_string();
    hid_t rank_type = file_index_rank_type(0), region_type = file_index_region_type(0);
    struct file_index_rank *rank_rows = NULL;
    struct file_index_region *region_rows = NULL;
    char **names = NULL;
    size_t nrank_rows = 0, nregion_rows = 0, nnames = 0;
    int rc = -1;
    if (meta < 0 || string < 0 || rank_type < 0 || region_type < 0) {
        rc = h5_fail(e, "cannot open /metadata");
    } else if (H5Lexists(meta, "index_ranks", H5P_DEFAULT) <= 0 ||
               H5Lexists(meta, "index_regions", H5P_DEFAULT) <= 0 ||
               H5Lexists(meta, "index_names", H5P_DEFAULT) <= 0 || !same_bits(meta, string)) {
        rc = 0;
    } else if (!(rank_rows = read_rows(meta, "index_ranks", rank_type, sizeof *rank_rows,
                                       &nrank_rows)) ||
               !(region_rows = read_rows(meta, "index_regions", region_type,
                                         sizeof *region_rows, &nregion_rows)) ||
               !(names = read_rows(meta, "index_names", string, sizeof *names, &nnames))) {
        rc = h5_fail(e, "cannot read /metadata's index");
    } else {
        rc = 1;
        for (size_t i = 0; rc == 1 && i < nregion_rows; i++)
            if (region_rows[i].name < 0 || (size_t)region_rows[i].name >= nnames ||
                !names[region_rows[i].name])
                rc = h5_fail(e, "/metadata/index_regions: row %zu names no entry of "
                             "index_names", i);
        for (size_t i = 0; rc == 1 && i < nrank_rows; i++)
            if (wanted(rank_rows[i].rank, ranks, nranks) &&
                file_index_add_rank(x, &rank_rows[i], e) != 0)
                rc = -1;
        for (size_t i = 0; rc == 1 && i < nregion_rows; i++) {
            if (!wanted(region_rows[i].rank, ranks, nranks))
                continue;
            char *name = strdup(names[region_rows[i].name]);
            if (!name) {
                snprintf(e->buf, e->len, "out of memory for the file's index");
                rc = -1;
            } else if (file_index_add_region(x, &region_rows[i], name, e) != 0) {
                rc = -1;
            }
        }
    }
    for (size_t i = 0; names && i < nnames; i++)
        H5free_memory(names[i]);
    free(names);
    free(region_rows);
    free(rank_rows);
    hid_t ids[] = {region_type, rank_type, string};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (ids[i] >= 0)
            H5Tclose(ids[i]);
    if (meta >= 0)
        H5Gclose(meta);
    return rc;
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
