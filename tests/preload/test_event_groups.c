/* test_event_groups.c: Check unit tests of grouping one process's calls by
 * region: start order within a region, and self times from the order the
 * calls ended (nesting by containment, per thread), refused when the calls
 * do not come in that order. */
#include <check.h>

#include "../check_main.h"
#include "event_groups.h"

/* hook h belongs to region h (identity), 3 hooks */
static const uint32_t hook_region[] = {0, 1, 2};

static struct scope_event ev(int64_t start, int64_t end, uint32_t hook, int32_t thread)
{
    return (struct scope_event){.start = start, .end = end, .hook = hook, .thread = thread};
}

START_TEST(self_times_in_end_order)
{
    /* thread 0: a[0,100] holds b[10,40] (which holds c[20,30]) and c[50,60];
     *           then a[200,210] alone. thread 1: b[0,1000] holds a[5,905]. */
    struct scope_event e[] = {
        ev(20, 30, 2, 0), ev(10, 40, 1, 0), ev(50, 60, 2, 0), ev(0, 100, 0, 0),
        ev(200, 210, 0, 0), ev(5, 905, 0, 1), ev(0, 1000, 1, 1),
    };
    struct scope_event_groups g;
    ck_assert_int_eq(scope_event_groups_build(&g, e, 7, hook_region, 3, 3), 0);
    ck_assert_int_eq(g.self_known, 1);
    ck_assert_int_eq(g.region_self[0], (100 - 30 - 10) + 10 + 900);  /* a */
    ck_assert_int_eq(g.region_self[1], (30 - 10) + (1000 - 900));     /* b */
    ck_assert_int_eq(g.region_self[2], 10 + 10);                      /* c */
    /* region 0 in start order: [0,100], [5,905], [200,210] */
    ck_assert_uint_eq(g.region_begin[1] - g.region_begin[0], 3);
    ck_assert_int_eq(g.events[0].start, 0);
    ck_assert_int_eq(g.events[1].start, 5);
    ck_assert_int_eq(g.events[2].start, 200);
    scope_event_groups_free(&g);
}
END_TEST

START_TEST(self_times_refused_out_of_order)
{
    /* the outer call before its child: not end order */
    struct scope_event e[] = {ev(0, 100, 0, 0), ev(10, 40, 1, 0)};
    struct scope_event_groups g;
    ck_assert_int_eq(scope_event_groups_build(&g, e, 2, hook_region, 3, 3), 0);
    ck_assert_int_eq(g.self_known, 0);
    scope_event_groups_free(&g);
    /* a thread's calls in two separate runs */
    struct scope_event t[] = {ev(0, 10, 0, 0), ev(0, 10, 0, 1), ev(20, 30, 0, 0)};
    ck_assert_int_eq(scope_event_groups_build(&g, t, 3, hook_region, 3, 3), 0);
    ck_assert_int_eq(g.self_known, 0);
    ck_assert_uint_eq(g.count, 3);
    scope_event_groups_free(&g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("event_groups");
    TCase *tc = tcase_create("self");
    tcase_add_test(tc, self_times_in_end_order);
    tcase_add_test(tc, self_times_refused_out_of_order);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
