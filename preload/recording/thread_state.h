/* thread_state.h: what the hot path knows: the per-thread state in
 * initial-exec TLS (buffer window and shadow stack of open calls) and the
 * few process-wide values it reads. */
#ifndef SCOPE_THREAD_STATE_H
#define SCOPE_THREAD_STATE_H

#include <stddef.h>
#include <stdint.h>
#include "call_values.h"
#include "record.h"

/* One open call: where it came from and when it started. */
struct scope_shadow_frame {
    uint64_t return_address;   /* the caller's, replaced on the stack */
    uint64_t *slot;            /* stack slot that held it: identifies the frame */
    uint64_t start;            /* raw timestamp */
    uint32_t hook;
    uint32_t stack;            /* call site of depth >= 2: 1 + interned stack, or 0 */
    uint64_t children;         /* profile mode: ticks of its hooked callees so far */
    uint32_t path;             /* profile mode: its call path (profile_table.h) */
    uint32_t returned;         /* a hook that records values: values[6] holds the */
                               /* return value (set only by its return) */
    uint64_t values[SCOPE_VALUE_SLOTS];   /* its arguments (call_values.h), written */
                               /* only for a hook that records them */
};

enum scope_thread_status {
    SCOPE_THREAD_NEW = 0,      /* first hooked call not seen yet */
    SCOPE_THREAD_ACTIVE,
    SCOPE_THREAD_OFF,          /* setting up failed, or a forked child */
    SCOPE_THREAD_FULL,         /* its buffer could not spill: calls are counted
                                  as dropped, no longer recorded */
    SCOPE_THREAD_ENDED,        /* its buffer went to the next thread: libc's
                                  teardown of the thread is not recorded */
};

struct scope_thread_buffer;
struct scope_stack_table;
struct scope_profile_table;

#define SCOPE_UNWINDS_KEPT 8

struct scope_thread {
    struct scope_record *cur;  /* next free record */
    struct scope_record *end;  /* end of the buffer window */
    struct scope_shadow_frame *sp;       /* next free frame */
    struct scope_shadow_frame *sp_base;
    struct scope_shadow_frame *sp_limit;
    uintptr_t stack_low, stack_high;     /* this thread's stack */
    struct scope_thread_buffer *buffer;
    struct scope_stack_table *stacks;    /* numbered call-site stacks (callsite_stack.c) */
    struct scope_profile_table *profile; /* profile mode: where calls are counted */
    int busy;                            /* >0 while scope's own code runs */
    int status;
    int end_rounds;                      /* of libc's thread-specific destructors */
    /* Exceptions in flight (one thrown while another unwinds, in a
     * destructor, is caught first): when each put every open call's
     * return address back, innermost last (SCOPE_UNWINDS_KEPT at most). */
    uint64_t unwind_began[SCOPE_UNWINDS_KEPT];
    const void *unwind_exception[SCOPE_UNWINDS_KEPT];
    int unwinds;
};

extern __thread struct scope_thread scope_tls __attribute__((tls_model("initial-exec")));

/* Everything below is libscope's own: declared hidden, the hot path reaches
 * it relative to rip, without a load from the GOT. */
#pragma GCC visibility push(hidden)

/* The bit of scope_hook_callsite_depth that says the hook records argument
 * or return values: the entry's fast path, which sends every hook whose
 * byte is above 1 to the slow path, sends these too, and the exit's fast
 * path tests the byte it loads anyway, so hooks without values pay nothing. */
#define SCOPE_HOOK_VALUES 0x80u
/* The bit that says the hook is an MPI function's with call sites: its
 * entry takes the slow path, which looks past a Fortran binding for the
 * call site (mpi_bindings.h). */
#define SCOPE_HOOK_MPI 0x40u
#define SCOPE_HOOK_DEPTH_MASK 0x3fu

/* Process-wide, read by the hot path. */
extern volatile int scope_recording;                 /* 0 before start and after stop */
extern uintptr_t scope_hook_targets[SCOPE_MAX_HOOKS]; /* where each hook continues */
extern uint8_t scope_hook_callsite_depth[SCOPE_MAX_HOOKS]; /* 0: no call sites; */
                                     /* | SCOPE_HOOK_VALUES: records values, */
                                     /* | SCOPE_HOOK_MPI: an MPI function's */
extern uint8_t scope_hook_values[SCOPE_MAX_HOOKS];   /* what each records (call_values.h) */
extern int scope_clock_uses_tsc;
extern uint64_t scope_xsave_size;
extern uintptr_t scope_exit_stub_address;           /* scope_exit_stub, set at start */

/* Assembly: the stubs (stubs.S), and calls out of the hot path (fpu_call.S). */
void scope_entry_common(void);
void scope_exit_stub(void);
void scope_call_saving_fpu(void (*fn)(void *), void *arg);

/* Exceptions (hot_path.c): real return addresses back on the stack before an
 * unwind (a crash's backtrace, or the exception `exception` setting off:
 * counted in flight until caught, once however many ways into the unwinder
 * it takes), exit stubs again after a catch in the frame at caller_sp. */
void scope_shadow_unhook(void);
void scope_shadow_unwind_begins(const void *exception);
void scope_shadow_rehook(uint64_t *caller_sp);
/* An unwinder passing the exit stub in `slot` (exit_unwind.c). */
void scope_shadow_unwind_through(uint64_t *slot, int ending, int thread_ends);

/* scope's MPI wrappers (hot_path.c): whether the calling thread records a
 * call now (then *now is its start), the clock, and the call of hook
 * `hook` from return_address recorded with its payload items (payload.h):
 * stored as a row with them, counted without them (profile mode, a folded
 * call), or neither (the thread stopped recording meanwhile). */
struct scope_payload_item;
enum scope_call_kept { SCOPE_CALL_DROPPED, SCOPE_CALL_STORED, SCOPE_CALL_COUNTED };
int scope_wrapped_call_begins(uint64_t *now);
uint64_t scope_wrapped_clock(void);
enum scope_call_kept scope_wrapped_call_ends(uint32_t hook, uint64_t start, uint64_t end,
                                             uint64_t return_address,
                                             const struct scope_payload_item *items,
                                             size_t nitems);
/* Defines communicator `id` (members: world ranks) in the calling thread's
 * records (record.h), if it records: 0; -1 when the thread does not
 * record now, -2 when its buffer cannot take the definition. */
int scope_record_communicator(uint32_t id, const int32_t *members, uint32_t n);

/* Ends, in the record, the calling thread's open calls (hot_path.c), just
 * before recording stops. */
void scope_end_open_calls(void);

struct scope_stack_range {
    uintptr_t low, high;       /* empty when low == high */
};

/* Slow paths, ordinary C, reached through scope_call_saving_fpu. */
void scope_thread_activate(void *thread);        /* struct scope_thread * */
void scope_thread_flush(void *thread);           /* buffer full: spill it */
void scope_thread_count_dropped(void *thread);   /* a call not recorded: shadow stack full,
                                                    or a buffer that cannot spill */
void scope_clock_read_fallback(void *out);       /* uint64_t *: CLOCK_MONOTONIC ns */
void scope_read_signal_stack(void *out);         /* struct scope_stack_range *: sigaltstack */

#pragma GCC visibility pop

#endif
