/* grow_array.h: the one way scope's tables grow a malloc'd array (libscope,
 * libscope-reader and the CLI). */
#ifndef SCOPE_GROW_ARRAY_H
#define SCOPE_GROW_ARRAY_H

#include <stdlib.h>

/* Makes room for `need` elements of `size` bytes in *p (capacity *cap),
 * doubling; -1 when out of memory (*p unchanged). */
static inline int scope_grow_array(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

#endif
