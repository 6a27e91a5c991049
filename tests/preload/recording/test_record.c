/* test_record.c: Check unit tests for the 16-byte call record: encoding and
 * decoding of every hook id width, 56-bit timestamp wrap-around, and the
 * all-zero empty slot. */
#include <check.h>

#include "check_main.h"
#include <stdlib.h>

#include "record.h"

START_TEST(roundtrip_hook_ids)
{
    const uint32_t ids[] = {0, 1, 255, 256, 4660, 65535};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        struct scope_record r;
        uint64_t s, e;
        uint32_t id;
        scope_record_encode(&r, 1000, 2000, ids[i]);
        scope_record_decode(&r, 500, &s, &e, &id);
        ck_assert_uint_eq(id, ids[i]);
        ck_assert_uint_eq(s, 1000);
        ck_assert_uint_eq(e, 2000);
    }
}
END_TEST

START_TEST(full_width_timestamps)
{
    /* A TSC far beyond 2^56 keeps its high bits through the base. */
    uint64_t base = (UINT64_C(0x12) << 56) | 0x100;
    struct scope_record r;
    uint64_t s, e;
    uint32_t id;
    scope_record_encode(&r, base + 5, base + 99, 7);
    scope_record_decode(&r, base, &s, &e, &id);
    ck_assert_uint_eq(s, base + 5);
    ck_assert_uint_eq(e, base + 99);
}
END_TEST

START_TEST(wrap_past_56_bits)
{
    /* The call starts just before the low 56 bits wrap and ends after. */
    uint64_t base = SCOPE_TIME_MASK - 1000;
    uint64_t start = SCOPE_TIME_MASK - 10, end = SCOPE_TIME_MASK + 50;
    struct scope_record r;
    uint64_t s, e;
    uint32_t id;
    scope_record_encode(&r, start, end, 65535);
    scope_record_decode(&r, base, &s, &e, &id);
    ck_assert_uint_eq(s, start);
    ck_assert_uint_eq(e, end);
    ck_assert_uint_eq(id, 65535);
}
END_TEST

START_TEST(empty_slot)
{
    struct scope_record zero = {0, 0}, used;
    ck_assert(scope_record_is_empty(&zero));
    scope_record_encode(&used, 1, 2, 0);
    ck_assert(!scope_record_is_empty(&used));
    ck_assert_uint_eq(sizeof(struct scope_record), 16);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("record");
    tcase_add_test(tc, roundtrip_hook_ids);
    tcase_add_test(tc, full_width_timestamps);
    tcase_add_test(tc, wrap_past_56_bits);
    tcase_add_test(tc, empty_slot);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
