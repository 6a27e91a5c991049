/* Test fixtures for libscope-reader: profile files written with the plain
 * HDF5 C API (never through the reader), in the seed's layout. */
#ifndef SCOPE_TEST_FIXTURES_H
#define SCOPE_TEST_FIXTURES_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FX_NS 1000000000LL

hid_t fx_create(const char *path);
void fx_close(hid_t file);
/* /metadata with the attributes the tests look at; run_start_ns < 0: none. */
void fx_metadata(hid_t file, int64_t run_start_ns);
/* rank{N}/regions, created; close with H5Gclose. */
hid_t fx_rank(hid_t file, int rank);
/* One region group; n_end / n_thr may differ from n to make bad files;
 * thr == NULL: no thread_ids dataset. */
void fx_region(hid_t regions, const char *raw_name, const int64_t *start, size_t n,
               const int64_t *end, size_t n_end, const int32_t *thr, size_t n_thr);

/* The statistics attributes scope's writer adds to a region group
 * (writer/region_stats.h), given here by hand; self_ns < 0: none. */
typedef struct fx_stats {
    int64_t calls, total_ns, min_ns, max_ns, first_start_ns, last_end_ns, self_ns;
    double m2_ns2;
} fx_stats;
void fx_region_stats(hid_t regions, const char *raw_name, const fx_stats *st);
/* Adds to every region of the file at path the statistics of its calls (as
 * scope's writer would, without self_ns). */
void fx_add_stats(const char *path);

/* The tutorial's files. */
void fx_two_ranks(const char *path);            /* (a) hand-written h5py file */
void fx_tutorial(const char *path, bool run_start); /* (b)/(c) single-rank run */
extern const int64_t fx_tutorial_run_start_ns;
void fx_threads(const char *path);              /* 2 ranks x 2 threads */
void fx_empty(const char *path);                /* 1 rank, region "solve" without calls */

#endif
