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
/* Sets rank{N}'s dropped_events (a region-less rank{N} is created first). */
void fx_rank_dropped(hid_t file, int rank, int64_t dropped);
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
void fx_many_regions(const char *path);         /* 1 rank, r00..r39, r39 the longest */
/* For scope suggest: 2 ranks, each 10 regions of many short or few long
 * calls over 99.5 ms, some with a symbol attribute (a C++ one, a clone),
 * and rank 1 a region without calls (work_idle);
 * /metadata hook_cost_ns 25, config "suggest.conf" relative to a
 * working_directory that is PATH's directory. */
void fx_suggest(const char *path);

/* Call sites (/metadata/callsite_frames, /metadata/callsites, callsite_ids):
 * frames 0 solve_step (app.c:42), 1 main (app.c:10), 2 /lib/libx.so+0x1234,
 * 3 helper+0x10 in /lib/libx.so; sites 0 [0, 1], 1 [2], 2 [1], 3 [3, 1].
 * rank 0: solve [0, 40 s] around MPI_Allreduce [10, 12] site 0, [20, 25]
 * site 1, [30, 31] site 0; rank 1: MPI_Allreduce [10, 14] site 0, [20, 21]
 * site 2, [22, 23] none. Damaged variants for the reader's checks. */
typedef enum {
    FX_SITE_OK, FX_SITE_BAD_FRAME, FX_SITE_BAD_ID, FX_SITE_SHORT_IDS, FX_SITE_NO_TABLE,
} fx_callsite_damage;
void fx_callsites(const char *path, fx_callsite_damage damage);
/* Two call sites on one line of one function (exchange, app.c:42, return
 * addresses +0x20 and +0x38), one rank: MPI_Send calls from sites 0, 1, 0
 * lasting 2, 1 and 4 s. */
void fx_callsites_same_line(const char *path);

#endif
