/* fail_message.h: the one way scope's parsers (config files, ELF files)
 * write "WHERE: message" into a caller's error buffer. */
#ifndef SCOPE_FAIL_MESSAGE_H
#define SCOPE_FAIL_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>

/* Writes "where: <fmt, ap>" into err (nothing if err is NULL or errlen 0)
 * and returns -1. */
int scope_vfail(char *err, size_t errlen, const char *where, const char *fmt, va_list ap);

#endif
