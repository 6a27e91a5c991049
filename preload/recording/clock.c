/* clock.c: TSC detection and calibration against CLOCK_MONOTONIC. */
#include "clock.h"
#include "thread_state.h"

#include <cpuid.h>
#include <stdlib.h>
#include <time.h>

int scope_clock_uses_tsc;

static int64_t test_shift(void)
{
    static int64_t shift = -1;
    if (shift == -1) {
        const char *v = getenv("SCOPE_TEST_CLOCK_SHIFT_NS");
        shift = v ? strtoll(v, NULL, 10) : 0;
    }
    return shift;
}

int64_t scope_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + test_shift();
}

void scope_clock_read_fallback(void *out)
{
    *(uint64_t *)out = (uint64_t)scope_monotonic_ns();
}

static int tsc_is_invariant(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000007, &a, &b, &c, &d))
        return 0;
    return (d >> 8) & 1;
}

uint64_t scope_clock_raw(void)
{
    return scope_clock_uses_tsc ? __builtin_ia32_rdtsc() : (uint64_t)scope_monotonic_ns();
}

/* A raw reading and a monotonic one taken as close together as we can:
 * the pair with the shortest bracket out of a few tries. */
static void read_pair(uint64_t *raw, int64_t *ns)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 5; i++) {
        uint64_t r0 = scope_clock_raw();
        int64_t t = scope_monotonic_ns();
        uint64_t r1 = scope_clock_raw();
        if (r1 - r0 < best) {
            best = r1 - r0;
            *raw = r0 + (r1 - r0) / 2;
            *ns = t;
        }
    }
}

int64_t scope_clock_start(struct scope_clock_calibration *c)
{
    scope_clock_uses_tsc = c->uses_tsc = tsc_is_invariant();
    read_pair(&c->raw0, &c->ns0);
    c->raw1 = c->raw0;
    c->ns1 = c->ns0;
    return c->ns0;
}

/* A calibration interval under 10 ms would make the tick rate imprecise:
 * short runs wait for the rest of it. */
void scope_clock_stop(struct scope_clock_calibration *c)
{
    const int64_t min_interval = 10 * 1000 * 1000;
    while (scope_monotonic_ns() - c->ns0 < min_interval)
        ;
    read_pair(&c->raw1, &c->ns1);
}

const char *scope_clock_name(void)
{
    return scope_clock_uses_tsc ? "CLOCK_MONOTONIC via rdtsc" : "CLOCK_MONOTONIC";
}

int64_t scope_clock_offset_at(const struct scope_clock_offsets *o, int64_t t)
{
    if (o->t1 == o->t0)
        return o->offset1;
    __int128 drift = (__int128)(o->offset1 - o->offset0) * (t - o->t0) / (o->t1 - o->t0);
    return o->offset0 + (int64_t)drift;
}

void scope_clock_map_init(struct scope_clock_map *m, const struct scope_clock_calibration *c,
                          const struct scope_clock_offsets *to_root)
{
    const unsigned __int128 one = (unsigned __int128)1 << 64;
    unsigned __int128 per_tick = one;   /* ns per raw unit, 64-bit fraction */
    int64_t ns0 = 0;
    m->raw0 = 0;
    if (c->uses_tsc) {
        int64_t span_ns = c->ns1 - c->ns0;
        uint64_t span_raw = c->raw1 - c->raw0;
        per_tick = span_ns > 0 && span_raw > 0
                       ? ((unsigned __int128)span_ns << 64) / span_raw
                       : one / 3;   /* no interval: a 3 GHz guess */
        m->raw0 = c->raw0;
        ns0 = c->ns0;
    }
    /* ns - offset(ns) has slope 1 - (offset1 - offset0) / (t1 - t0). */
    int64_t dt = to_root->t1 - to_root->t0;
    int64_t doff = to_root->offset1 - to_root->offset0;
    if (dt > 0 && doff != 0 && doff < dt)
        per_tick = per_tick / (unsigned __int128)dt * (unsigned __int128)(dt - doff) +
                   per_tick % (unsigned __int128)dt * (unsigned __int128)(dt - doff) / (unsigned __int128)dt;
    m->mult = per_tick;
    m->base = ns0 - scope_clock_offset_at(to_root, ns0);
}
