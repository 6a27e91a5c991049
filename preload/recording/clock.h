/* clock.h: scope's time base. The hot path stores raw readings (TSC ticks
 * when the TSC is invariant, CLOCK_MONOTONIC ns otherwise); a calibration
 * against CLOCK_MONOTONIC at start and stop turns them into ns. */
#ifndef SCOPE_CLOCK_H
#define SCOPE_CLOCK_H

#include <stdint.h>

struct scope_clock_calibration {
    uint64_t raw0, raw1;   /* raw readings at start and stop */
    int64_t ns0, ns1;      /* CLOCK_MONOTONIC at the same instants */
    int uses_tsc;          /* raw readings are TSC ticks, else ns */
};

/* CLOCK_MONOTONIC in ns, plus SCOPE_TEST_CLOCK_SHIFT_NS (a test-only way
 * to give one process the clock of another node). */
int64_t scope_monotonic_ns(void);
uint64_t scope_clock_raw(void);

/* Decides TSC or fallback, takes the start point. Returns the start in ns. */
int64_t scope_clock_start(struct scope_clock_calibration *c);
/* Takes the stop point (may be called again later to refine). */
void scope_clock_stop(struct scope_clock_calibration *c);
/* How this process's clock relates to rank 0's: offset0 measured at local
 * time t0 (MPI_Init), offset1 at t1 (MPI_Finalize); between and beyond,
 * the offset drifts linearly. All zero: the same clock. */
struct scope_clock_offsets {
    int64_t t0, offset0, t1, offset1;
};

/* This clock minus rank 0's at local time t. */
int64_t scope_clock_offset_at(const struct scope_clock_offsets *o, int64_t t);

/* Raw readings straight to rank 0's CLOCK_MONOTONIC ns: the calibration
 * and the offsets folded into one affine map with a 64-bit fraction, so
 * converting millions of events costs a multiply each, not divisions:
 *   ns = base + round((raw - raw0) * mult / 2^64) */
struct scope_clock_map {
    uint64_t raw0;
    int64_t base;
    unsigned __int128 mult;
};

void scope_clock_map_init(struct scope_clock_map *m, const struct scope_clock_calibration *c,
                          const struct scope_clock_offsets *to_root);

static inline int64_t scope_clock_map_apply(const struct scope_clock_map *m, uint64_t raw)
{
    const unsigned __int128 half = (unsigned __int128)1 << 63;   /* round to nearest */
    __int128 d = (__int128)raw - (__int128)m->raw0;
    __int128 scaled = d >= 0 ? (__int128)(((unsigned __int128)d * m->mult + half) >> 64)
                             : -(__int128)(((unsigned __int128)-d * m->mult + half) >> 64);
    return m->base + (int64_t)scaled;
}

/* "CLOCK_MONOTONIC via rdtsc" or "CLOCK_MONOTONIC". */
const char *scope_clock_name(void);

#endif
