/* check_main.h: the one way the Check unit tests run their suite: all
 * tests, normal verbosity, exit status from the number of failures. */
#ifndef SCOPE_CHECK_MAIN_H
#define SCOPE_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

static inline int scope_check_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
