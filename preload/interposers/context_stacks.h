/* context_stacks.h: the stacks a program gave makecontext(), so that the
 * hot path tells coroutines apart (context_stacks.c fills the table,
 * makecontext.S catches the calls). Read without a lock and without
 * floating-point registers: the lookup is inline for hot_path.c. */
#ifndef SCOPE_CONTEXT_STACKS_H
#define SCOPE_CONTEXT_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

#include "thread_state.h"

#define SCOPE_MAX_CONTEXT_STACKS 1024

#pragma GCC visibility push(hidden)

extern struct scope_stack_range scope_context_stacks[SCOPE_MAX_CONTEXT_STACKS];
extern size_t scope_context_stack_count;   /* entries published so far */

/* Notes ucp's stack (makecontext.S calls it before libc's
 * makecontext) and returns libc's makecontext. */
void *scope_note_context_stack(const ucontext_t *ucp);

#pragma GCC visibility pop

/* 1 + the index of the newest noted stack holding p (a stack freed and
 * allocated again overlaps older entries), or 0 if none does. */
static inline size_t scope_context_stack_of(uintptr_t p)
{
    size_t n = __atomic_load_n(&scope_context_stack_count, __ATOMIC_ACQUIRE);
    while (n > 0) {
        const struct scope_stack_range *s = &scope_context_stacks[--n];
        if (p >= s->low && p < s->high)
            return n + 1;
    }
    return 0;
}

#endif
