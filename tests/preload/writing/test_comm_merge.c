/* test_comm_merge.c: Check unit tests of the run's communicator ids
 * (comm_merge.h): MPI_COMM_WORLD is 0 whatever the ranks define; a
 * communicator gets one id on every member, found by its members and,
 * among communicators of the same members (duplicates of the world), by
 * the order each rank created them in, whatever its own ids; a rank that
 * defined none has no map. */
#include <check.h>

#include "check_main.h"
#include "comm_merge.h"

#include <stdlib.h>

/* A rank's definitions: ids[i] has the members listed from members[first[i]]. */
static int32_t *add(struct scope_comm_merge *m, const int32_t *ids, const uint32_t *sizes,
                    size_t n, const int32_t *members, size_t *nmap)
{
    struct scope_comm_def defs[8];
    for (size_t i = 0, at = 0; i < n; at += sizes[i], i++)
        defs[i] = (struct scope_comm_def){ids[i], sizes[i], at};
    return scope_comm_merge_add(m, defs, n, members, nmap);
}

START_TEST(ids_agree_across_ranks)
{
    struct scope_comm_merge m;
    ck_assert_int_eq(scope_comm_merge_init(&m, 4), 0);
    size_t n;
    /* rank 0: world, a duplicate of it, {0, 2} */
    const int32_t ids0[] = {0, 1, 2};
    const uint32_t sizes0[] = {4, 4, 2};
    const int32_t members0[] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 2};
    int32_t *map0 = add(&m, ids0, sizes0, 3, members0, &n);
    ck_assert_uint_eq(n, 3);
    ck_assert(map0[0] == 0 && map0[1] == 1 && map0[2] == 2);
    /* rank 1: nothing */
    ck_assert_ptr_null(add(&m, NULL, NULL, 0, NULL, &n));
    ck_assert_uint_eq(n, 0);
    /* rank 2: the same two, numbered and listed in another order (id 5 is
     * its duplicate of the world, created first), and a second duplicate */
    const int32_t ids2[] = {7, 3, 5, 0};
    const uint32_t sizes2[] = {4, 2, 4, 4};
    const int32_t members2[] = {0, 1, 2, 3, 0, 2, 0, 1, 2, 3, 0, 1, 2, 3};
    int32_t *map2 = add(&m, ids2, sizes2, 4, members2, &n);
    ck_assert_uint_eq(n, 8);
    ck_assert_int_eq(map2[0], 0);
    ck_assert_int_eq(map2[5], 1);   /* its first duplicate */
    ck_assert_int_eq(map2[3], 2);   /* {0, 2} */
    ck_assert_int_eq(map2[7], 3);   /* its second duplicate: new */
    ck_assert_int_eq(map2[1], -1);  /* never defined */
    /* rank 3: {1, 3}, in its own rank order {3, 1} */
    const int32_t ids3[] = {1};
    const uint32_t sizes3[] = {2};
    const int32_t members3[] = {3, 1};
    int32_t *map3 = add(&m, ids3, sizes3, 1, members3, &n);
    ck_assert_int_eq(map3[1], 4);
    struct scope_comm_table t = scope_comm_merge_table(&m);
    ck_assert_uint_eq(t.ncomms, 5);
    const int64_t want_sizes[] = {4, 4, 2, 4, 2};
    const int32_t want_members[] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 2, 0, 1, 2, 3, 3, 1};
    for (size_t i = 0; i < 5; i++)
        ck_assert_int_eq(t.sizes[i], want_sizes[i]);
    for (size_t i = 0; i < 16; i++)
        ck_assert_int_eq(t.members[i], want_members[i]);
    ck_assert(m.defined);
    free(map0);
    free(map2);
    free(map3);
    scope_comm_merge_free(&m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("comm_merge");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, ids_agree_across_ranks);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
