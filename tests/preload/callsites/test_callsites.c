/* test_callsites.c: Check unit tests for the call-site tables libscope
 * builds before and during the merge: interning address stacks
 * (site_table.c), interning resolved frames and stacks and merging ranks'
 * tables (callsite_set.c), and the table as one message (callsite_blob.c). */
#include <check.h>

#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "callsite_blob.h"
#include "callsite_set.h"
#include "site_table.h"

START_TEST(address_stacks_interned)
{
    struct scope_site_table t;
    scope_site_table_init(&t);
    uint64_t a[] = {0x401000, 0x402000, 0x403000}, b[] = {0x401000, 0x402000};
    ck_assert_int_eq(scope_site_table_intern(&t, a, 3), 0);
    ck_assert_int_eq(scope_site_table_intern(&t, b, 2), 1);   /* a prefix is another site */
    ck_assert_int_eq(scope_site_table_intern(&t, a, 3), 0);
    for (uint64_t i = 0; i < 5000; i++)                        /* grows its index */
        ck_assert_int_eq(scope_site_table_intern(&t, (uint64_t[]){0x500000 + i}, 1), (int)(2 + i));
    ck_assert_int_eq(scope_site_table_intern(&t, b, 2), 1);
    ck_assert_uint_eq(t.nsites, 5002);
    ck_assert_uint_eq(t.max_depth, 3);
    ck_assert_uint_eq(scope_site_depth(&t, 0), 3);
    ck_assert_uint_eq(scope_site_addrs(&t, 0)[2], 0x403000);
    ck_assert_uint_eq(scope_site_addrs(&t, 4001)[0], 0x500000 + 3999);
    scope_site_table_free(&t);
}
END_TEST

static const struct scope_callsite_frame caller_a = {"/bin/app", "caller_a", "app.c", 0x1c, 21},
                                         caller_b = {"/bin/app", "caller_b", "app.c", 0x2d, 27},
                                         main_frame = {"/bin/app", "main", NULL, 0x40, 0};

START_TEST(frames_and_sites_interned)
{
    struct scope_callsite_set s;
    scope_callsite_set_init(&s);
    ck_assert_int_eq(scope_callsite_set_frame(&s, &caller_a), 0);
    ck_assert_int_eq(scope_callsite_set_frame(&s, &main_frame), 1);
    struct scope_callsite_frame copy = caller_a;
    copy.function = "caller_a";   /* another pointer, the same text */
    ck_assert_int_eq(scope_callsite_set_frame(&s, &copy), 0);
    copy.line = 22;
    ck_assert_int_eq(scope_callsite_set_frame(&s, &copy), 2);
    ck_assert_int_eq(scope_callsite_set_site(&s, (int32_t[]){0, 1}, 2), 0);
    ck_assert_int_eq(scope_callsite_set_site(&s, (int32_t[]){0}, 1), 1);
    ck_assert_int_eq(scope_callsite_set_site(&s, (int32_t[]){0, 1}, 2), 0);
    ck_assert_uint_eq(s.depth, 2);
    struct scope_callsite_table t;
    int32_t *storage;
    ck_assert_int_eq(scope_callsite_set_table(&s, &t, &storage), 0);
    ck_assert_uint_eq(t.nsites, 2);
    ck_assert_uint_eq(t.depth, 2);
    const int32_t want[] = {0, 1, 0, -1};
    ck_assert_mem_eq(t.sites, want, sizeof(want));
    ck_assert_str_eq(t.frames[1].function, "main");
    ck_assert_ptr_null(t.frames[1].file);
    free(storage);
    scope_callsite_set_free(&s);
}
END_TEST

/* Two ranks name the same call differently ordered: the merged table holds
 * each frame and stack once and the maps agree. */
START_TEST(ranks_merged)
{
    struct scope_callsite_set rank0, rank1, run;
    scope_callsite_set_init(&rank0);
    scope_callsite_set_init(&rank1);
    scope_callsite_set_init(&run);
    scope_callsite_set_frame(&rank0, &caller_a);
    scope_callsite_set_frame(&rank0, &main_frame);
    scope_callsite_set_site(&rank0, (int32_t[]){0, 1}, 2);
    scope_callsite_set_frame(&rank1, &caller_b);
    scope_callsite_set_frame(&rank1, &caller_a);
    scope_callsite_set_frame(&rank1, &main_frame);
    scope_callsite_set_site(&rank1, (int32_t[]){0, 2}, 2);
    scope_callsite_set_site(&rank1, (int32_t[]){1, 2}, 2);
    struct scope_callsite_table t0, t1;
    int32_t *s0, *s1, *map0, *map1;
    ck_assert_int_eq(scope_callsite_set_table(&rank0, &t0, &s0), 0);
    ck_assert_int_eq(scope_callsite_set_table(&rank1, &t1, &s1), 0);
    ck_assert_int_eq(scope_callsite_set_add_table(&run, &t0, &map0), 0);
    ck_assert_int_eq(scope_callsite_set_add_table(&run, &t1, &map1), 0);
    ck_assert_uint_eq(run.nframes, 3);
    ck_assert_uint_eq(run.nsites, 2);
    ck_assert_int_eq(map1[1], map0[0]);   /* caller_a <- main on both ranks */
    ck_assert_int_ne(map1[0], map0[0]);
    free(s0);
    free(s1);
    free(map0);
    free(map1);
    scope_callsite_set_free(&rank0);
    scope_callsite_set_free(&rank1);
    scope_callsite_set_free(&run);
}
END_TEST

START_TEST(blob_roundtrip_and_damage)
{
    struct scope_callsite_frame frames[] = {caller_a, main_frame, {"/lib/libm.so", NULL, NULL, 9, 0}};
    int32_t sites[] = {0, 1, 2, -1};
    struct scope_callsite_table t = {frames, 3, sites, 2, 2}, back;
    size_t len;
    char *blob = scope_callsite_blob_pack(&t, &len);
    ck_assert_ptr_nonnull(blob);
    struct scope_callsite_frame *owned;
    ck_assert_int_eq(scope_callsite_blob_unpack(blob, len, &back, &owned), 0);
    ck_assert_uint_eq(back.nframes, 3);
    ck_assert_uint_eq(back.nsites, 2);
    ck_assert_uint_eq(back.depth, 2);
    ck_assert_mem_eq(back.sites, sites, sizeof(sites));
    ck_assert_str_eq(back.frames[0].file, "app.c");
    ck_assert_int_eq(back.frames[0].line, 21);
    ck_assert_ptr_null(back.frames[1].file);
    ck_assert_ptr_null(back.frames[2].function);
    ck_assert_uint_eq(back.frames[2].offset, 9);
    free(owned);
    for (size_t cut = 0; cut < len; cut++) {   /* every truncation is refused */
        ck_assert_int_eq(scope_callsite_blob_unpack(blob, cut, &back, &owned), -1);
        ck_assert_ptr_null(owned);
    }
    free(blob);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("callsites");
    TCase *tc = tcase_create("tables");
    tcase_add_test(tc, address_stacks_interned);
    tcase_add_test(tc, frames_and_sites_interned);
    tcase_add_test(tc, ranks_merged);
    tcase_add_test(tc, blob_roundtrip_and_damage);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
