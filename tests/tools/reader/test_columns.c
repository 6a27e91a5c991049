/* Check unit tests of the reader's dataset reading (reader_columns.c,
 * reader_inflate.c, reader_tasks.c): every dataset read, on one thread or
 * on several, gives the values H5Dread gives, whatever its filters, its
 * last chunk, chunks stored with a filter skipped; a damaged chunk is named. */
#include "reader_columns.h"
#include "reader_inflate.h"
#include "reader_tasks.h"

#include <check.h>

#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[256];

/* Increasing timestamps with a little noise, as start_times hold. */
static int64_t *timestamps(size_t n)
{
    int64_t *v = malloc((n ? n : 1) * sizeof *v);
    uint64_t x = 88172645463325252ull;
    int64_t t = 1700000000000000000;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        t += 20 + (int64_t)(x % 5000);
        v[i] = (i % 7 == 3) ? -t : t; /* negatives: every byte plane used */
    }
    return v;
}

/* A 1-D dataset of n values; chunk 0: contiguous; filters: 's' shuffle,
 * 'd' deflate, 'f' fletcher32, in that order. */
static void write_dataset(hid_t file, const char *name, hid_t ftype, hid_t mtype,
                          const void *data, size_t n, size_t chunk, const char *filters)
{
    hsize_t dims[1] = {n}, cdims[1] = {chunk}, unlimited[1] = {H5S_UNLIMITED};
    hid_t space = H5Screate_simple(1, dims, chunk ? unlimited : NULL); /* chunks past the end */
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (chunk) {
        H5Pset_chunk(dcpl, 1, cdims);
        for (const char *f = filters; *f; f++) {
            if (*f == 's')
                H5Pset_shuffle(dcpl);
            else if (*f == 'd')
                H5Pset_deflate(dcpl, 4);
            else if (*f == 'f')
                H5Pset_fletcher32(dcpl);
        }
    }
    hid_t d = H5Dcreate2(file, name, ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    if (n)
        ck_assert_int_ge(H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
}

/* What H5Dread makes of loc/name, as mtype. */
static void *h5_values(hid_t file, const char *name, hid_t mtype, size_t *n)
{
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    hid_t space = H5Dget_space(d);
    hsize_t dims[1] = {0};
    H5Sget_simple_extent_dims(space, dims, NULL);
    *n = (size_t)dims[0];
    void *v = malloc(*n * H5Tget_size(mtype) + 1);
    if (*n)
        ck_assert_int_ge(H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), 0);
    H5Sclose(space);
    H5Dclose(d);
    return v;
}

static const struct {
    const char *name;
    size_t n, chunk;
    const char *filters;
    bool int32, big_endian;
} sets[] = {
    {"shuffle_deflate", 300000, 4883, "sd", false, false}, /* over 1 MiB: threads */
    {"last_chunk_short", 4567, 1000, "sd", false, false},
    {"deflate_only", 1000, 333, "d", true, false},
    {"shuffle_deflate_int32", 777, 100, "sd", true, false},
    {"one_value", 1, 64, "sd", false, false},
    {"empty", 0, 64, "sd", false, false},
    {"fletcher32", 5000, 512, "sdf", false, false},   /* H5Dread's */
    {"contiguous", 5000, 0, "", false, false},        /* H5Dread's */
    {"big_endian", 5000, 512, "sd", false, true},     /* converted: H5Dread's */
    {"shuffle_only", 5000, 512, "s", false, false},   /* H5Dread's */
};
#define N_SETS (sizeof sets / sizeof sets[0])

static void write_sets(hid_t file)
{
    for (size_t i = 0; i < N_SETS; i++) {
        int64_t *v = timestamps(sets[i].n);
        int32_t *v32 = malloc((sets[i].n + 1) * sizeof *v32);
        for (size_t k = 0; k < sets[i].n; k++)
            v32[k] = (int32_t)(v[k] % 1000003);
        hid_t ftype = sets[i].int32 ? H5T_STD_I32LE
                      : sets[i].big_endian ? H5T_STD_I64BE : H5T_STD_I64LE;
        write_dataset(file, sets[i].name, ftype,
                      sets[i].int32 ? H5T_NATIVE_INT32 : H5T_NATIVE_INT64,
                      sets[i].int32 ? (void *)v32 : (void *)v, sets[i].n, sets[i].chunk,
                      sets[i].filters);
        free(v);
        free(v32);
    }
}

/* Every set read in one batch on at most max_threads threads equals
 * H5Dread's values. */
static void read_all_as_hdf5_does(size_t max_threads)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    void *data[N_SETS];
    size_t len[N_SETS];
    scope_error err = {{0}};
    column_batch *b = reader_columns_new();
    for (size_t i = 0; i < N_SETS; i++)
        ck_assert_msg(reader_columns_add(b, file, sets[i].name,
                                         sets[i].int32 ? H5T_NATIVE_INT32 : H5T_NATIVE_INT64,
                                         &data[i], &len[i], "test", &err) == 0,
                      "%s: %s", sets[i].name, err.message);
    ck_assert_msg(reader_columns_run(b, max_threads, &err) == 0, "run: %s", err.message);
    for (size_t i = 0; i < N_SETS; i++) {
        hid_t mtype = sets[i].int32 ? H5T_NATIVE_INT32 : H5T_NATIVE_INT64;
        size_t n = 0;
        void *want = h5_values(file, sets[i].name, mtype, &n);
        ck_assert_uint_eq(len[i], n);
        ck_assert_msg(n == 0 || memcmp(data[i], want, n * H5Tget_size(mtype)) == 0,
                      "%s: values differ", sets[i].name);
        ck_assert(n > 0 || data[i] == NULL);
        free(want);
        free(data[i]);
    }
    H5Fclose(file);
}

START_TEST(same_values_as_h5dread)
{
    snprintf(path, sizeof path, "/tmp/scope-columns-test-%d.h5", (int)getpid());
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    write_sets(file);
    H5Fclose(file);
    read_all_as_hdf5_does(1);
    read_all_as_hdf5_does(0); /* as many threads as the cores allow */
    unlink(path);
}
END_TEST

/* Shuffles n values of size bytes as HDF5's shuffle filter does. */
static void shuffle(unsigned char *out, const unsigned char *in, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i++)
        for (size_t b = 0; b < size; b++)
            out[b * n + i] = in[i * size + b];
}

/* Chunks written raw (H5Dwrite_chunk) with the deflate filter skipped, or
 * both filters: the mask says which, and the reader follows it; a chunk
 * that does not inflate is named. */
START_TEST(chunks_with_filters_skipped)
{
    snprintf(path, sizeof path, "/tmp/scope-columns-mask-%d.h5", (int)getpid());
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    enum { CHUNK = 64 };
    hsize_t dims[1] = {3 * CHUNK}, cdims[1] = {CHUNK};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, cdims);
    H5Pset_shuffle(dcpl);
    H5Pset_deflate(dcpl, 1);
    hid_t good = H5Dcreate2(file, "masked", H5T_STD_I64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    hid_t bad = H5Dcreate2(file, "damaged", H5T_STD_I64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int64_t *v = timestamps(3 * CHUNK);
    unsigned char shuffled[CHUNK * 8];
    int64_t *chunk1 = v + CHUNK, *chunk2 = v + 2 * CHUNK;
    shuffle(shuffled, (unsigned char *)chunk1, CHUNK, 8);
    hsize_t off[3] = {0, CHUNK, 2 * CHUNK};
    /* chunk 0 through the filters, chunk 1 shuffled only (deflate skipped:
     * mask bit 1), chunk 2 as it is (both skipped) */
    hsize_t first[1] = {CHUNK};
    hid_t mem = H5Screate_simple(1, first, NULL), sel = H5Dget_space(good);
    H5Sselect_hyperslab(sel, H5S_SELECT_SET, (hsize_t[]){0}, NULL, first, NULL);
    ck_assert_int_ge(H5Dwrite(good, H5T_NATIVE_INT64, mem, sel, H5P_DEFAULT, v), 0);
    ck_assert_int_ge(H5Dwrite_chunk(good, H5P_DEFAULT, 0x2, &off[1], sizeof shuffled, shuffled), 0);
    ck_assert_int_ge(H5Dwrite_chunk(good, H5P_DEFAULT, 0x3, &off[2], CHUNK * 8, chunk2), 0);
    unsigned char garbage[100];
    memset(garbage, 0x5a, sizeof garbage);
    for (int c = 0; c < 3; c++)
        ck_assert_int_ge(H5Dwrite_chunk(bad, H5P_DEFAULT, 0, &off[c], sizeof garbage, garbage), 0);
    H5Sclose(sel);
    H5Sclose(mem);
    H5Dclose(good);
    H5Dclose(bad);
    H5Pclose(dcpl);
    H5Sclose(space);

    scope_error err = {{0}};
    void *data = NULL;
    size_t n = 0;
    column_batch *b = reader_columns_new();
    ck_assert_int_eq(reader_columns_add(b, file, "masked", H5T_NATIVE_INT64, &data, &n, "g",
                                        &err), 0);
    ck_assert_int_eq(reader_columns_run(b, 0, &err), 0);
    ck_assert_uint_eq(n, 3 * CHUNK);
    ck_assert_mem_eq(data, v, 3 * CHUNK * sizeof *v);
    free(data);

    b = reader_columns_new();
    ck_assert_int_eq(reader_columns_add(b, file, "damaged", H5T_NATIVE_INT64, &data, &n, "g",
                                        &err), 0);
    ck_assert_int_eq(reader_columns_run(b, 0, &err), -1);
    ck_assert_str_eq(err.message, "g/damaged: chunk 0 does not inflate to its 512 bytes"
                                  " (damaged file?)");
    free(data);
    free(v);
    H5Fclose(file);
    unlink(path);
}
END_TEST

/* The shuffle's planes back to values, for the sizes with a way of their
 * own and for a tail shorter than their steps. */
START_TEST(unshuffle_sizes)
{
    const size_t sizes[] = {8, 4, 2, 3};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (size_t n = 0; n < 50; n += 7) {
            size_t size = sizes[k];
            unsigned char in[50 * 8], planes[50 * 8], out[50 * 8];
            for (size_t i = 0; i < n * size; i++)
                in[i] = (unsigned char)(i * 37 + 11);
            shuffle(planes, in, n, size);
            reader_unshuffle(out, planes, n, size);
            ck_assert_mem_eq(out, in, n * size);
        }
}
END_TEST

/* Every task runs once, on at most the threads asked for. */
static void count_task(void *ctx, size_t task, size_t thread)
{
    int *hits = ctx;
    ck_assert_uint_lt(thread, READER_MAX_THREADS);
    __atomic_add_fetch(&hits[task], 1, __ATOMIC_RELAXED);
}

START_TEST(tasks_run_once)
{
    int hits[1000] = {0};
    size_t threads = reader_task_threads(1000, 0);
    ck_assert_uint_ge(threads, 1);
    ck_assert_uint_le(threads, (size_t)sysconf(_SC_NPROCESSORS_ONLN));
    ck_assert_uint_eq(reader_task_threads(1, 0), 1);
    ck_assert_uint_eq(reader_task_threads(1000, 1), 1);
    reader_run_tasks(1000, threads, count_task, hits);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(hits[i], 1);
}
END_TEST

static Suite *columns_suite(void)
{
    Suite *s = suite_create("reader-columns");
    TCase *tc = tcase_create("columns");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, same_values_as_h5dread);
    tcase_add_test(tc, chunks_with_filters_skipped);
    tcase_add_test(tc, unshuffle_sizes);
    tcase_add_test(tc, tasks_run_once);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return scope_check_run(columns_suite());
}
