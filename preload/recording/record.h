/* record.h: the 16-byte record scope appends for every completed call, and
 * its decoding. Both words hold a 56-bit timestamp (TSC ticks or ns) and one
 * byte of the 16-bit hook id:
 *   word0 = start | (id & 0xff) << 56      word1 = end | (id >> 8) << 56
 * An all-zero record is an unused slot (a timestamp is never zero).
 *
 * A call of a hook that records call sites is followed, in the same
 * reservation (so nothing can come between them), by a call-site record
 * whose hook id is SCOPE_CALLSITE_HOOK:
 *   word0 = return address | 0xff << 56   (the caller: depth 1)
 *   word1 = stack | 0xff << 56            (0, or 1 + the thread's interned
 *                                          stack of depth >= 2)
 *
 * A thread defines stack s (its numbering; it may start again from 0 when
 * its table is full, redefining the numbers) before any call-site record
 * uses it, by one reservation of 1 + ceil(n / 2) records: a header whose
 * hook id is SCOPE_STACKDEF_HOOK, then the n return addresses (innermost
 * first; user-space addresses fit in 56 bits), two per record:
 *   header:  word0 = s | 0xfe << 56       word1 = n | 0xff << 56
 *   payload: word0 = addr[2k]              word1 = addr[2k + 1] (0 past n)
 *
 * A buffer outlives its thread: when a thread ends, the next new thread
 * records on into it. Its records then begin with a thread-start record
 * (hook id SCOPE_THREADSTART_HOOK) naming it:
 *   word0 = thread number | 0xfd << 56    word1 = kernel tid | 0xff << 56
 * Stack numbers belong to the buffer, not the thread: a stack defined
 * before a thread-start record keeps its number after it.
 *
 * Calls still open when a thread stops recording (its end, exec, exit,
 * finalize) end then, all at one time T, after an unfinished record that
 * says so (hook id SCOPE_UNFINISHED_HOOK); the next n calls of the thread
 * that end at T are those (a signal handler's call between them ends
 * elsewhen):
 *   word0 = T | 0xfc << 56                word1 = n | 0xff << 56
 *
 * A call of an MPI function recorded with what it carried (payload.h) is
 * followed, after its call-site record and in the same reservation, by a
 * payload header (hook id SCOPE_PAYLOAD_HOOK) and its n items, one record
 * each (payload.h: an item's word0 is never 0):
 *   header:  word0 = n | 0xfb << 56       word1 = 0 | 0xff << 56
 * A communicator the process takes part in is defined, before any item
 * names it, by one reservation: a header (hook id SCOPE_COMMDEF_HOOK) then
 * its n members as world ranks, four 32-bit ranks per record:
 *   header:  word0 = id | 0xfa << 56      word1 = n | 0xff << 56 */
#ifndef SCOPE_RECORD_H
#define SCOPE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#define SCOPE_TIME_BITS 56
#define SCOPE_TIME_MASK ((UINT64_C(1) << SCOPE_TIME_BITS) - 1)
#define SCOPE_MAX_HOOKS 65529               /* ids 0 .. 65528; 0xfff9 .. 0xffff mark */
#define SCOPE_CALLSITE_HOOK 0xffffu          /* marks a call-site record */
#define SCOPE_STACKDEF_HOOK 0xfffeu          /* marks a stack definition */
#define SCOPE_THREADSTART_HOOK 0xfffdu       /* marks the start of a thread */
#define SCOPE_UNFINISHED_HOOK 0xfffcu        /* calls ended when recording stopped */
#define SCOPE_PAYLOAD_HOOK 0xfffbu           /* marks the payload of the call before */
#define SCOPE_COMMDEF_HOOK 0xfffau           /* marks a communicator's definition */
#define SCOPE_CALLSITE_MAX_DEPTH 16          /* frames of the deepest stack */
#define SCOPE_THREAD_STACKS 4096             /* a thread numbers stacks below this */

struct scope_record {
    uint64_t start_word;
    uint64_t end_word;
};

static inline void scope_record_encode(struct scope_record *r, uint64_t start,
                                       uint64_t end, uint32_t id)
{
    r->start_word = (start & SCOPE_TIME_MASK) | ((uint64_t)(id & 0xff) << SCOPE_TIME_BITS);
    r->end_word = (end & SCOPE_TIME_MASK) | ((uint64_t)((id >> 8) & 0xff) << SCOPE_TIME_BITS);
}

static inline void scope_callsite_encode(struct scope_record *r, uint64_t return_address,
                                         uint64_t stack)
{
    scope_record_encode(r, return_address, stack, SCOPE_CALLSITE_HOOK);
}

static inline int scope_record_is_callsite(const struct scope_record *r)
{
    return (r->start_word >> SCOPE_TIME_BITS) == 0xff && (r->end_word >> SCOPE_TIME_BITS) == 0xff;
}

/* The header of the definition of stack s of n addresses; its payload is
 * scope_stackdef_records(n) - 1 records. */
static inline void scope_stackdef_encode(struct scope_record *r, uint32_t s, uint32_t n)
{
    scope_record_encode(r, s, n, SCOPE_STACKDEF_HOOK);
}

static inline int scope_record_is_stackdef(const struct scope_record *r)
{
    return (r->start_word >> SCOPE_TIME_BITS) == 0xfe && (r->end_word >> SCOPE_TIME_BITS) == 0xff;
}

static inline void scope_threadstart_encode(struct scope_record *r, uint32_t thread,
                                            uint32_t tid)
{
    scope_record_encode(r, thread, tid, SCOPE_THREADSTART_HOOK);
}

static inline int scope_record_is_threadstart(const struct scope_record *r)
{
    return (r->start_word >> SCOPE_TIME_BITS) == 0xfd && (r->end_word >> SCOPE_TIME_BITS) == 0xff;
}

static inline void scope_unfinished_encode(struct scope_record *r, uint64_t end, uint32_t n)
{
    scope_record_encode(r, end, n, SCOPE_UNFINISHED_HOOK);
}

static inline int scope_record_is_unfinished(const struct scope_record *r)
{
    return (r->start_word >> SCOPE_TIME_BITS) == 0xfc && (r->end_word >> SCOPE_TIME_BITS) == 0xff;
}

static inline void scope_payload_header_encode(struct scope_record *r, uint32_t n)
{
    scope_record_encode(r, n, 0, SCOPE_PAYLOAD_HOOK);
}

static inline int scope_record_is_payload(const struct scope_record *r)
{
    return (r->start_word >> SCOPE_TIME_BITS) == 0xfb && (r->end_word >> SCOPE_TIME_BITS) == 0xff;
}

/* The header of the definition of communicator `id` of n members; its
 * members follow in scope_commdef_records(n) - 1 records. */
static inline void scope_commdef_encode(struct scope_record *r, uint32_t id, uint32_t n)
{
    scope_record_encode(r, id, n, SCOPE_COMMDEF_HOOK);
}

static inline int scope_record_is_commdef(const struct scope_record *r)
{
    return (r->start_word >> SCOPE_TIME_BITS) == 0xfa && (r->end_word >> SCOPE_TIME_BITS) == 0xff;
}

static inline size_t scope_commdef_records(size_t n)
{
    return 1 + (n + 3) / 4;
}

static inline size_t scope_stackdef_records(size_t n)
{
    return 1 + (n + 1) / 2;
}

static inline int scope_record_is_empty(const struct scope_record *r)
{
    return r->start_word == 0 && r->end_word == 0;
}

/* Widens a 56-bit timestamp back to 64 bits, given `base`, a full timestamp
 * taken no later than it (the run's first reading). */
static inline uint64_t scope_time_unwrap(uint64_t t56, uint64_t base)
{
    uint64_t full = (base & ~SCOPE_TIME_MASK) | t56;
    return full < base ? full + (UINT64_C(1) << SCOPE_TIME_BITS) : full;
}

static inline void scope_record_decode(const struct scope_record *r, uint64_t base,
                                       uint64_t *start, uint64_t *end, uint32_t *id)
{
    *start = scope_time_unwrap(r->start_word & SCOPE_TIME_MASK, base);
    *end = scope_time_unwrap(r->end_word & SCOPE_TIME_MASK, base);
    *id = (uint32_t)(r->start_word >> SCOPE_TIME_BITS) |
          (uint32_t)(r->end_word >> SCOPE_TIME_BITS) << 8;
}

#endif
