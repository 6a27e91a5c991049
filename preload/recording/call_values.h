/* call_values.h: the argument and return values a hook records ("args=1,3
 * retval" on its config line), as a mask: bit i - 1 for integer argument i
 * (1 .. 6: rdi, rsi, rdx, rcx, r8, r9), bit 6 for the return value (rax).
 * A recorded call's values follow its call record (and call-site record),
 * in the same reservation: a header (hook id SCOPE_VALUES_HOOK) with the
 * mask of the values present, then the values in mask order, two per record:
 *   header:  word0 = mask | 0xf9 << 56     word1 = n | 0xff << 56
 *   values:  word0 = value[2k]             word1 = value[2k + 1] (0 past n)
 * A values record may be all zero: the header says how many follow it (in
 * the same reservation), so none of them is taken for an unused slot.
 * A call that did not return (ended by longjmp, an exception, recording
 * stopping) has no return value in its mask. */
#ifndef SCOPE_CALL_VALUES_H
#define SCOPE_CALL_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

#define SCOPE_MAX_ARGS 6                     /* integer registers of the x86-64 SysV ABI */
#define SCOPE_VALUE_SLOTS 7                  /* arguments 1 .. 6 and the return value */
#define SCOPE_VALUE_RETVAL (1u << SCOPE_MAX_ARGS)
#define SCOPE_VALUES_HOOK 0xfff9u            /* marks the values of the call before */
_Static_assert(SCOPE_VALUES_HOOK >= SCOPE_MAX_HOOKS, "a hook id would read as a values header");

static inline size_t scope_values_count(uint32_t mask)
{
    size_t n = 0;
    for (; mask; mask &= mask - 1)
        n++;
    return n;
}

/* Records the values take: the header and the values, two per record. */
static inline size_t scope_values_records(uint32_t mask)
{
    return 1 + (scope_values_count(mask) + 1) / 2;
}

static inline int scope_record_is_values(const struct scope_record *r)
{
    return (r->start_word >> SCOPE_TIME_BITS) == 0xf9 && (r->end_word >> SCOPE_TIME_BITS) == 0xff;
}

/* The word of the k-th value after the header r. */
static inline uint64_t *scope_values_word(struct scope_record *r, size_t k)
{
    return k % 2 ? &r[1 + k / 2].end_word : &r[1 + k / 2].start_word;
}

/* Writes the values of `mask` out of value[SCOPE_VALUE_SLOTS] (slot i - 1:
 * argument i, slot 6: the return value) into r[0 .. scope_values_records). */
static inline void scope_values_encode(struct scope_record *r, uint32_t mask, const uint64_t *value)
{
    uint32_t n = (uint32_t)scope_values_count(mask);
    scope_record_encode(r, mask, n, SCOPE_VALUES_HOOK);
    size_t k = 0;
    for (int slot = 0; slot < SCOPE_VALUE_SLOTS; slot++)
        if (mask & (1u << slot))
            *scope_values_word(r, k++) = value[slot];
    if (k % 2)
        *scope_values_word(r, k) = 0;
}

#endif
