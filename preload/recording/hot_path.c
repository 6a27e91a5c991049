/* hot_path.c: the hot path, called by the stubs on every entry and exit of a
 * hooked function. Compiled with -mgeneral-regs-only: it must not touch any
 * floating-point or vector register, because those carry the hooked
 * function's arguments and return values. Anything that needs ordinary C
 * (allocation, I/O) goes through call_out. */
#include "thread_state.h"
#include "callsite_stack.h"
#include "mpi_bindings.h"
#include "fold.h"
#include "profile_table.h"
#include "context_stacks.h"
#include "payload.h"

#include <stddef.h>
#include <stdlib.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Calls fn(arg) out of the hot path: ordinary C, the vector registers
 * saved, the thread marked busy, so that a hooked function it reaches
 * (sysconf, clock_gettime, ... when the config hooks libc) runs through
 * unrecorded instead of coming back in here. */
static inline void call_out(struct scope_thread *t, void (*fn)(void *), void *arg)
{
    t->busy++;
    scope_call_saving_fpu(fn, arg);
    t->busy--;
}

static inline uint64_t now_raw(void)
{
    if (__builtin_expect(scope_clock_uses_tsc, 1))
        return __builtin_ia32_rdtsc();
    uint64_t t;
    call_out(&scope_tls, scope_clock_read_fallback, &t);
    return t;
}

/* Takes the next n record slots in one instruction (xadd without lock:
 * atomic against a signal handler on this thread, which is all that can
 * interleave), so a handler that records takes others. May return slots
 * past the end when a handler filled the buffer meanwhile. */
static inline struct scope_record *reserve(struct scope_thread *t, size_t n)
{
    uintptr_t slot = n * sizeof(struct scope_record);
    __asm__ volatile("xaddq %0, %1" : "+r"(slot), "+m"(t->cur) : : "memory");
    return (struct scope_record *)slot;
}

/* Record slots a call of hook takes: 2 with its call site. */
static inline size_t record_slots(uint32_t hook)
{
    return scope_hook_callsite_depth[hook] & SCOPE_HOOK_DEPTH_MASK ? 2 : 1;
}

/* Where scope_entry_common saved the register of argument i + 1, below the
 * frame it passes (stubs.S pushes rax, rcx, rdx, rsi, rdi, r8, r9 in turn);
 * the exit stub saved rax at caller_sp[-2]. */
static const int8_t saved_argument[SCOPE_MAX_ARGS] = {-5, -4, -3, -2, -6, -7};
#define SAVED_RETURN_VALUE (-2)

/* The arguments hook records, from the registers saved below `frame`, into
 * the call's frame f. */
static inline void take_arguments(struct scope_shadow_frame *f, const uint64_t *frame,
                                  uint32_t hook)
{
    uint32_t values = scope_hook_values[hook];
    for (int i = 0; i < SCOPE_MAX_ARGS; i++)
        if (values & (1u << i))
            f->values[i] = frame[saved_argument[i]];
    f->returned = 0;
}

/* The values frame f's call records: its hook's, but the return value
 * when the call did not return. */
static inline uint32_t frame_values(const struct scope_shadow_frame *f)
{
    uint32_t values = scope_hook_values[f->hook];
    return f->returned ? values : values & ~SCOPE_VALUE_RETVAL;
}

static inline int fits(const struct scope_thread *t, const struct scope_record *r, size_t n)
{
    return r < t->end && (size_t)(t->end - r) >= n;
}

static inline void encode_call(struct scope_record *r, const struct scope_shadow_frame *f,
                               uint64_t end, size_t n)
{
    scope_record_encode(r, f->start, end, f->hook);
    if (n == 2)
        scope_callsite_encode(r + 1, f->return_address, f->stack);
}

/* n free record slots in one reservation, spilling a full buffer first;
 * NULL when the thread's records cannot go anywhere any more. */
static inline struct scope_record *take_slots(struct scope_thread *t, size_t n)
{
    for (;;) {
        if (unlikely(!fits(t, t->cur, n))) {
            call_out(t, scope_thread_flush, t);
            if (!fits(t, t->cur, n))
                return NULL;
        }
        struct scope_record *r = reserve(t, n);
        if (likely(fits(t, r, n)))
            return r;
    }
}

/* Profile mode: counts the call of frame f, ending at `end`, in the
 * thread's table, its time in the children of `caller` (NULL: none). Busy
 * meanwhile: a signal handler's hooked call passes through unrecorded
 * instead of updating the same counters half way. */
static inline void profile_call(struct scope_thread *t, const struct scope_shadow_frame *f,
                                struct scope_shadow_frame *caller, uint64_t end)
{
    t->busy++;
    __asm__ volatile("" ::: "memory");
    uint64_t d = scope_profile_add(t->profile, f->hook, f->path, f->start, end, f->children);
    if (caller)
        caller->children += d;
    __asm__ volatile("" ::: "memory");
    t->busy--;
}

/* Records the call of frame f, ending at `end`, followed by the values of
 * mask `values` (call_values.h) and by its payload header and items when it
 * carries any (items non-NULL: the calls of scope's MPI wrappers), all in
 * one reservation; counts it as dropped when the buffer can take no more. */
static inline void emit_carrying(struct scope_thread *t, const struct scope_shadow_frame *f,
                                 uint64_t end, uint32_t values,
                                 const struct scope_payload_item *items, size_t nitems)
{
    if (!scope_recording)
        return;
    size_t call = record_slots(f->hook), extra = items ? 1 + nitems : 0;
    size_t n = call + (values ? scope_values_records(values) : 0);
    struct scope_record *r = take_slots(t, n + extra);
    if (!r) {
        call_out(t, scope_thread_count_dropped, t);
        return;
    }
    encode_call(r, f, end, call);
    if (values)
        scope_values_encode(r + call, values, f->values);
    if (!items)
        return;
    scope_payload_header_encode(r + n, (uint32_t)nitems);
    for (size_t i = 0; i < nitems; i++)
        scope_item_encode(r + n + 1 + i, &items[i]);
}

/* Trace mode with folding (fold.h): the call of frame f, ending at `end`,
 * is counted in the thread's table when it may be folded and is short,
 * else recorded (with the values of mask `values` and its payload items,
 * if any), its self time added to the table; either way its time counts in
 * its caller's children. */
static enum scope_call_kept fold_or_record(struct scope_thread *t, struct scope_shadow_frame *f,
                                           struct scope_shadow_frame *caller, uint64_t end,
                                           uint32_t values, const struct scope_payload_item *items,
                                           size_t nitems, int may_fold)
{
    if (!scope_recording)
        return SCOPE_CALL_DROPPED;
    uint64_t d = end > f->start ? end - f->start : 0;
    if (may_fold && d < scope_fold_below) {
        f->path = SCOPE_PROFILE_NO_PATH;
        profile_call(t, f, caller, end);
        return SCOPE_CALL_COUNTED;
    }
    t->busy++;
    __asm__ volatile("" ::: "memory");
    scope_profile_keep(t->profile, f->hook, d, f->children);
    if (caller)
        caller->children += d;
    __asm__ volatile("" ::: "memory");
    t->busy--;
    emit_carrying(t, f, end, values, items, nitems);
    return SCOPE_CALL_STORED;
}

/* A frame of the shadow stack ends: counted in profile mode, else
 * recorded (or folded). */
static inline void emit(struct scope_thread *t, struct scope_shadow_frame *f, uint64_t end)
{
    if (scope_profile_mode && scope_recording)
        profile_call(t, f, f > t->sp_base ? f - 1 : NULL, end);
    else if (scope_fold_active)
        fold_or_record(t, f, f > t->sp_base ? f - 1 : NULL, end, frame_values(f), NULL, 0, 1);
    else
        emit_carrying(t, f, end, frame_values(f), NULL, 0);
}

static inline int on_this_stack(const struct scope_thread *t, const void *p)
{
    return (uintptr_t)p >= t->stack_low && (uintptr_t)p < t->stack_high;
}

/* Which stack `p` lies on, as far as scope knows without a system call:
 * 3 + i the i-th stack given to makecontext (checked first: a coroutine's
 * stack may be an array on the thread's), 1 this thread's, 0 unknown. */
static size_t known_stack(const struct scope_thread *t, const void *p)
{
    size_t context = scope_context_stack_of((uintptr_t)p);
    if (context)
        return 2 + context;
    return on_this_stack(t, p) ? 1 : 0;
}

/* Frames left open by longjmp or an exception that skipped their return lie
 * at or below the new call's stack slot, on its stack: close them now. */
static void close_dead_frames(struct scope_thread *t, uint64_t *slot, uint64_t now)
{
    while (t->sp > t->sp_base) {
        struct scope_shadow_frame *top = t->sp - 1;
        int dead = top->slot < slot ||
                   (top->slot == slot && *slot != (uint64_t)scope_exit_stub_address);
        size_t stack = dead ? known_stack(t, slot) : 0;
        if (!stack || known_stack(t, top->slot) != stack)
            return;
        emit(t, top, now);
        t->sp = top;
    }
}

/* Profile mode keys a call's path by its call site when its hook records
 * them: the caller's return address, else 0. */
static inline uint64_t site_caller(uint32_t hook, uint64_t return_address)
{
    return scope_hook_callsite_depth[hook] & SCOPE_HOOK_DEPTH_MASK ? return_address : 0;
}

/* Opens a frame. Marked busy while the frame is half written: a signal
 * handler that calls a hooked function in that window passes through
 * unrecorded instead of taking the same frame. */
static inline void push_frame(struct scope_thread *t, uint64_t *slot, uint32_t hook, uint64_t now,
                              uint32_t stack)
{
    struct scope_shadow_frame *f = t->sp;
    t->busy = 1;
    __asm__ volatile("" ::: "memory");
    f->return_address = *slot;
    f->slot = slot;
    f->hook = hook;
    f->start = now;
    f->stack = stack;
    if (scope_profile_tables) {
        f->children = 0;
        f->path = scope_profile_mode
                      ? scope_profile_path_of(t->profile, f > t->sp_base ? (f - 1)->path
                                                                         : SCOPE_PROFILE_ROOT,
                                              hook, site_caller(hook, f->return_address), stack)
                      : SCOPE_PROFILE_NO_PATH;
    }
    t->sp = f + 1;
    *slot = (uint64_t)scope_exit_stub_address;
    __asm__ volatile("" ::: "memory");
    t->busy = 0;
}

/* Real return addresses back in the slots of the `count` most recent open
 * calls (all of them: SIZE_MAX), so that an unwinder can pass them. */
static void unhook_recent_frames(struct scope_thread *t, size_t count)
{
    for (struct scope_shadow_frame *f = t->sp; f > t->sp_base && count > 0; f--, count--)
        if (*(f - 1)->slot == (uint64_t)scope_exit_stub_address)
            *(f - 1)->slot = (f - 1)->return_address;
}

/* When the innermost exception still in flight began to unwind, 0 when
 * none is: the calls open then are the ones it passes, and its unwinder
 * must not meet an exit stub in their slots (in its second phase it would
 * take the stub for the handler's frame and abort). */
static uint64_t innermost_unwind(const struct scope_thread *t)
{
    if (t->unwinds == 0)
        return 0;
    return t->unwind_began[(t->unwinds < SCOPE_UNWINDS_KEPT ? t->unwinds : SCOPE_UNWINDS_KEPT) - 1];
}

/* Exit stubs back in the slots of the `count` most recent open calls (all:
 * SIZE_MAX) whose real return addresses an unhook put back, except those
 * an exception in flight passes. */
static void rehook_recent_frames(struct scope_thread *t, size_t count)
{
    uint64_t floor = innermost_unwind(t);
    for (struct scope_shadow_frame *f = t->sp; f > t->sp_base && count > 0; f--, count--)
        if ((f - 1)->start > floor && *(f - 1)->slot == (f - 1)->return_address)
            *(f - 1)->slot = (uint64_t)scope_exit_stub_address;
}

/* The stack of the call whose return-address slot is `slot`, `depth`
 * frames at most, as 1 + the thread's number for it (defined in the record
 * stream first if new), or 0 when it could not be had: the call site is
 * then its caller alone. Busy all along, so that a signal handler's hooked
 * call cannot use the number before its definition is in the buffer.
 * The unwind passes scope's own frames, then `depth` frames: only the most
 * recent open calls can be among them, so only their return addresses are
 * put back (a recursion a million deep costs no more than a shallow one);
 * when the unwind still met an exit stub (the open calls of another
 * context lay in between), it is done again with all of them put back. */
static uint32_t number_stack(struct scope_thread *t, uint64_t *slot, uint32_t depth)
{
    struct scope_stack_capture c;   /* no initializer: it could call memset */
    c.thread = t;
    c.slot = slot;
    c.depth = depth;
    c.keep_numbers = scope_profile_mode;
    t->busy = 1;
    size_t unhooked = (size_t)depth + SCOPE_CALLSITE_OWN_FRAMES;
    unhook_recent_frames(t, unhooked);
    call_out(t, scope_callsite_capture, &c);
    if (c.met_exit_stub) {
        unhooked = SIZE_MAX;
        unhook_recent_frames(t, unhooked);
        call_out(t, scope_callsite_capture, &c);
    }
    rehook_recent_frames(t, unhooked);
    uint32_t stack = c.n ? 1 + c.number : 0;
    if (c.n && c.is_new) {
        size_t n = scope_stackdef_records(c.n);
        struct scope_record *r = take_slots(t, n);
        if (r) {   /* header first: a crash half way leaves no payload undefined */
            scope_stackdef_encode(r, c.number, c.n);
            for (size_t i = 0; i + 1 < n; i++) {
                r[1 + i].start_word = c.addrs[2 * i];
                r[1 + i].end_word = 2 * i + 1 < c.n ? c.addrs[2 * i + 1] : 0;
            }
        } else {
            stack = 0;
        }
    }
    t->busy = 0;
    return stack;
}

/* Whether thread t records a call now: activated at its first call; a
 * thread whose buffer could not spill counts the call as dropped. */
static inline int ready_to_record(struct scope_thread *t)
{
    if (t->status != SCOPE_THREAD_ACTIVE) {
        if (t->status == SCOPE_THREAD_FULL && !t->busy && scope_recording)
            call_out(t, scope_thread_count_dropped, t);
        if (t->status != SCOPE_THREAD_NEW || t->busy || !scope_recording)
            return 0;
        call_out(t, scope_thread_activate, t);
        if (t->status != SCOPE_THREAD_ACTIVE)
            return 0;
    }
    return !t->busy && scope_recording;
}

/* Everything the fast path below does not handle: the thread's first
 * call, recursion into scope, recording off, no TSC, dead frames, a full
 * shadow stack. Kept out of line so the fast path saves no registers. */
static __attribute__((noinline, cold)) int entry_slow(struct scope_thread *t, uint64_t *frame,
                                                      uint32_t hook)
{
    if (!ready_to_record(t))
        return 0;
    uint64_t *slot = &frame[1];
    uint64_t now = now_raw();
    if (t->sp > t->sp_base && (t->sp - 1)->slot <= slot)
        close_dead_frames(t, slot, now);
    if (t->sp == t->sp_limit) {
        call_out(t, scope_thread_count_dropped, t);
        return 0;
    }
    uint32_t stack = 0;
    uint32_t recording = scope_hook_callsite_depth[hook];
    uint32_t depth = recording & SCOPE_HOOK_DEPTH_MASK;
    if ((recording & SCOPE_HOOK_MPI) && scope_in_binding(*slot)) {
        depth += SCOPE_BINDING_FRAMES;   /* on, past the binding (mpi_bindings.h) */
        depth = depth < SCOPE_CALLSITE_MAX_DEPTH ? depth : SCOPE_CALLSITE_MAX_DEPTH;
    }
    if (depth > 1) {
        stack = number_stack(t, slot, depth);
        now = now_raw();   /* the unwind is not the call's time */
    }
    push_frame(t, slot, hook, now, stack);
    if (scope_hook_values[hook])
        take_arguments(t->sp - 1, frame, hook);
    return 1;
}

/* Non-zero when the call is recorded: its return goes to scope_exit_stub. */
__attribute__((visibility("hidden"))) int scope_on_entry(uint64_t *frame)
{
    struct scope_thread *t = &scope_tls;
    uint32_t hook = (uint32_t)frame[0];
    uint64_t *slot = &frame[1];
    struct scope_shadow_frame *f = t->sp;
    frame[0] = scope_hook_targets[hook];
    if (unlikely(t->status != SCOPE_THREAD_ACTIVE || t->busy || !scope_recording ||
                 !scope_clock_uses_tsc || f == t->sp_limit ||
                 (f > t->sp_base && (f - 1)->slot <= slot) ||
                 scope_hook_callsite_depth[hook] > 1)) {
        return entry_slow(t, frame, hook);
    }
    push_frame(t, slot, hook, __builtin_ia32_rdtsc(), 0);
    return 1;
}

/* The general exit: frames above ours were skipped (longjmp past them) and
 * end now; the buffer may be full; recording may be off. */
/* The open frame whose return-address slot is `slot`, or NULL. */
static struct scope_shadow_frame *frame_of_slot(struct scope_thread *t, const uint64_t *slot)
{
    for (struct scope_shadow_frame *f = t->sp; f > t->sp_base; f--)
        if ((f - 1)->slot == slot)
            return f - 1;
    return NULL;
}

/* Ends, at `now`, frame f and every deeper one still open, and gives them up. */
static void end_frames_down_to(struct scope_thread *t, struct scope_shadow_frame *f, uint64_t now)
{
    for (struct scope_shadow_frame *g = t->sp - 1; g >= f; g--)
        emit(t, g, now);
    t->sp = f;
}

/* Ends, at `now`, the open calls above frame f, innermost first, after a
 * record that marks them unfinished: they did not return, they end as
 * recording stops or as their thread ends under them. */
static void end_unfinished(struct scope_thread *t, const struct scope_shadow_frame *f,
                           uint64_t now)
{
    if (!scope_recording || t->sp == f)
        return;
    struct scope_record *r = scope_profile_mode ? NULL : take_slots(t, 1);
    if (r)
        scope_unfinished_encode(r, now, (uint32_t)(t->sp - f));
    /* folding keeps them all: the record above counts them */
    for (struct scope_shadow_frame *g = t->sp; g > f; g--)
        if (scope_fold_active)
            fold_or_record(t, g - 1, g - 1 > t->sp_base ? g - 2 : NULL, now,
                           frame_values(g - 1), NULL, 0, 0);
        else
            emit(t, g - 1, now);
}

/* known_stack(), or 2 for the signal stack; 0 still means unknown. */
static size_t stack_kind(const struct scope_thread *t, const struct scope_stack_range *signal_stack,
                         const void *p)
{
    size_t known = known_stack(t, p);
    if (known)
        return known;
    return (uintptr_t)p >= signal_stack->low && (uintptr_t)p < signal_stack->high ? 2 : 0;
}

/* Frame f returns while frames opened after it are still open. Those on
 * f's stack were skipped (longjmp past them) and end now; those on another
 * stack belong to a context that swapcontext left and may resume: they
 * stay open, moved down into f's place. So do those on a stack scope does
 * not know (a hand-written context switch): ending a call that is still
 * open would leave its return without a frame. */
static void end_frames_skipped_by(struct scope_thread *t, struct scope_shadow_frame *f,
                                  uint64_t now)
{
    struct scope_stack_range signal_stack;
    call_out(t, scope_read_signal_stack, &signal_stack);
    size_t kind = stack_kind(t, &signal_stack, f->slot);
    struct scope_shadow_frame *kept = f;
    emit(t, f, now);
    for (struct scope_shadow_frame *g = f + 1; g < t->sp; g++) {
        if (kind && stack_kind(t, &signal_stack, g->slot) == kind)
            emit(t, g, now);
        else
            *kept++ = *g;
    }
    t->sp = kept;
}

/* The general exit of the call whose return-address slot is `slot`, which
 * returned `return_value` (rax). */
static __attribute__((noinline, cold)) uint64_t exit_slow(struct scope_thread *t, uint64_t *slot,
                                                          uint64_t return_value)
{
    uint64_t now = now_raw();
    struct scope_shadow_frame *f = frame_of_slot(t, slot);
    if (!f)
        abort();   /* no frame returns here: nothing safe is left to do */
    f->values[SCOPE_MAX_ARGS] = return_value;
    f->returned = 1;
    uint64_t ret = f->return_address;
    if (f == t->sp - 1)
        end_frames_down_to(t, f, now);
    else
        end_frames_skipped_by(t, f, now);
    return ret;
}

__attribute__((visibility("hidden"))) uint64_t scope_on_exit(uint64_t *caller_sp)
{
    struct scope_thread *t = &scope_tls;
    uint64_t *slot = caller_sp - 1;
    if (unlikely(t->sp == t->sp_base || (t->sp - 1)->slot != slot || !scope_recording ||
                 !scope_clock_uses_tsc || (t->cur >= t->end && !scope_profile_mode)))
        return exit_slow(t, slot, caller_sp[SAVED_RETURN_VALUE]);
    struct scope_shadow_frame *f = t->sp - 1;
    uint32_t recording = scope_hook_callsite_depth[f->hook];
    if (unlikely(recording & SCOPE_HOOK_VALUES))
        return exit_slow(t, slot, caller_sp[SAVED_RETURN_VALUE]);
    uint64_t now = __builtin_ia32_rdtsc();
    if (scope_profile_tables) {   /* profile mode, or folding */
        struct scope_shadow_frame *caller = f > t->sp_base ? f - 1 : NULL;
        if (scope_profile_mode)
            profile_call(t, f, caller, now);
        else
            fold_or_record(t, f, caller, now, 0, NULL, 0, 1);   /* values: slow exit */
        uint64_t ret = f->return_address;
        __asm__ volatile("" ::: "memory");
        t->sp = f;
        return ret;
    }
    size_t n = recording ? 2 : 1;   /* record_slots(), the values bit known clear */
    struct scope_record *r = reserve(t, n);
    if (unlikely(!fits(t, r, n)))
        return exit_slow(t, slot, caller_sp[SAVED_RETURN_VALUE]);   /* full, or a signal */
                                                                     /* handler filled it */
    encode_call(r, f, now, n);
    /* Read the frame before giving it up: once sp moves, a signal handler's
     * hooked call may take it. */
    uint64_t ret = f->return_address;
    __asm__ volatile("" ::: "memory");
    t->sp = f;
    return ret;
}

/* Recording is about to stop (MPI_Finalize, exit, exec, the thread's
 * end): the calling thread's calls still open end now, marked unfinished,
 * so that the file has them; their frames stay, and their returns later
 * record nothing. Innermost first: the order in which they end. */
void scope_end_open_calls(void)
{
    struct scope_thread *t = &scope_tls;
    if (t->status == SCOPE_THREAD_ACTIVE || t->status == SCOPE_THREAD_FULL)
        end_unfinished(t, t->sp_base, now_raw());
}

/* An unwinder is about to walk this thread's stack: it must see every
 * real return address, not scope_exit_stub. */
__attribute__((visibility("hidden"))) void scope_shadow_unhook(void)
{
    struct scope_thread *t = &scope_tls;
    if (t->status != SCOPE_THREAD_ACTIVE)
        return;
    unhook_recent_frames(t, SIZE_MAX);
}

/* The same for an exception setting off, in flight until a catch. A
 * rethrow may come in twice (libgcc's _Unwind_Resume_or_Rethrow calls
 * _Unwind_RaiseException): the innermost exception in flight is not
 * counted again. */
__attribute__((visibility("hidden"))) void scope_shadow_unwind_begins(const void *exception)
{
    struct scope_thread *t = &scope_tls;
    if (t->status != SCOPE_THREAD_ACTIVE)
        return;
    int top = t->unwinds < SCOPE_UNWINDS_KEPT ? t->unwinds : SCOPE_UNWINDS_KEPT;
    if (top == 0 || t->unwind_exception[top - 1] != exception) {
        if (t->unwinds < SCOPE_UNWINDS_KEPT) {
            t->unwind_began[t->unwinds] = now_raw();
            t->unwind_exception[t->unwinds] = exception;
        }
        t->unwinds++;
    }
    unhook_recent_frames(t, SIZE_MAX);
}

/* A handler caught it in the frame whose stack pointer is caller_sp: the
 * frames below were unwound (they end now), those above are hooked again,
 * except those that an outer exception still unwinds through (one thrown
 * and caught in a destructor while the outer one unwinds). */
__attribute__((visibility("hidden"))) void scope_shadow_rehook(uint64_t *caller_sp)
{
    struct scope_thread *t = &scope_tls;
    if (t->status != SCOPE_THREAD_ACTIVE)
        return;
    uint64_t now = now_raw();
    while (t->sp > t->sp_base && (t->sp - 1)->slot < caller_sp) {
        struct scope_shadow_frame *f = --t->sp;
        emit(t, f, now);
    }
    t->unwinds -= t->unwinds > 0;
    rehook_recent_frames(t, SIZE_MAX);
}

/* An unwinder reached the exit stub in the return-address slot `slot`
 * (exit_unwind.c): the real return address goes back so that it can go on
 * to the caller; when the frame is really being unwound (`ending`), its
 * call and the deeper ones still open end now (unfinished when the unwind
 * ends the thread: pthread_exit, cancellation). Nothing is done while scope
 * is half way through a frame (an asynchronous cancel in the hot path): the
 * unwind then stops there, as it would without scope's help. */
__attribute__((visibility("hidden"))) void scope_shadow_unwind_through(uint64_t *slot, int ending,
                                                                 int thread_ends)
{
    struct scope_thread *t = &scope_tls;
    if (t->status != SCOPE_THREAD_ACTIVE || t->busy)
        return;
    struct scope_shadow_frame *f = frame_of_slot(t, slot);
    if (!f)
        return;
    *slot = f->return_address;
    if (ending && thread_ends) {
        end_unfinished(t, f, now_raw());
        t->sp = f;
    } else if (ending) {
        end_frames_down_to(t, f, now_raw());
    }
}

/* What scope's MPI wrappers call (thread_state.h): they time the call
 * themselves and record it, with its payload, through emit_carrying like
 * any hooked call. */
__attribute__((visibility("hidden"))) int scope_wrapped_call_begins(uint64_t *now)
{
    struct scope_thread *t = &scope_tls;
    if (!ready_to_record(t))
        return 0;
    *now = now_raw();
    return 1;
}

__attribute__((visibility("hidden"))) uint64_t scope_wrapped_clock(void)
{
    return now_raw();
}

__attribute__((visibility("hidden"))) enum scope_call_kept
scope_wrapped_call_ends(uint32_t hook, uint64_t start, uint64_t end, uint64_t return_address,
                        const struct scope_payload_item *items, size_t nitems)
{
    struct scope_thread *t = &scope_tls;
    if (t->status != SCOPE_THREAD_ACTIVE || t->busy)
        return SCOPE_CALL_DROPPED;
    struct scope_shadow_frame f;
    f.return_address = return_address;
    f.slot = NULL;
    f.hook = hook;
    f.start = start;
    f.stack = 0;
    struct scope_shadow_frame *caller = t->sp > t->sp_base ? t->sp - 1 : NULL;
    f.children = 0;
    if (scope_fold_active)   /* kept (what it carried is per call) until trace_limit */
        return fold_or_record(t, &f, caller, end, 0, items, nitems, scope_trace_limit_passed);
    if (!scope_profile_mode) {
        emit_carrying(t, &f, end, 0, items, nitems);
        return SCOPE_CALL_STORED;
    }
    /* a profile counts the call under its hooked caller's path; the caller
     * adds what it carried to the peer totals */
    f.path = scope_profile_path_of(t->profile, caller ? caller->path : SCOPE_PROFILE_ROOT, hook,
                                   site_caller(hook, return_address), 0);
    if (!scope_recording)
        return SCOPE_CALL_DROPPED;
    profile_call(t, &f, caller, end);
    return SCOPE_CALL_COUNTED;
}

/* Communicator `id` of n members (world ranks), defined in the calling
 * thread's records (an active one: scope's own code, busy, may call it);
 * 0, -1 when the thread does not record now, -2 when its buffer cannot
 * take the definition. */
__attribute__((visibility("hidden"))) int scope_record_communicator(uint32_t id,
                                                                    const int32_t *members,
                                                                    uint32_t n)
{
    struct scope_thread *t = &scope_tls;
    if (t->status != SCOPE_THREAD_ACTIVE || !scope_recording)
        return -1;
    size_t nrec = scope_commdef_records(n);
    int busy = t->busy;
    t->busy = busy + 1;
    struct scope_record *r = take_slots(t, nrec);
    if (r) {   /* header first, as for stacks */
        scope_commdef_encode(r, id, n);
        for (size_t i = 0; i + 1 < nrec; i++) {
            uint64_t w[4];
            for (size_t k = 0; k < 4; k++)
                w[k] = 4 * i + k < n ? (uint64_t)(uint32_t)members[4 * i + k] + 1 : 0;
            r[1 + i].start_word = w[0] | w[1] << 32;
            r[1 + i].end_word = w[2] | w[3] << 32;
        }
    }
    t->busy = busy;
    return r ? 0 : -2;
}
