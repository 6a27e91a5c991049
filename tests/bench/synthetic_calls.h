/* synthetic_calls.h: what the writer benchmarks share: a wall clock in
 * seconds and sorted synthetic calls, a reproducible pseudo-random
 * sequence of gaps and durations, for benchmarks that drive the writer
 * without a profiled run. */
#ifndef SCOPE_BENCH_SYNTHETIC_CALLS_H
#define SCOPE_BENCH_SYNTHETIC_CALLS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The shape of the calls: each starts gap_min + [0, gap_span) ns after the
 * previous one's start (or its end, with after_end), and lasts len_min +
 * [0, len_span) ns. */
struct synthetic_shape {
    int64_t gap_min, gap_span, len_min, len_span;
    int after_end;
};

/* n calls of that shape from `seed` (non-zero); tid, when not NULL, gets
 * thread 0 for 7 calls in 8 and one of threads 0..3 for the others. */
static inline void synthetic_calls(const struct synthetic_shape *shape, uint64_t seed, size_t n,
                                   int64_t *start, int64_t *end, int32_t *tid)
{
    int64_t t = 1000000000;
    for (size_t i = 0; i < n; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        t += shape->gap_min + (int64_t)(seed % (uint64_t)shape->gap_span);
        start[i] = t;
        end[i] = t + shape->len_min + (int64_t)((seed >> 24) % (uint64_t)shape->len_span);
        if (tid)
            tid[i] = (seed >> 40) % 8 == 0 ? (int32_t)((seed >> 44) % 4) : 0;
        if (shape->after_end)
            t = end[i];
    }
}

#endif
