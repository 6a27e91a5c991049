/* A duration as people read it: "4.16 ms", "12 ns". */
#ifndef SCOPE_DURATION_TEXT_H
#define SCOPE_DURATION_TEXT_H

#include <stddef.h>

/* seconds as "1.234 s", "4.16 ms", "2.50 us" or "12 ns" into buf. */
void duration_text(char *buf, size_t size, double seconds);

#endif
