/* test_name_index.c: Check unit tests of preload/base/name_index.c: every
 * name added is found at its position, through the table's growth, and a
 * name never added is not. */
#include <check.h>

#include "check_main.h"
#include "name_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(names_found_where_added)
{
    enum { N = 5000 };
    char **names = calloc(N, sizeof *names);
    struct scope_name_index x = {0};
    ck_assert_int_eq(scope_name_index_find(&x, names, "f0"), -1);
    for (size_t i = 0; i < N; i++) {
        char text[32];
        snprintf(text, sizeof text, "f%zu", i);
        names[i] = strdup(text);
        ck_assert_int_eq(scope_name_index_add(&x, names, i + 1), 0);
    }
    for (size_t i = 0; i < N; i++)
        ck_assert_int_eq(scope_name_index_find(&x, names, names[i]), (long)i);
    ck_assert_int_eq(scope_name_index_find(&x, names, "f5000"), -1);
    ck_assert_int_eq(scope_name_index_find(&x, names, ""), -1);
    ck_assert_uint_ge(x.cap, 2 * N);
    for (size_t i = 0; i < N; i++)
        free(names[i]);
    free(names);
    free(x.slot);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("name_index");
    TCase *tc = tcase_create("index");
    tcase_add_test(tc, names_found_where_added);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
