/* signal_text.h: building one line of text in a signal handler, where
 * printf is not safe: appends to a fixed buffer, always leaving room for
 * the terminating byte. */
#ifndef SCOPE_SIGNAL_TEXT_H
#define SCOPE_SIGNAL_TEXT_H

#include <stddef.h>
#include <stdint.h>

size_t scope_text_append(char *buf, size_t at, size_t cap, const char *s);
size_t scope_text_append_int(char *buf, size_t at, size_t cap, long v);
size_t scope_text_append_hex(char *buf, size_t at, size_t cap, uint64_t v);   /* 0x... */

/* Writes buf[0..len) to stderr with one write(2). */
void scope_text_write(const char *buf, size_t len);

#endif
