/* callsite_stack.h: the stack of a new call whose hook records call sites
 * deeper than its caller: libunwind's local unwinding from scope's entry
 * path out to the call's caller and beyond, and the thread's numbering of
 * the stacks it has seen (record.h: each is defined once in the record
 * stream before its number is used). Ordinary C, reached from the hot path
 * through scope_call_saving_fpu. */
#ifndef SCOPE_CALLSITE_STACK_H
#define SCOPE_CALLSITE_STACK_H

#include <stdint.h>

#include "record.h"

struct scope_thread;

struct scope_stack_capture {
    struct scope_thread *thread;   /* in: the calling thread */
    const uint64_t *slot;          /* in: the new call's return-address slot */
    uint32_t depth;                /* in: frames wanted, 2 .. SCOPE_CALLSITE_MAX_DEPTH */
    int keep_numbers;              /* in: a full table numbers no new stack (n is 0) */
                                   /* rather than start again from 0 (profile mode: */
                                   /* its paths keep the numbers, profile_table.h) */
    uint32_t n;                    /* out: frames found; 0: none (the caller alone) */
    uint64_t addrs[SCOPE_CALLSITE_MAX_DEPTH]; /* out: return addresses, the caller's first */
    uint32_t number;               /* out: the thread's number for them */
    int is_new;                    /* out: the number must be defined before use */
    int met_exit_stub;             /* out: an open call's return address was still
                                      scope_exit_stub: nothing was numbered */
};

/* Frames of scope's own entry path the unwind passes before the caller, at most. */
#define SCOPE_CALLSITE_OWN_FRAMES 16

/* Fills the out fields of the struct scope_stack_capture at arg. The return
 * addresses of the open hooked calls the unwind passes must be back on the
 * stack; when one is not, met_exit_stub says so and n is 0. */
void scope_callsite_capture(void *arg) __attribute__((visibility("hidden")));

#endif
