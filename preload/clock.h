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
/* Raw reading to CLOCK_MONOTONIC ns (pure: recover uses it on saved
 * calibrations). */
int64_t scope_clock_to_ns(const struct scope_clock_calibration *c, uint64_t raw);
/* How this process's clock relates to rank 0's: offset0 measured at local
 * time t0 (MPI_Init), offset1 at t1 (MPI_Finalize); between and beyond,
 * the offset drifts linearly. All zero: the same clock. */
struct scope_clock_offsets {
    int64_t t0, offset0, t1, offset1;
};

/* This clock minus rank 0's at local time t. */
int64_t scope_clock_offset_at(const struct scope_clock_offsets *o, int64_t t);

/* "CLOCK_MONOTONIC via rdtsc" or "CLOCK_MONOTONIC". */
const char *scope_clock_name(void);

#endif
