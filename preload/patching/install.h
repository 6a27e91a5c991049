/* install.h: turning the config's patterns into installed hooks
 * (install.c). */
#ifndef SCOPE_INSTALL_H
#define SCOPE_INSTALL_H

#include <stddef.h>

/* Finds and patches the configured functions of every loaded module.
 * Returns the number of hooks installed. */
size_t scope_install_hooks(void);
/* The same for the modules loaded since (dlopen.c): in the caller's
 * namespace, or in that of namespace_handle (from dlmopen) when not NULL.
 * Returns the number of hooks added. */
size_t scope_install_hooks_in_new_modules(void *namespace_handle);

#endif
