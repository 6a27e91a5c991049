/* call_stats.h: running count, total, extremes and variance of call
 * durations, added a batch at a time: the batch's mean first, then its
 * squared deviations from it (two passes, no division per call), combined
 * with what came before by Chan's rule. The writer stores them per region
 * and rank (region_stats.c); the reader combines them over ranks, or
 * computes them for files written without. */
#ifndef SCOPE_CALL_STATS_H
#define SCOPE_CALL_STATS_H

#include <stddef.h>
#include <stdint.h>

struct call_stats {
    int64_t calls, total_ns, min_ns, max_ns, first_start_ns, last_end_ns;
    double mean_ns, m2_ns2; /* running mean; sum of squared deviations from it */
};

/* into += from */
static inline void call_stats_merge(struct call_stats *into, const struct call_stats *from)
{
    if (from->calls == 0)
        return;
    if (into->calls == 0) {
        *into = *from;
        return;
    }
    double na = (double)into->calls, nb = (double)from->calls;
    double delta = from->mean_ns - into->mean_ns;
    into->m2_ns2 += from->m2_ns2 + delta * delta * na * nb / (na + nb);
    into->mean_ns += delta * nb / (na + nb);
    into->calls += from->calls;
    into->total_ns += from->total_ns;
    into->min_ns = from->min_ns < into->min_ns ? from->min_ns : into->min_ns;
    into->max_ns = from->max_ns > into->max_ns ? from->max_ns : into->max_ns;
    into->first_start_ns =
        from->first_start_ns < into->first_start_ns ? from->first_start_ns : into->first_start_ns;
    into->last_end_ns =
        from->last_end_ns > into->last_end_ns ? from->last_end_ns : into->last_end_ns;
}

/* Adds the n calls start[i] .. end[i]. */
static inline void call_stats_add(struct call_stats *s, const int64_t *start, const int64_t *end,
                                  size_t n)
{
    if (n == 0)
        return;
    struct call_stats b = {.calls = (int64_t)n, .min_ns = INT64_MAX, .max_ns = INT64_MIN,
                           .first_start_ns = INT64_MAX, .last_end_ns = INT64_MIN};
    for (size_t i = 0; i < n; i++) {
        int64_t d = end[i] - start[i];
        b.min_ns = d < b.min_ns ? d : b.min_ns;
        b.max_ns = d > b.max_ns ? d : b.max_ns;
        b.first_start_ns = start[i] < b.first_start_ns ? start[i] : b.first_start_ns;
        b.last_end_ns = end[i] > b.last_end_ns ? end[i] : b.last_end_ns;
        b.total_ns += d;
    }
    b.mean_ns = (double)b.total_ns / (double)n;
    double m2[4] = {0, 0, 0, 0};   /* four sums: the additions need not wait on each other */
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (size_t k = 0; k < 4; k++) {
            double dev = (double)(end[i + k] - start[i + k]) - b.mean_ns;
            m2[k] += dev * dev;
        }
    for (; i < n; i++) {
        double dev = (double)(end[i] - start[i]) - b.mean_ns;
        m2[0] += dev * dev;
    }
    b.m2_ns2 = (m2[0] + m2[1]) + (m2[2] + m2[3]);
    call_stats_merge(s, &b);
}

#endif
