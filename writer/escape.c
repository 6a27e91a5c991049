/* escape.c: region names as HDF5 link names: '/' -> "%2F", '%' -> "%25",
 * and the name "." (HDF5's "this group") -> "%2E". The reader undoes it. */
#include "scope_writer.h"

#include <string.h>

__attribute__((visibility("default")))
size_t scope_escape_region_name(const char *name, char *out, size_t outlen)
{
    int dot = strcmp(name, ".") == 0;
    size_t need = 0;
    for (const char *p = name; *p; p++) {
        const char *piece = *p == '/' ? "%2F"
                          : *p == '%' ? "%25"
                          : dot ? "%2E" : NULL;
        size_t plen = piece ? 3 : 1;
        for (size_t i = 0; i < plen; i++, need++)
            if (need + 1 < outlen)
                out[need] = piece ? piece[i] : *p;
    }
    if (outlen > 0)
        out[need < outlen ? need : outlen - 1] = '\0';
    return need;
}
