/* test_clock.c: Check unit tests for the conversion of raw timestamps to
 * rank 0's nanoseconds: TSC calibration over long spans without rounding
 * drift, the clock offset and its linear drift, the non-TSC identity, and
 * the interpolation of offsets. */
#include <check.h>

#include "check_main.h"
#include <stdlib.h>

#include "clock.h"

static const struct scope_clock_offsets same = {0, 0, 0, 0};

START_TEST(tsc_calibration_is_exact_over_hours)
{
    /* 3 GHz: 3 ticks per ns, measured over one second */
    struct scope_clock_calibration c = {1000, 1000 + 3000000000ULL, 5000000000LL,
                                        6000000000LL, 1};
    struct scope_clock_map m;
    scope_clock_map_init(&m, &c, &same);
    ck_assert_int_eq(scope_clock_map_apply(&m, 1000), 5000000000LL);
    ck_assert_int_eq(scope_clock_map_apply(&m, 1000 + 3), 5000000001LL);
    /* ten hours later, still to the nanosecond */
    uint64_t later = 1000 + 3ULL * 36000000000000ULL;
    ck_assert_int_eq(scope_clock_map_apply(&m, later), 5000000000LL + 36000000000000LL);
    /* before the calibration start */
    ck_assert_int_eq(scope_clock_map_apply(&m, 1000 - 300), 5000000000LL - 100);
}
END_TEST

START_TEST(offset_and_drift)
{
    /* raw is ns already; this clock is 100 ns ahead at t=1e9, 200 at 2e9 */
    struct scope_clock_calibration c = {0, 0, 0, 0, 0};
    struct scope_clock_offsets o = {1000000000LL, 100, 2000000000LL, 200};
    struct scope_clock_map m;
    scope_clock_map_init(&m, &c, &o);
    ck_assert_int_eq(scope_clock_map_apply(&m, 1000000000ULL), 1000000000LL - 100);
    ck_assert_int_eq(scope_clock_map_apply(&m, 1500000000ULL), 1500000000LL - 150);
    ck_assert_int_eq(scope_clock_map_apply(&m, 2000000000ULL), 2000000000LL - 200);
    ck_assert_int_eq(scope_clock_offset_at(&o, 3000000000LL), 300);
}
END_TEST

START_TEST(constant_offset)
{
    struct scope_clock_calibration c = {0, 0, 0, 0, 0};
    struct scope_clock_offsets o = {0, -5000000000LL, 0, -5000000000LL};
    struct scope_clock_map m;
    scope_clock_map_init(&m, &c, &o);
    ck_assert_int_eq(scope_clock_map_apply(&m, 123456789ULL), 123456789LL + 5000000000LL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("clock");
    TCase *tc = tcase_create("clock");
    tcase_add_test(tc, tsc_calibration_is_exact_over_hours);
    tcase_add_test(tc, offset_and_drift);
    tcase_add_test(tc, constant_offset);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
