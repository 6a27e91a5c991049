/* hook_cost.c: measures at start what one hooked call costs here. A
 * calibration function of libscope's own is called in bursts through an
 * entry thunk (the one hooks reached through their calls use: push the
 * hook id, jump to the entry stub) and the real entry and exit stubs, with
 * the calling thread's records pointed at scratch memory that is unmapped
 * afterwards; the same bursts unhooked give what the call itself costs.
 * Each hooked burst fills its own page of records, faulted in before
 * (MAP_POPULATE), as a run's records mostly go to its buffer's ring, whose
 * pages are faulted in once and then used again (thread_buffer.c). The
 * fastest burst of each kind counts (the first ones warm the caches and
 * the branch predictors; a preempted one is slow): under 0.1 ms in all,
 * the mappings included. */
#include "hook_cost.h"
#include "patcher.h"
#include "profile_table.h"
#include "thread_state.h"
#include "trampoline.h"

#include <sys/mman.h>
#include <time.h>

#define BURST_CALLS 256     /* one 4 KiB page of records; 2 clock reads are noise */
#define BURSTS 8            /* of each kind, alternated; the fastest counts */
#define CALIBRATION_HOOK 0  /* no hook is installed yet */

/* The function timed: a call and a return, as short as a function gets. */
static __attribute__((noinline)) uint64_t calibration_target(uint64_t x)
{
    __asm__ volatile("" : "+r"(x));
    return x + 1;
}

typedef uint64_t (*target_fn)(uint64_t);

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Nanoseconds BURST_CALLS calls of fn take, a hooked one recording into
 * records[0 .. BURST_CALLS). */
static int64_t burst_ns(target_fn fn, struct scope_record *records)
{
    scope_tls.cur = records;
    scope_tls.end = records + BURST_CALLS;
    uint64_t x = 0;
    int64_t t0 = now_ns();
    for (int i = 0; i < BURST_CALLS; i++)
        x = fn(x);
    int64_t t1 = now_ns();
    __asm__ volatile("" : : "r"(x));
    return t1 - t0;
}

/* The fastest hooked and unhooked bursts, recording into `scratch`
 * (BURSTS pages), with the calling thread's state lent to the hot path. */
static void time_bursts(target_fn hooked, target_fn plain, struct scope_record *scratch,
                        struct scope_profile_table *table, int64_t *best_hooked,
                        int64_t *best_plain)
{
    struct scope_shadow_frame frames[2];
    struct scope_thread saved = scope_tls;
    int was_recording = scope_recording;
    scope_tls.sp = scope_tls.sp_base = frames;
    scope_tls.sp_limit = frames + 2;
    scope_tls.status = SCOPE_THREAD_ACTIVE;
    scope_tls.profile = table;
    scope_tls.busy = 0;
    scope_recording = 1;
    *best_hooked = *best_plain = INT64_MAX;
    for (int b = 0; b < BURSTS; b++) {
        int64_t p = burst_ns(plain, scratch), h = burst_ns(hooked, scratch + b * BURST_CALLS);
        *best_plain = p < *best_plain ? p : *best_plain;
        *best_hooked = h < *best_hooked ? h : *best_hooked;
    }
    scope_recording = was_recording;
    scope_tls = saved;
}

int64_t scope_measure_hook_cost(void)
{
    size_t bytes = BURSTS * BURST_CALLS * sizeof(struct scope_record);
    uintptr_t thunk = scope_patch_entry_thunk((uintptr_t)calibration_target, CALIBRATION_HOOK,
                                              &scope_hook_targets[CALIBRATION_HOOK]);
    void *scratch = thunk && scope_trampoline_seal() == 0
                        ? mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
                               -1, 0)
                        : MAP_FAILED;
    /* profile mode, or folding, counts calls in a table (only its pages in use are touched) */
    void *table = scope_profile_tables ? mmap(NULL, sizeof(struct scope_profile_table),
                                            PROT_READ | PROT_WRITE,
                                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                                     : NULL;
    int64_t hooked = 0, plain = 0;
    if (scratch != MAP_FAILED && table != MAP_FAILED) {
        /* volatile: every call is made, through the pointer */
        target_fn volatile via_thunk = (target_fn)thunk, direct = calibration_target;
        time_bursts(via_thunk, direct, scratch, table, &hooked, &plain);
    }
    if (scratch != MAP_FAILED)
        munmap(scratch, bytes);
    if (table && table != MAP_FAILED)
        munmap(table, sizeof(struct scope_profile_table));
    scope_hook_targets[CALIBRATION_HOOK] = 0;
    if (hooked <= plain)
        return 0;
    int64_t cost = (hooked - plain + BURST_CALLS / 2) / BURST_CALLS;
    return cost > 0 ? cost : 1;
}
