/* test_branch_scan.c: Check unit tests for preload/patching/branch_scan.c:
 * on random code of every length up to a few blocks, at addresses that
 * put targets across 32-bit boundaries, each scan must hand out exactly
 * the bytes a byte-by-byte reading of the branch forms finds, in order,
 * for ranges of one place, a few hundred bytes and the whole address
 * space. */
#include <check.h>

#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "branch_scan.h"

/* The place the bytes at i name as a branch of form `rel32` (call, jmp,
 * jcc rel32, and xbegin when xbegin), or of any form: 1 and *target. */
static int reference_branch(const uint8_t *b, size_t n, size_t i, uintptr_t address, int any,
                            int xbegin, uintptr_t *target)
{
    int32_t rel;
    size_t left = n - i;
    if ((b[i] == 0xe8 || b[i] == 0xe9) && left >= 5) {
        memcpy(&rel, b + i + 1, 4);
        *target = address + i + 5 + (uintptr_t)(int64_t)rel;
        return 1;
    }
    if (left >= 6 && ((b[i] == 0x0f && (b[i + 1] & 0xf0) == 0x80) ||
                      ((any || xbegin) && b[i] == 0xc7 && b[i + 1] == 0xf8))) {
        memcpy(&rel, b + i + 2, 4);
        *target = address + i + 6 + (uintptr_t)(int64_t)rel;
        return 1;
    }
    if (any && left >= 2 &&
        (b[i] == 0xeb || (b[i] & 0xf0) == 0x70 || (b[i] & 0xfc) == 0xe0)) {
        *target = address + i + 2 + (uintptr_t)(int64_t)(int8_t)b[i + 1];
        return 1;
    }
    return 0;
}

/* Random bytes, one in four a branch opcode, some branches aimed at `aim`. */
static void random_code(uint8_t *b, size_t n, uintptr_t address, uintptr_t aim)
{
    static const uint8_t opcodes[] = {0xe8, 0xe9, 0x0f, 0x85, 0xc7, 0xf8, 0xeb, 0x74, 0xe2};
    for (size_t i = 0; i < n; i++)
        b[i] = rand() % 4 ? (uint8_t)rand() : opcodes[rand() % sizeof opcodes];
    for (size_t i = 0; i + 5 <= n; i += 1 + (size_t)rand() % 40) {
        int32_t rel = (int32_t)(aim - (address + i + 5));
        b[i] = 0xe8;
        memcpy(b + i + 1, &rel, 4);
    }
}

static void check_rel32(const uint8_t *b, size_t n, uintptr_t address, uintptr_t lo,
                        uintptr_t hi, int xbegin)
{
    struct scope_code piece = {b, address, n};
    struct scope_branch_scan s;
    scope_branch_scan_rel32(&s, &piece, lo, hi, xbegin);
    uintptr_t want, got = 0;
    for (size_t i = 0; i < n; i++) {
        if (!reference_branch(b, n, i, address, 0, xbegin, &want) || want < lo || want > hi)
            continue;
        size_t at = scope_branch_scan_next(&s, &got);
        ck_assert_msg(at == i, "n %zu: found %zu, byte %zu expected", n, at, i);
        ck_assert_uint_eq(got, want);
    }
    ck_assert_uint_eq(scope_branch_scan_next(&s, &got), n);
}

START_TEST(rel32_scan_finds_what_bytes_say)
{
    static const uintptr_t addresses[] = {0x1000, 0xfffff000u, 0x7fffffffe000u, 0x100000123u};
    srand(20);
    for (size_t a = 0; a < sizeof addresses / sizeof addresses[0]; a++)
        for (size_t n = 0; n <= 700; n += n < 64 ? 1 : 37) {
            uint8_t *b = malloc(n ? n : 1);   /* exactly n: a read past it is caught by ASan */
            ck_assert_ptr_nonnull(b);
            uintptr_t address = addresses[a], aim = address + (uintptr_t)rand() % 4096;
            random_code(b, n, address, aim);
            for (int xbegin = 0; xbegin <= 1; xbegin++) {
                check_rel32(b, n, address, aim, aim, xbegin);
                check_rel32(b, n, address, aim - 300, aim + 300, xbegin);
                check_rel32(b, n, address, address > 0x7fffffffu ? address - 0x7fffffffu : 0,
                            address + 0x80000000u, xbegin);
                check_rel32(b, n, address, 0, UINTPTR_MAX, xbegin);
            }
            free(b);
        }
}
END_TEST

START_TEST(branch_bytes_find_every_form)
{
    srand(21);
    for (size_t n = 0; n <= 300; n++) {
        uint8_t *b = malloc(n ? n : 1);
        ck_assert_ptr_nonnull(b);
        uintptr_t address = 0x7fffffff0000u + (uintptr_t)rand() % 65536, want, got = 0;
        random_code(b, n, address, address + 64);
        struct scope_code piece = {b, address, n};
        struct scope_branch_scan it;
        scope_branch_scan_all(&it, &piece);
        for (size_t i = 0; i < n; i++) {
            if (!reference_branch(b, n, i, address, 1, 1, &want))
                continue;
            size_t at = scope_branch_scan_next(&it, &got);
            ck_assert_msg(at == i, "n %zu: found %zu, byte %zu expected", n, at, i);
            ck_assert_uint_eq(got, want);
        }
        ck_assert_uint_eq(scope_branch_scan_next(&it, &got), n);
        free(b);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("branch_scan");
    TCase *tc = tcase_create("branch_scan");
    tcase_add_test(tc, rel32_scan_finds_what_bytes_say);
    tcase_add_test(tc, branch_bytes_find_every_form);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
