/* reader_fail(): how every file of the reader reports an error (see
 * reader_internal.h). It uses nothing else of the reader. */
#include "reader_internal.h"

#include <stdio.h>

int reader_fail(scope_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}
