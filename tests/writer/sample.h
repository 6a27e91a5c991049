/* sample.h: the two-rank file the writer tests write and then read back:
 * which regions it holds and the value of every event. */
#ifndef SCOPE_TEST_SAMPLE_H
#define SCOPE_TEST_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "scope_writer.h"

#define SAMPLE_RANKS 2
#define SAMPLE_BIG 200000      /* events of the chunked, compressed region */
#define SAMPLE_BIG_APPEND 7777 /* its events arrive in appends this large */
#define SAMPLE_SELF_NS 42      /* the self time given with the first region only */

struct sample_region {
    const char *name;
    const char *escaped;     /* its link name in the file */
    const char *symbol;      /* NULL: written as "" */
    const char *library;
    uint64_t address;
    size_t events;
};

extern const struct scope_run_info sample_run;
extern const struct sample_region sample_regions[];
extern const size_t sample_nregions;

struct scope_rank_info sample_rank(int rank);

/* The i-th event of a region of a rank. */
void sample_event(int rank, size_t region, size_t i, int64_t *start,
                  int64_t *end, int32_t *thread_id);

/* Writes the whole sample to path; -1 with err filled on failure. */
int sample_write(const char *path, char *err, size_t errlen);

#endif
