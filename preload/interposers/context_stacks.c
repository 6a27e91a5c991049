/* context_stacks.c: remembers the stacks a program hands to makecontext()
 * (see context_stacks.h). A hooked call returning on one coroutine's stack
 * then ends the calls a longjmp skipped on that stack, and never the calls
 * open on another coroutine's, whose returns would find no frame. Stacks
 * switched to by other means (hand-written context switches) stay unknown:
 * calls open there are kept, not ended. */
#include "context_stacks.h"
#include "log.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

struct scope_stack_range scope_context_stacks[SCOPE_MAX_CONTEXT_STACKS];
size_t scope_context_stack_count;

static pthread_mutex_t notes_lock = PTHREAD_MUTEX_INITIALIZER;
static void *libc_makecontext;

void *scope_note_context_stack(const ucontext_t *ucp)
{
    pthread_mutex_lock(&notes_lock);
    if (!libc_makecontext)
        libc_makecontext = dlsym(RTLD_NEXT, "makecontext");
    void *real = libc_makecontext;
    uintptr_t low = (uintptr_t)ucp->uc_stack.ss_sp;
    uintptr_t high = low + ucp->uc_stack.ss_size;
    size_t n = scope_context_stack_count;
    int known = 0;
    for (size_t i = 0; i < n && !known; i++)
        known = scope_context_stacks[i].low == low && scope_context_stacks[i].high == high;
    if (!known && low < high && n < SCOPE_MAX_CONTEXT_STACKS) {
        scope_context_stacks[n] = (struct scope_stack_range){low, high};
        __atomic_store_n(&scope_context_stack_count, n + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&notes_lock);
    if (!real) {
        scope_warn("libc's makecontext not found");
        abort();
    }
    return real;
}
