/* varint.h: signed integers as zigzag varints (small magnitudes in few
 * bytes), and wrapping arithmetic for the deltas they usually hold; for
 * the scratch files of sorted_runs.c and self_times.c. */
#ifndef SCOPE_VARINT_H
#define SCOPE_VARINT_H

#include <stdint.h>

#define SCOPE_VARINT_MAX_BYTES 10

static inline unsigned char *put_varint(unsigned char *p, int64_t v)
{
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    while (z >= 0x80) {
        *p++ = (unsigned char)(z | 0x80);
        z >>= 7;
    }
    *p++ = (unsigned char)z;
    return p;
}

static inline const unsigned char *get_varint(const unsigned char *p, int64_t *v)
{
    uint64_t z = 0;
    for (int shift = 0;; shift += 7) {
        unsigned char b = *p++;
        z |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80) || shift >= 63)
            break;
    }
    *v = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
    return p;
}

/* a - b without signed overflow (wrapping, undone by sum) */
static inline int64_t difference(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

static inline int64_t sum(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

#endif
