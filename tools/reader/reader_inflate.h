/* One chunk of a 1-D dataset back to its values, as HDF5's deflate and
 * shuffle filters would undo it: zlib-format inflate (libdeflate), then each
 * value's bytes gathered from the shuffle's byte planes. HDF5-free and
 * state-free but for the decompressor, so threads decode chunks side by
 * side. */
#ifndef SCOPE_READER_INFLATE_H
#define SCOPE_READER_INFLATE_H

#include <libdeflate.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct chunk_job {
    const unsigned char *in;  /* the chunk's stored bytes */
    size_t in_len;
    bool deflated, shuffled;  /* the filters applied to this chunk */
    size_t elem_size;         /* bytes per value */
    void *out;                /* out_len bytes: the chunk's values */
    size_t out_len;
} chunk_job;

/* Decodes job->in into job->out; scratch holds out_len bytes when the chunk
 * is both deflated and shuffled. 0, or -1 when the stored bytes do not
 * inflate to exactly out_len bytes. */
int reader_inflate_chunk(struct libdeflate_decompressor *d, const chunk_job *job, void *scratch);

/* The shuffle filter's byte planes (plane b: byte b of every value) of n
 * values of size bytes back to the values. */
void reader_unshuffle(void *out, const void *in, size_t n, size_t size);

#endif
