/* got_redirect.h: the fallback for exported functions that cannot be
 * patched inline: the GOT slots through which other modules (and the
 * function's own, for calls through its PLT) call the function are made to
 * point at an entry thunk that records the call like an inline hook. Calls
 * that do not go through a GOT are not seen. */
#ifndef SCOPE_GOT_REDIRECT_H
#define SCOPE_GOT_REDIRECT_H

#include <stddef.h>
#include <stdint.h>

#include "loaded_modules.h"

struct scope_got_target {
    const char *symbol;
    uintptr_t function;    /* where the slots lead now */
    uintptr_t thunk;       /* where they will lead */
    size_t modules;        /* modules with a slot redirected, counted up */
};

/* Redirects every slot of the modules that is bound to a target's function,
 * or not bound yet (lazy binding) and would be. RELRO pages are made
 * writable for the write and read-only again. targets are sorted by
 * symbol (strcmp) here. */
void scope_got_redirect(const struct scope_module *modules, size_t nmodules,
                        struct scope_got_target *targets, size_t ntargets);

#endif
