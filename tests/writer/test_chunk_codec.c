/* test_chunk_codec.c: chunks encoded by chunk_codec.c (plane_deflate.c or
 * zlib) inflate with zlib and unshuffle to exactly the values given, for
 * the shapes the file holds: timestamps (random low bytes, runs above),
 * constant columns, a few interleaved thread ids (left to zlib), 4- and
 * 8-byte elements, lengths that are not a multiple of 8. */
#include <check.h>

#include "check_main.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "chunk_codec.h"

enum { MAX_N = 65536 };

/* Encodes n values of elsize bytes, inflates and unshuffles them, and
 * checks every byte; returns the encoded size. */
static size_t round_trip(const void *values, size_t n, size_t elsize)
{
    struct chunk_codec c;
    ck_assert_int_eq(chunk_codec_init(&c, MAX_N * 8), 0);
    size_t bytes = n * elsize;
    unsigned char *out = malloc(chunk_codec_bound(MAX_N * 8)), *planes = malloc(bytes),
                  *back = malloc(bytes);
    size_t encoded = chunk_encode(&c, values, n, elsize, out);
    ck_assert_uint_gt(encoded, 0);
    ck_assert_uint_le(encoded, chunk_codec_bound(bytes));
    uLongf inflated = bytes;
    ck_assert_int_eq(uncompress(planes, &inflated, out, encoded), Z_OK);
    ck_assert_uint_eq(inflated, bytes);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < elsize; j++)
            back[i * elsize + j] = planes[j * n + i];
    ck_assert_int_eq(memcmp(back, values, bytes), 0);
    free(out);
    free(planes);
    free(back);
    chunk_codec_free(&c);
    return encoded;
}

static int64_t *timestamps(size_t n, unsigned seed)
{
    int64_t *t = malloc(n * sizeof *t), now = 1700000000000000000LL;
    srand(seed);
    for (size_t i = 0; i < n; i++)
        t[i] = now += 15 + rand() % 20;
    return t;
}

START_TEST(timestamps_round_trip)
{
    static const size_t lengths[] = {MAX_N, MAX_N - 3, 4099, 128, 7};
    for (size_t k = 0; k < sizeof lengths / sizeof *lengths; k++) {
        int64_t *t = timestamps(lengths[k], (unsigned)k);
        size_t bytes = round_trip(t, lengths[k], 8);
        if (lengths[k] == MAX_N)   /* random low byte, runs above: well under 8 bytes a value */
            ck_assert_uint_lt(bytes, MAX_N * 2);
        free(t);
    }
}
END_TEST

START_TEST(constant_and_few_values_round_trip)
{
    int32_t *ids = calloc(MAX_N, sizeof *ids);
    ck_assert_uint_lt(round_trip(ids, MAX_N, 4), 2048);   /* all thread 0 */
    for (size_t i = 0; i < MAX_N; i++)
        ids[i] = (int32_t)(i % 3);   /* interleaved threads: zlib's Huffman code */
    ck_assert_uint_lt(round_trip(ids, MAX_N, 4), MAX_N / 2);
    for (size_t i = 0; i < MAX_N; i++)
        ids[i] = rand();
    round_trip(ids, MAX_N, 4);
    round_trip(ids, MAX_N - 5, 4);
    free(ids);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chunk_codec");
    TCase *tc = tcase_create("round trip");
    tcase_add_test(tc, timestamps_round_trip);
    tcase_add_test(tc, constant_and_few_values_round_trip);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
