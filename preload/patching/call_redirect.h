/* call_redirect.h: the fallback for functions whose first bytes cannot be
 * patched (shorter than the jump with nothing after them, a branch back
 * into them...): the direct calls and jumps to them in their own module
 * (call, jmp and jcc with a 32-bit displacement, found by decoding each
 * function of the module from its start, as the file holds it) are pointed
 * at an entry thunk that records the call like an inline hook. Calls
 * through pointers or GOTs (got_redirect.h) and short jumps do not pass
 * there. */
#ifndef SCOPE_CALL_REDIRECT_H
#define SCOPE_CALL_REDIRECT_H

#include <stddef.h>
#include <stdint.h>

#include "loaded_modules.h"

struct scope_call_target {
    uintptr_t function;    /* where the calls lead now */
    uintptr_t thunk;       /* where they will lead */
    size_t sites;          /* calls and jumps redirected, counted up */
};

/* Redirects the calls and jumps in module m to targets (which lie in m;
 * their order is kept), counting each one's in its `sites`. */
void scope_call_redirect(const struct scope_module *m, struct scope_call_target *targets,
                         size_t ntargets);

#endif
