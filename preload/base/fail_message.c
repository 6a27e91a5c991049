/* fail_message.c: "WHERE: message" into an error buffer (fail_message.h). */
#include "fail_message.h"

#include <stdio.h>

int scope_vfail(char *err, size_t errlen, const char *where, const char *fmt, va_list ap)
{
    if (!err || errlen == 0)
        return -1;
    int n = snprintf(err, errlen, "%s: ", where);
    if (n >= 0 && (size_t)n < errlen)
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    return -1;
}
