/* chunk_codec.h: encodes a chunk exactly as HDF5's shuffle + deflate filter
 * pipeline would store it, so that chunks can go to the file by
 * H5Dwrite_chunk and be read back by any HDF5 through the standard filters. */
#ifndef SCOPE_CHUNK_CODEC_H
#define SCOPE_CHUNK_CODEC_H

#include <stddef.h>
#include <zlib.h>

struct chunk_codec {
    unsigned char *shuffled;   /* max_bytes */
    size_t max_bytes;
    z_stream z;
    int z_ready;
};

/* Sets up for chunks of up to max_bytes; -1 when out of memory. */
int chunk_codec_init(struct chunk_codec *c, size_t max_bytes);
void chunk_codec_free(struct chunk_codec *c);

/* The most bytes a chunk of `bytes` can take encoded. */
static inline size_t chunk_codec_bound(size_t bytes)
{
    return compressBound((uLong)bytes);
}

/* Shuffles n elements of elsize bytes and deflates them into out (at least
 * chunk_codec_bound bytes); returns the encoded size, 0 on failure. */
size_t chunk_encode(struct chunk_codec *c, const void *src, size_t n, size_t elsize,
                    unsigned char *out);

#endif
