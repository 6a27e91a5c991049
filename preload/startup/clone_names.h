/* clone_names.h: GCC's copies of one source function ("solve.isra.0",
 * "solve.constprop.1", "f(int) [clone .lto_priv.0]") answer to the
 * function's own name, for matching and for the region they record into. */
#ifndef SCOPE_CLONE_NAMES_H
#define SCOPE_CLONE_NAMES_H

#include <stddef.h>

/* The length of name without its clone tags, raw ("weigh.isra.0") or
 * demangled ("weigh(pair const&) [clone .isra.0]"); strlen(name) when it has
 * none. ".part.N" and ".cold" are not clones: a part is called by its
 * function, and a cold fragment is jumped into, never called. */
size_t scope_clone_base_length(const char *name);

#endif
