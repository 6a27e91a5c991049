/* signal_text.c: async-signal-safe line building (see signal_text.h). */
#include "signal_text.h"

#include <unistd.h>

size_t scope_text_append(char *buf, size_t at, size_t cap, const char *s)
{
    while (*s && at + 1 < cap)
        buf[at++] = *s++;
    return at;
}

size_t scope_text_append_int(char *buf, size_t at, size_t cap, long v)
{
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do
        digits[n++] = (char)('0' + u % 10);
    while ((u /= 10) && n < (int)sizeof(digits));
    if (v < 0)
        at = scope_text_append(buf, at, cap, "-");
    while (n > 0 && at + 1 < cap)
        buf[at++] = digits[--n];
    return at;
}

size_t scope_text_append_hex(char *buf, size_t at, size_t cap, uint64_t v)
{
    char digits[16];
    int n = 0;
    do
        digits[n++] = "0123456789abcdef"[v & 15];
    while ((v >>= 4) && n < (int)sizeof(digits));
    at = scope_text_append(buf, at, cap, "0x");
    while (n > 0 && at + 1 < cap)
        buf[at++] = digits[--n];
    return at;
}

void scope_text_write(const char *buf, size_t len)
{
    ssize_t ignored = write(STDERR_FILENO, buf, len);
    (void)ignored;
}
