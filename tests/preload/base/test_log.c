/* test_log.c: Check unit tests of preload/base/log.c's held lines: a line
 * said outside a hold is written at once; lines said while holding are not,
 * until the buffer fills, the hold is released or a signal handler writes
 * them, and then every one of them is there once, whole and in order. */
#include <check.h>

#include "check_main.h"
#include "log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Sends stderr to a fresh temporary file; returns its descriptor. */
static int stderr_to_file(void)
{
    char path[] = "/tmp/scope-test-log-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    ck_assert_int_eq(dup2(fd, STDERR_FILENO), STDERR_FILENO);
    return fd;
}

static off_t written(int fd)
{
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    return st.st_size;
}

START_TEST(held_lines_written_whole_in_order)
{
    enum { N = 3000 };   /* about 130 KB: the 64 KiB buffer fills twice */
    int fd = stderr_to_file();
    scope_log("before the hold");
    ck_assert_int_eq(written(fd), (off_t)strlen("scope: before the hold\n"));
    off_t before = written(fd);
    scope_log_hold();
    for (int i = 0; i < N; i++) {
        scope_log("hooked function_number_%04d in /some/library.so", i);
        if (i == 10)
            ck_assert_int_eq(written(fd), before);
    }
    ck_assert_int_gt(written(fd), before);   /* full buffers went out */
    scope_log_release();
    scope_log("after the hold");
    off_t size = written(fd);
    char *text = malloc((size_t)size + 1);
    ck_assert_int_eq(pread(fd, text, (size_t)size, 0), size);
    text[size] = '\0';
    char *line = strtok(text, "\n");
    ck_assert_str_eq(line, "scope: before the hold");
    for (int i = 0; i < N; i++) {
        char want[128];
        snprintf(want, sizeof want, "scope: hooked function_number_%04d in /some/library.so", i);
        line = strtok(NULL, "\n");
        ck_assert_ptr_nonnull(line);
        ck_assert_str_eq(line, want);
    }
    ck_assert_str_eq(strtok(NULL, "\n"), "scope: after the hold");
    ck_assert_ptr_null(strtok(NULL, "\n"));
    free(text);
}
END_TEST

/* A fault or signal while lines are held writes them (fault_signals.c
 * calls scope_log_write_held): nothing is lost, nothing comes twice. */
START_TEST(held_lines_written_on_demand)
{
    int fd = stderr_to_file();
    scope_log_hold();
    scope_log("one");
    scope_log("two");
    ck_assert_int_eq(written(fd), 0);
    scope_log_write_held();
    const char *want = "scope: one\nscope: two\n";
    ck_assert_int_eq(written(fd), (off_t)strlen(want));
    scope_log_release();
    ck_assert_int_eq(written(fd), (off_t)strlen(want));
    char text[64] = "";
    ck_assert_int_eq(pread(fd, text, sizeof text - 1, 0), (ssize_t)strlen(want));
    ck_assert_str_eq(text, want);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("log");
    TCase *tc = tcase_create("log");
    tcase_add_test(tc, held_lines_written_whole_in_order);
    tcase_add_test(tc, held_lines_written_on_demand);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
