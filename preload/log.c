/* log.c: scope's one-line messages on stderr. */
#include "runtime.h"

#include <stdarg.h>
#include <stdio.h>

static void vlog(const char *fmt, va_list ap)
{
    char line[1024];
    vsnprintf(line, sizeof(line), fmt, ap);
    fprintf(stderr, "scope: %s\n", line);
}

void scope_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void scope_debug(const char *fmt, ...)
{
    if (!scope_rt.verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}
