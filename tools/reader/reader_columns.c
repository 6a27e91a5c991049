/* Whole 1-D integer datasets read in batches (reader_columns.h): the plan
 * of each dataset (inflate its chunks ourselves, or let H5Dread do it),
 * the raw chunks, and the threads that inflate them. */
#include "grow_array.h"
#include "reader_columns.h"
#include "reader_inflate.h"
#include "reader_tasks.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Below this many bytes of values a batch is inflated on the caller's
 * thread alone: starting threads would cost more. */
#define COLUMNS_THREAD_MIN_BYTES (1u << 20)

typedef struct column_chunk {
    chunk_job job;  /* job.out NULL: the dataset's last chunk, past its end */
    unsigned char *tail; /* then its values go here, */
    size_t tail_len;     /* this many bytes of them */
    size_t label;   /* index in the batch's labels: "where/name" */
    size_t index;   /* the chunk's index in its dataset */
    bool failed;
} column_chunk;

struct column_batch {
    column_chunk *chunks;
    size_t n, cap;
    char **labels;
    size_t n_labels, cap_labels;
    size_t bytes, max_chunk_bytes;
};

/* How a dataset's chunks can be inflated here. */
typedef struct chunk_plan {
    size_t chunk_values;
    int shuffle_filter, deflate_filter; /* their places in the pipeline, -1: none */
} chunk_plan;

column_batch *reader_columns_new(void)
{
    return calloc(1, sizeof(column_batch));
}

void reader_columns_free(column_batch *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        free((void *)b->chunks[i].job.in);
    for (size_t i = 0; i < b->n_labels; i++)
        free(b->labels[i]);
    free(b->chunks);
    free(b->labels);
    free(b);
}

/* The file holds the values as memory does (same size, byte order, sign):
 * the bytes are the values, no conversion. */
static bool same_integers(hid_t ftype, hid_t mem_type)
{
    return H5Tget_class(ftype) == H5T_INTEGER && H5Tget_size(ftype) == H5Tget_size(mem_type) &&
           H5Tget_order(ftype) == H5Tget_order(mem_type) &&
           H5Tget_sign(ftype) == H5Tget_sign(mem_type);
}

/* Chunks of one dimension through deflate, or shuffle then deflate, and
 * nothing else: true, with where each filter is. */
static bool plan_chunks(hid_t dset, hid_t ftype, hid_t mem_type, chunk_plan *plan)
{
    if (!same_integers(ftype, mem_type))
        return false;
    hid_t dcpl = H5Dget_create_plist(dset);
    hsize_t dim = 0;
    bool ok = dcpl >= 0 && H5Pget_layout(dcpl) == H5D_CHUNKED &&
              H5Pget_chunk(dcpl, 1, &dim) == 1 && dim > 0;
    int nfilters = ok ? H5Pget_nfilters(dcpl) : -1;
    *plan = (chunk_plan){.chunk_values = (size_t)dim, .shuffle_filter = -1, .deflate_filter = -1};
    ok = nfilters == 1 || nfilters == 2;
    for (int i = 0; ok && i < nfilters; i++) {
        unsigned flags = 0, config = 0;
        size_t n_values = 0;
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &n_values, NULL, 0, NULL,
                                         &config);
        if (id == H5Z_FILTER_SHUFFLE && i == 0 && nfilters == 2)
            plan->shuffle_filter = i;
        else if (id == H5Z_FILTER_DEFLATE && i == nfilters - 1)
            plan->deflate_filter = i;
        else
            ok = false;
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return ok;
}

static int add_label(column_batch *b, const char *where, const char *name)
{
    size_t len = strlen(where) + strlen(name) + 2;
    char *label = malloc(len);
    if (!label || scope_grow_array((void **)&b->labels, &b->cap_labels, b->n_labels + 1,
                                   sizeof *b->labels) != 0) {
        free(label);
        return -1;
    }
    snprintf(label, len, "%s/%s", where, name);
    b->labels[b->n_labels++] = label;
    return 0;
}

/* Reads the raw chunks of dset into b, to be inflated into data; on any
 * failure (a chunk never written, a damaged index) b is as before and -1
 * is returned, for H5Dread to try (and say what is wrong). */
static int read_chunks(column_batch *b, hid_t dset, const chunk_plan *plan, size_t len,
                       size_t elem_size, unsigned char *data)
{
    size_t first = b->n, chunk_bytes = plan->chunk_values * elem_size;
    size_t n_chunks = (len + plan->chunk_values - 1) / plan->chunk_values;
    int rc = scope_grow_array((void **)&b->chunks, &b->cap, b->n + n_chunks, sizeof *b->chunks);
    for (size_t c = 0; rc == 0 && c < n_chunks; c++) {
        hsize_t offset = (hsize_t)(c * plan->chunk_values), stored = 0;
        uint32_t mask = 0;
        unsigned char *raw = NULL;
        if (H5Dget_chunk_storage_size(dset, &offset, &stored) < 0 || stored == 0 ||
            !(raw = malloc((size_t)stored)) ||
            H5Dread_chunk(dset, H5P_DEFAULT, &offset, &mask, raw) < 0) {
            free(raw);
            rc = -1;
            break;
        }
        size_t at = c * chunk_bytes, keep = len * elem_size - at;
        bool whole = keep >= chunk_bytes;
        b->chunks[b->n++] = (column_chunk){
            .job = {.in = raw, .in_len = (size_t)stored, .elem_size = elem_size,
                    .deflated = !(mask & (1u << plan->deflate_filter)),
                    .shuffled = plan->shuffle_filter >= 0 &&
                                !(mask & (1u << plan->shuffle_filter)),
                    .out = whole ? data + at : NULL, .out_len = chunk_bytes},
            .tail = whole ? NULL : data + at, .tail_len = whole ? 0 : keep,
            .label = b->n_labels - 1, .index = c,
        };
    }
    if (rc < 0) {
        while (b->n > first)
            free((void *)b->chunks[--b->n].job.in);
        return -1;
    }
    b->bytes += n_chunks * chunk_bytes;
    if (chunk_bytes > b->max_chunk_bytes)
        b->max_chunk_bytes = chunk_bytes;
    return 0;
}

/* Room for a column of `bytes` (freed by free()). A large one starts on a
 * 2 MiB boundary and asks for transparent huge pages: a column is written
 * once from end to end, and in 4 KiB pages the kernel's page faults cost
 * more than the inflating (10 M calls' times: 50 000 faults, a third of
 * scope summary's CPU). From 8 MiB on its size is rounded up to whole huge
 * pages (at most 1/4 more), so that its end is in them too. */
static void *alloc_column(size_t bytes)
{
    enum { HUGE_PAGE = 2u << 20 };
    if (bytes < HUGE_PAGE)
        return malloc(bytes ? bytes : 1);
    size_t room = bytes >= 4 * (size_t)HUGE_PAGE
                      ? (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE : bytes;
    void *p = aligned_alloc(HUGE_PAGE, (room + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
#ifdef MADV_HUGEPAGE
    if (p)   /* a hint: its failure costs nothing */
        madvise(p, room / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
#endif
    return p;
}

/* The dataset's values into *data: its chunks into b when plan_chunks
 * allows, else (or when they cannot be read raw) by H5Dread. */
static int read_values(column_batch *b, hid_t dset, hid_t ftype, hid_t mem_type, size_t len,
                       void **data, const char *label, scope_error *err)
{
    size_t elem_size = H5Tget_size(mem_type);
    chunk_plan plan = {0};
    bool raw = plan_chunks(dset, ftype, mem_type, &plan);
    if (!(*data = alloc_column(len * elem_size)))
        return reader_fail(err, "%s: out of memory for %zu values", label, len);
    if (raw && read_chunks(b, dset, &plan, len, elem_size, *data) == 0)
        return 0;
    if (H5Dread(dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data) < 0)
        return reader_fail(err, "%s: cannot read the data (truncated file?)", label);
    return 0;
}

int reader_columns_add(column_batch *b, hid_t loc, const char *name, hid_t mem_type,
                       void **data, size_t *len, const char *where, scope_error *err)
{
    *data = NULL;
    *len = 0;
    if (add_label(b, where, name) < 0)
        return reader_fail(err, "out of memory");
    const char *label = b->labels[b->n_labels - 1];
    hid_t dset = H5Dopen2(loc, name, H5P_DEFAULT);
    if (dset < 0)
        return reader_fail(err, "%s: cannot open dataset %s", where, name);
    hid_t space = H5Dget_space(dset);
    hid_t ftype = H5Dget_type(dset);
    int rank = H5Sget_simple_extent_ndims(space);
    hsize_t dims[1] = {0};
    int rc = 0;
    if (rank == 0 && H5Sget_simple_extent_type(space) == H5S_NULL)
        ; /* empty */
    else if (rank != 1 || H5Sget_simple_extent_dims(space, dims, NULL) < 0)
        rc = reader_fail(err, "%s: expected a 1-D dataset", label);
    else if (H5Tget_class(ftype) != H5T_INTEGER)
        rc = reader_fail(err, "%s: expected integers", label);
    else if (dims[0] > 0)
        rc = read_values(b, dset, ftype, mem_type, (size_t)dims[0], data, label, err);
    *len = (size_t)dims[0];
    H5Tclose(ftype);
    H5Sclose(space);
    H5Dclose(dset);
    return rc;
}

typedef struct inflaters {
    column_batch *b;
    struct libdeflate_decompressor *d[READER_MAX_THREADS];
    void *scratch[READER_MAX_THREADS]; /* a chunk's inflated, shuffled bytes */
    void *last[READER_MAX_THREADS];    /* a last chunk's values */
} inflaters;

static void inflate_one(void *ctx, size_t task, size_t thread)
{
    inflaters *in = ctx;
    column_chunk *c = &in->b->chunks[task];
    chunk_job job = c->job;
    if (!job.out)
        job.out = in->last[thread];
    c->failed = reader_inflate_chunk(in->d[thread], &job, in->scratch[thread]) < 0;
    if (!c->failed && c->tail)
        memcpy(c->tail, job.out, c->tail_len);
}

int reader_columns_run(column_batch *b, size_t max_threads, scope_error *err)
{
    size_t threads = b->bytes < COLUMNS_THREAD_MIN_BYTES ? 1 : reader_task_threads(b->n, max_threads);
    inflaters in = {.b = b};
    int rc = 0;
    size_t most = b->max_chunk_bytes ? b->max_chunk_bytes : 1;
    for (size_t t = 0; rc == 0 && t < threads; t++)
        if (!(in.d[t] = libdeflate_alloc_decompressor()) || !(in.scratch[t] = malloc(most)) ||
            !(in.last[t] = malloc(most)))
            rc = reader_fail(err, "out of memory");
    if (rc == 0 && b->n > 0)
        reader_run_tasks(b->n, threads, inflate_one, &in);
    for (size_t i = 0; rc == 0 && i < b->n; i++)
        if (b->chunks[i].failed)
            rc = reader_fail(err, "%s: chunk %zu does not inflate to its %zu bytes (damaged"
                             " file?)", b->labels[b->chunks[i].label], b->chunks[i].index,
                             b->chunks[i].job.out_len);
    for (size_t t = 0; t < threads; t++) {
        if (in.d[t])
            libdeflate_free_decompressor(in.d[t]);
        free(in.scratch[t]);
        free(in.last[t]);
    }
    reader_columns_free(b);
    return rc;
}
