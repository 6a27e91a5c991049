/* call_stats.h: running count, total, extremes and variance of call
 * durations (Welford's method, with Chan's rule to combine two sets). The
 * writer stores them per region and rank (region_stats.c); the reader
 * combines them over ranks, or computes them for files written without. */
#ifndef SCOPE_CALL_STATS_H
#define SCOPE_CALL_STATS_H

#include <stddef.h>
#include <stdint.h>

struct call_stats {
    int64_t calls, total_ns, min_ns, max_ns, first_start_ns, last_end_ns;
    double mean_ns, m2_ns2; /* running mean; sum of squared deviations from it */
};

static inline void call_stats_add(struct call_stats *s, const int64_t *start, const int64_t *end,
                                  size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t d = end[i] - start[i];
        if (s->calls == 0) {
            s->min_ns = s->max_ns = d;
            s->first_start_ns = start[i];
            s->last_end_ns = end[i];
        }
        s->min_ns = d < s->min_ns ? d : s->min_ns;
        s->max_ns = d > s->max_ns ? d : s->max_ns;
        s->first_start_ns = start[i] < s->first_start_ns ? start[i] : s->first_start_ns;
        s->last_end_ns = end[i] > s->last_end_ns ? end[i] : s->last_end_ns;
        s->total_ns += d;
        s->calls++;
        double delta = (double)d - s->mean_ns;
        s->mean_ns += delta / (double)s->calls;
        s->m2_ns2 += delta * ((double)d - s->mean_ns);
    }
}

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

#endif
