/* Call sites as text for the CLI's tables and the exports (see
 * callsite_text.h). */
#include "callsite_text.h"

#include <stdio.h>
#include <string.h>

const char *callsite_text(const scope_file *f, long site, size_t from, size_t to,
                          const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (site < 0)
        return buf;
    for (size_t level = from; level < to && used + 1 < len; level++) {
        const scope_frame *fr = scope_callsite_frame(f, (size_t)site, level);
        if (!fr)
            break;
        char one[1024];
        scope_frame_label(fr, one, sizeof one);
        int n = snprintf(buf + used, len - used, "%s%s", level > from ? sep : "", one);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used >= len)
        used = len - 1;
    buf[used] = '\0';
    return buf;
}
