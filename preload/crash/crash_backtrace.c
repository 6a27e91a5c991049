/* crash_backtrace.c: the faulting thread's backtrace (see crash_backtrace.h). */
#include "crash_backtrace.h"
#include "libunwind_local.h"
#include "runtime.h"
#include "signal_text.h"
#include "thread_state.h"

#include <string.h>

/* Lines printed: the innermost HEAD_RUNS runs of frames and the outermost
 * TAIL_RUNS (so a stack overflow shows both where it ended and how it
 * began); the walk stops after MAX_FRAMES frames. */
enum { HEAD_RUNS = 40, TAIL_RUNS = 16, MAX_FRAMES = 1 << 20 };

/* Consecutive frames of one return address (deep recursion): one line. */
struct frame_run {
    unw_word_t ip, offset;
    long hook;                 /* the open hooked call it belongs to, or -1 */
    long first, count;         /* frames #first .. #first + count - 1 */
    char name[160];
};

/* The open hooked call whose return address sat just below caller_sp,
 * that is the one the frame unwound last belongs to; -1 if none. The
 * unwind goes outwards, so *next, the innermost open call not passed
 * yet, only moves towards the outermost. */
static long open_hook_returning_to(const struct scope_shadow_frame **next, unw_word_t caller_sp)
{
    const struct scope_thread *t = &scope_tls;
    if (t->status != SCOPE_THREAD_ACTIVE)
        return -1;
    while (*next >= t->sp_base && (unw_word_t)(uintptr_t)((*next)->slot + 1) < caller_sp)
        (*next)--;
    if (*next >= t->sp_base && (unw_word_t)(uintptr_t)((*next)->slot + 1) == caller_sp)
        return (long)(*next)->hook;
    return -1;
}

static void print_run(const struct frame_run *r)
{
    char line[512];
    size_t n = scope_text_append(line, 0, sizeof(line), "scope:   #");
    n = scope_text_append_int(line, n, sizeof(line), r->first);
    n = scope_text_append(line, n, sizeof(line), " ");
    n = scope_text_append_hex(line, n, sizeof(line), r->ip);
    n = scope_text_append(line, n, sizeof(line), " ");
    n = scope_text_append(line, n, sizeof(line), r->name[0] ? r->name : "??");
    if (r->name[0]) {
        n = scope_text_append(line, n, sizeof(line), "+");
        n = scope_text_append_hex(line, n, sizeof(line), r->offset);
    }
    if (r->count > 1) {
        n = scope_text_append(line, n, sizeof(line), "   (repeated to #");
        n = scope_text_append_int(line, n, sizeof(line), r->first + r->count - 1);
        n = scope_text_append(line, n, sizeof(line), ")");
    }
    if (r->hook >= 0 && (size_t)r->hook < scope_rt.nhooks) {
        n = scope_text_append(line, n, sizeof(line), "   <- hooked, open: ");
        n = scope_text_append(line, n, sizeof(line), scope_rt.hooks[r->hook].name);
    }
    n = scope_text_append(line, n, sizeof(line), "\n");
    scope_text_write(line, n);
}

static void print_note(const char *what, long frames)
{
    char line[128];
    size_t n = scope_text_append(line, 0, sizeof(line), "scope:   ... ");
    n = scope_text_append_int(line, n, sizeof(line), frames);
    n = scope_text_append(line, n, sizeof(line), what);
    scope_text_write(line, n);
}

/* Where the runs go as they end: the first HEAD_RUNS, then a ring of the
 * last TAIL_RUNS. */
struct run_log {
    struct frame_run head[HEAD_RUNS], tail[TAIL_RUNS];
    size_t nhead, ntail;       /* ntail counts every run past the head */
};

static void log_run(struct run_log *log, const struct frame_run *r)
{
    if (log->nhead < HEAD_RUNS)
        log->head[log->nhead++] = *r;
    else
        log->tail[log->ntail++ % TAIL_RUNS] = *r;
}

static void print_log(const struct run_log *log)
{
    for (size_t i = 0; i < log->nhead; i++)
        print_run(&log->head[i]);
    size_t kept = log->ntail < TAIL_RUNS ? log->ntail : TAIL_RUNS;
    size_t first = log->ntail - kept;
    if (first > 0) {
        const struct frame_run *after = &log->tail[first % TAIL_RUNS];
        const struct frame_run *last = &log->head[HEAD_RUNS - 1];
        print_note(" frames left out\n", after->first - (last->first + last->count));
    }
    for (size_t i = first; i < log->ntail; i++)
        print_run(&log->tail[i % TAIL_RUNS]);
}

void scope_crash_backtrace_print(void *context)
{
    if (!scope_unw.init_local2) {
        static const char none[] = "scope:   (no backtrace: libunwind.so.8 not loaded)\n";
        scope_text_write(none, sizeof(none) - 1);
        return;
    }
    scope_shadow_unhook();   /* real return addresses, so the unwinder can pass */
    unw_cursor_t cursor;
    if (scope_unw.init_local2(&cursor, (unw_context_t *)context, UNW_INIT_SIGNAL_FRAME) != 0)
        return;
    static struct run_log log;   /* 11 KiB: off the (alternate) signal stack */
    log.nhead = log.ntail = 0;
    const struct scope_shadow_frame *next_open = scope_tls.sp - 1;
    struct frame_run run = {.count = 0};
    long frame = 0;
    for (int more = 1; more && frame < MAX_FRAMES; frame++) {
        unw_word_t ip = 0, offset = 0, caller_sp = 0;
        scope_unw.get_reg(&cursor, UNW_REG_IP, &ip);
        int same_ip = run.count > 0 && ip == run.ip;
        char name[sizeof(run.name)];
        if (!same_ip && scope_unw.get_proc_name(&cursor, name, sizeof(name), &offset) != 0)
            name[0] = '\0';
        more = scope_unw.step(&cursor) > 0;
        long hook = -1;
        if (more) {
            scope_unw.get_reg(&cursor, UNW_REG_SP, &caller_sp);
            hook = open_hook_returning_to(&next_open, caller_sp);
        }
        if (same_ip && hook == run.hook) {
            run.count++;
            continue;
        }
        if (run.count > 0)
            log_run(&log, &run);
        if (!same_ip) {
            memcpy(run.name, name, sizeof(name));
            run.offset = offset;
        }
        run.ip = ip;
        run.hook = hook;
        run.first = frame;
        run.count = 1;
    }
    if (run.count > 0)
        log_run(&log, &run);
    print_log(&log);
    if (frame == MAX_FRAMES)
        print_note(" frames unwound: stopped there\n", frame);
}
