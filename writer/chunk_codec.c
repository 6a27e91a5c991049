/* chunk_codec.c: HDF5's byte shuffle followed by a zlib stream. The stream
 * uses zlib's run-length strategy: shuffled timestamps are byte planes that
 * are either constant or close to random, so RLE + Huffman compresses them
 * about as well as a full match search at a fraction of the time, and any
 * inflate (HDF5's deflate filter) reads it. */
#include "chunk_codec.h"

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

/* Byte j of element i goes to plane j, position i (HDF5's H5Z_FILTER_SHUFFLE).
 * Each element is read once; the planes are written as streams. */
static void shuffle(unsigned char *dst, const unsigned char *src, size_t n,
                    size_t elsize)
{
    for (size_t i = 0; i < n; i++, src += elsize)
        for (size_t j = 0; j < elsize; j++)
            dst[j * n + i] = src[j];
}

size_t chunk_encode(struct chunk_codec *c, const void *src, size_t n, size_t elsize,
                    unsigned char *out)
{
    size_t bytes = n * elsize, cap = chunk_codec_bound(c->max_bytes);
    shuffle(c->shuffled, src, n, elsize);
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
