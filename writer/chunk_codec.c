/* chunk_codec.c: HDF5's byte shuffle followed by a zlib stream. Shuffled
 * timestamps are byte planes that are either runs or close to random:
 * plane_deflate.c writes them without a match search; what it declines
 * (planes of few distinct bytes, not in runs) goes to zlib's run-length
 * strategy, whose Huffman codes fit such planes. Any inflate (HDF5's
 * deflate filter) reads both. */
#include "chunk_codec.h"
#include "plane_deflate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ZLIB_LEVEL 1

int chunk_codec_init(struct chunk_codec *c, size_t max_bytes)
{
    memset(c, 0, sizeof *c);
    if (deflateInit2(&c->z, ZLIB_LEVEL, Z_DEFLATED, 15, 8, Z_RLE) != Z_OK)
        return -1;
    c->z_ready = 1;
    c->max_bytes = max_bytes;
    c->shuffled = malloc(max_bytes);
    if (!c->shuffled) {
        chunk_codec_free(c);
        return -1;
    }
    return 0;
}

void chunk_codec_free(struct chunk_codec *c)
{
    if (c->z_ready)
        deflateEnd(&c->z);
    free(c->shuffled);
    memset(c, 0, sizeof *c);
}

/* Swaps the blocks of `width` bytes that two rows exchange in a transpose. */
#define SWAP_BLOCKS(a, b, width, keep)                      \
    do {                                                    \
        uint64_t t = (((a) >> (8 * (width))) ^ (b)) & (keep); \
        (b) ^= t;                                           \
        (a) ^= t << (8 * (width));                          \
    } while (0)

/* Rows r[0..7] of a matrix of bytes (byte k of r[i] is column k) become
 * its columns: three rounds of swapping blocks of 1, 2 and 4 bytes,
 * spelled out so that the rows stay in registers. */
static inline __attribute__((always_inline)) void transpose_bytes_8x8(uint64_t r[8])
{
    const uint64_t k1 = 0x00ff00ff00ff00ffull, k2 = 0x0000ffff0000ffffull,
                   k4 = 0x00000000ffffffffull;
    SWAP_BLOCKS(r[0], r[1], 1, k1);
    SWAP_BLOCKS(r[2], r[3], 1, k1);
    SWAP_BLOCKS(r[4], r[5], 1, k1);
    SWAP_BLOCKS(r[6], r[7], 1, k1);
    SWAP_BLOCKS(r[0], r[2], 2, k2);
    SWAP_BLOCKS(r[1], r[3], 2, k2);
    SWAP_BLOCKS(r[4], r[6], 2, k2);
    SWAP_BLOCKS(r[5], r[7], 2, k2);
    SWAP_BLOCKS(r[0], r[4], 4, k4);
    SWAP_BLOCKS(r[1], r[5], 4, k4);
    SWAP_BLOCKS(r[2], r[6], 4, k4);
    SWAP_BLOCKS(r[3], r[7], 4, k4);
}

/* Elements [0, n - n % 8) of elsize <= 8 bytes, 8 at a time through a byte
 * transpose, so that each plane gets 8 bytes in one store. Inlined with
 * elsize known, the copies are single loads and stores. */
static inline __attribute__((always_inline)) size_t
shuffle_by_8(unsigned char *dst, const unsigned char *src, size_t n, size_t elsize)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t r[8] = {0};
        for (int e = 0; e < 8; e++)
            memcpy(&r[e], src + (i + (size_t)e) * elsize, elsize);
        transpose_bytes_8x8(r);
        for (size_t j = 0; j < elsize; j++)
            memcpy(dst + j * n + i, &r[j], 8);
    }
    return i;
}

/* Byte j of element i goes to plane j, position i (HDF5's H5Z_FILTER_SHUFFLE):
 * the sizes the file stores 8 elements at a time, the rest byte by byte. */
static void shuffle(unsigned char *dst, const unsigned char *src, size_t n, size_t elsize)
{
    size_t i = elsize == 8 ? shuffle_by_8(dst, src, n, 8)
               : elsize == 4 ? shuffle_by_8(dst, src, n, 4) : 0;
    for (src += i * elsize; i < n; i++, src += elsize)
        for (size_t j = 0; j < elsize; j++)
            dst[j * n + i] = src[j];
}

size_t chunk_encode(struct chunk_codec *c, const void *src, size_t n, size_t elsize,
                    unsigned char *out)
{
    size_t bytes = n * elsize, cap = chunk_codec_bound(c->max_bytes);
    shuffle(c->shuffled, src, n, elsize);
    size_t fast = plane_deflate(c->shuffled, elsize, n, out, cap);
    if (fast > 0)
        return fast;
    if (deflateReset(&c->z) != Z_OK)
        return 0;
    c->z.next_in = c->shuffled;
    c->z.avail_in = (uInt)bytes;
    c->z.next_out = out;
    c->z.avail_out = (uInt)cap;
    if (deflate(&c->z, Z_FINISH) != Z_STREAM_END)
        return 0;
    return cap - c->z.avail_out;
}
