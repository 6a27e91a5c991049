/* test_encode_threads.c: how many threads encode at finalize: the node's
 * online CPUs minus its ranks, never more than 3 (one per column beside
 * the caller's), never more than the user's cap, never fewer than 0; and
 * the pool they form encodes a window's columns to the bytes one thread
 * gives. */
#include <check.h>

#include "check_main.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "encode_threads.h"

START_TEST(count_follows_idle_cores)
{
    ck_assert_int_eq(scope_encode_helper_count(2, 1, -1), 1);    /* 1 rank on 2 cores */
    ck_assert_int_eq(scope_encode_helper_count(2, 2, -1), 0);
    ck_assert_int_eq(scope_encode_helper_count(2, 8, -1), 0);    /* oversubscribed */
    ck_assert_int_eq(scope_encode_helper_count(1, 1, -1), 0);
    ck_assert_int_eq(scope_encode_helper_count(64, 60, -1), 3);  /* 4 idle: one per column */
    ck_assert_int_eq(scope_encode_helper_count(64, 62, -1), 2);
    ck_assert_int_eq(scope_encode_helper_count(64, 4, 1), 1);    /* SCOPE_FINALIZE_THREADS=1 */
    ck_assert_int_eq(scope_encode_helper_count(64, 4, 0), 0);
    ck_assert_int_eq(scope_encode_helper_count(4, 0, -1), 3);    /* no rank count: one */
}
END_TEST

START_TEST(pool_encodes_like_one_thread)
{
    enum { N = 65536, COLUMNS = 4 };
    int64_t *values = malloc(COLUMNS * N * sizeof *values);
    for (size_t i = 0; i < COLUMNS * N; i++)
        values[i] = (int64_t)(i * 37 + (i * i) % 1000);
    struct chunk_codec own;
    ck_assert_int_eq(chunk_codec_init(&own, N * 8), 0);
    size_t bound = chunk_codec_bound(N * 8);
    unsigned char *alone = malloc(COLUMNS * bound), *pooled = malloc(COLUMNS * bound);
    struct encode_job jobs[COLUMNS];
    for (int c = 0; c < COLUMNS; c++)
        jobs[c] = (struct encode_job){values + c * N, N, c % 2 ? 4 : 8, alone + c * bound, 0};
    encode_helpers_run(NULL, &own, jobs, COLUMNS);
    size_t bytes[COLUMNS];
    for (int c = 0; c < COLUMNS; c++)
        bytes[c] = jobs[c].bytes;
    for (int helpers = 1; helpers <= ENCODE_HELPERS_MAX; helpers++) {
        struct encode_helpers h;
        ck_assert_int_eq(encode_helpers_start(&h, helpers, N * 8, NULL, NULL), helpers);
        for (int round = 0; round < 3; round++) {
            for (int c = 0; c < COLUMNS; c++)
                jobs[c].out = pooled + c * bound;
            encode_helpers_run(&h, &own, jobs, COLUMNS);
            for (int c = 0; c < COLUMNS; c++) {
                ck_assert_uint_eq(jobs[c].bytes, bytes[c]);
                ck_assert_int_eq(memcmp(alone + c * bound, pooled + c * bound, bytes[c]), 0);
            }
            memset(pooled, 0, COLUMNS * bound);
        }
        encode_helpers_stop(&h);
    }
    chunk_codec_free(&own);
    free(values);
    free(alone);
    free(pooled);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("encode_threads");
    TCase *tc = tcase_create("encode threads");
    tcase_add_test(tc, count_follows_idle_cores);
    tcase_add_test(tc, pool_encodes_like_one_thread);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
