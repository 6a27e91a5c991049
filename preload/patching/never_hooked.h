/* never_hooked.h: the functions scope refuses to hook whatever the config
 * asks (`*` included), because a hook would break them: ones that return
 * twice, ones that act on their caller's address, startup code, the
 * signal-return trampoline and the unwinder scope's exception handling
 * runs through. Decided by symbol name, the same at run time and in
 * `scope check`. */
#ifndef SCOPE_NEVER_HOOKED_H
#define SCOPE_NEVER_HOOKED_H

/* Why `symbol` must not be hooked, or NULL when it may be. */
const char *scope_never_hooked(const char *symbol);

#endif
