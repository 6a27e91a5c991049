/* clone_names.c: strips GCC's clone tags (.isra.N, .constprop.N,
 * .lto_priv.N) from raw and demangled symbol names. */
#include "clone_names.h"

#include <stdbool.h>
#include <string.h>

/* Whether the len bytes at s are one clone tag: ".isra.0", ".constprop.1". */
static bool is_clone_tag(const char *s, size_t len)
{
    static const char *const kinds[] = {".isra.", ".constprop.", ".lto_priv."};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        size_t klen = strlen(kinds[k]);
        if (len > klen && strncmp(s, kinds[k], klen) == 0 &&
            strspn(s + klen, "0123456789") == len - klen)
            return true;
    }
    return false;
}

/* The start of the last occurrence of c in the first n bytes of s, or NULL:
 * its first byte found with memrchr (most names hold no '.' at all). */
static const char *last_of(const char *s, size_t n, const char *c)
{
    size_t clen = strlen(c);
    for (size_t end = n >= clen ? n - clen + 1 : 0; end > 0;) {
        const char *at = memrchr(s, c[0], end);
        if (!at)
            return NULL;
        if (strncmp(at, c, clen) == 0)
            return at;
        end = (size_t)(at - s);
    }
    return NULL;
}

size_t scope_clone_base_length(const char *name)
{
    size_t n = strlen(name);
    for (;;) {
        const char *tag;
        size_t len;
        if (n > 0 && name[n - 1] == ']') {
            const char *open = last_of(name, n, " [clone ");
            if (!open)
                return n;
            tag = open + strlen(" [clone ");
            len = (size_t)(name + n - 1 - tag);
            if (!is_clone_tag(tag, len))
                return n;
            n = (size_t)(open - name);
        } else {
            const char *number = last_of(name, n, ".");
            tag = number ? last_of(name, (size_t)(number - name), ".") : NULL;
            if (!tag || tag == name || !is_clone_tag(tag, (size_t)(name + n - tag)))
                return n;
            n = (size_t)(tag - name);
        }
    }
}
