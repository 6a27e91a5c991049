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

int64_t scope_monotonic_ns(void);
uint64_t scope_clock_raw(void);

/* Decides TSC or fallback, takes the start point. Returns the start in ns. */
int64_t scope_clock_start(struct scope_clock_calibration *c);
/* Takes the stop point (may be called again later to refine). */
void scope_clock_stop(struct scope_clock_calibration *c);
/* Raw reading to CLOCK_MONOTONIC ns (pure: recover uses it on saved
 * calibrations). */
int64_t scope_clock_to_ns(const struct scope_clock_calibration *c, uint64_t raw);
/* "CLOCK_MONOTONIC via rdtsc" or "CLOCK_MONOTONIC". */
const char *scope_clock_name(void);

#endif
