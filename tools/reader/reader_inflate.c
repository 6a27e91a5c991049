/* Chunks of HDF5's deflate + shuffle pipeline decoded without HDF5
 * (reader_inflate.h), for reader_columns.c's threads. */
#include "reader_inflate.h"

#include <stdint.h>
#include <string.h>

/* Gathers value i of every plane; the loop over i is the long one, so the
 * writes go in order and each plane is read in order. */
static void unshuffle_fixed(unsigned char *out, const unsigned char *in, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i++)
        for (size_t b = 0; b < size; b++)
            out[i * size + b] = in[b * n + i];
}

#ifdef __SSE2__
#include <emmintrin.h>

/* 16 values of 8 bytes at a time: the 8 planes' next 16 bytes interleaved
 * by bytes, then by pairs, then by fours, as a transpose of 8 x 16 bytes;
 * the rest as above. */
static void unshuffle_8(unsigned char *out, const unsigned char *in, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i p[8], a[8], b[8];
        for (int k = 0; k < 8; k++)
            p[k] = _mm_loadu_si128((const __m128i *)(in + (size_t)k * n + i));
        for (int k = 0; k < 4; k++) { /* bytes k*2, k*2+1 of each value */
            a[2 * k] = _mm_unpacklo_epi8(p[2 * k], p[2 * k + 1]);
            a[2 * k + 1] = _mm_unpackhi_epi8(p[2 * k], p[2 * k + 1]);
        }
        for (int k = 0; k < 2; k++) { /* bytes 4k..4k+3 */
            b[4 * k] = _mm_unpacklo_epi16(a[4 * k], a[4 * k + 2]);
            b[4 * k + 1] = _mm_unpackhi_epi16(a[4 * k], a[4 * k + 2]);
            b[4 * k + 2] = _mm_unpacklo_epi16(a[4 * k + 1], a[4 * k + 3]);
            b[4 * k + 3] = _mm_unpackhi_epi16(a[4 * k + 1], a[4 * k + 3]);
        }
        for (int k = 0; k < 4; k++) { /* whole values: 4 per pair of registers */
            __m128i lo = _mm_unpacklo_epi32(b[k], b[4 + k]);
            __m128i hi = _mm_unpackhi_epi32(b[k], b[4 + k]);
            _mm_storeu_si128((__m128i *)(out + (i + 4 * (size_t)k) * 8), lo);
            _mm_storeu_si128((__m128i *)(out + (i + 4 * (size_t)k + 2) * 8), hi);
        }
    }
    for (; i < n; i++)
        for (size_t b = 0; b < 8; b++)
            out[i * 8 + b] = in[b * n + i];
}
#else
static void unshuffle_8(unsigned char *out, const unsigned char *in, size_t n)
{
    unshuffle_fixed(out, in, n, 8);
}
#endif

void reader_unshuffle(void *out, const void *in, size_t n, size_t size)
{
    /* constant sizes let the compiler unroll the inner loop */
    if (size == 8)
        unshuffle_8(out, in, n);
    else if (size == 4)
        unshuffle_fixed(out, in, n, 4);
    else
        unshuffle_fixed(out, in, n, size);
}

int reader_inflate_chunk(struct libdeflate_decompressor *d, const chunk_job *job, void *scratch)
{
    const void *plain = job->in;
    if (job->deflated) {
        void *to = job->shuffled ? scratch : job->out;
        size_t got = 0;
        if (libdeflate_zlib_decompress(d, job->in, job->in_len, to, job->out_len, &got) !=
                LIBDEFLATE_SUCCESS || got != job->out_len)
            return -1;
        plain = to;
    } else if (job->in_len != job->out_len) {
        return -1;
    }
    if (job->shuffled) /* out_len is whole values: a chunk's */
        reader_unshuffle(job->out, plain, job->out_len / job->elem_size, job->elem_size);
    else if (plain != job->out)
        memcpy(job->out, plain, job->out_len);
    return 0;
}
