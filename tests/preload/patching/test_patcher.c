/* test_patcher.c: Check unit tests for preload/patching/patcher.c: the patch window
 * after endbr64, relocation of RIP-relative operands and short branches
 * (verified by decoding the result with Zydis), every refusal with its
 * reason, short functions borrowing the padding after them, branches from
 * split-off fragments, the direct calls and jumps found for the call-site
 * fallback, and a live patch of a function in this test that must still
 * compute the same results through its trampoline. */
#include <Zydis/Zydis.h>
#include <check.h>

#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "elf_symbols.h"
#include "patch_analyze.h"
#include "patcher.h"
#include "thread_state.h"
#include "trampoline.h"

static char why[256];

/* The absolute target of the first relative operand of the instruction at p. */
static uint64_t decoded_target(const uint8_t *p, size_t len, uint64_t at, ZydisMnemonic *m)
{
    ZydisDecoder d;
    ZydisDecodedInstruction insn;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    ZydisDecoderInit(&d, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ck_assert(ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d, p, len, &insn, ops)));
    *m = insn.mnemonic;
    for (int k = 0; k < insn.operand_count_visible; k++) {
        ZyanU64 t;
        if ((ops[k].type == ZYDIS_OPERAND_TYPE_MEMORY && ops[k].mem.base == ZYDIS_REGISTER_RIP) ||
            (ops[k].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && ops[k].imm.is_relative)) {
            ck_assert(ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&insn, &ops[k], at, &t)));
            return t;
        }
    }
    ck_abort_msg("no relative operand");
    return 0;
}

START_TEST(window_after_endbr64)
{
    /* endbr64; push rbp; mov rbp,rsp; pop rbp; ret */
    const uint8_t code[] = {0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89, 0xe5, 0x5d, 0xc3};
    struct scope_patch_site s;
    struct scope_function_code f = {{code, 0x1000, sizeof(code)}, sizeof(code), NULL, 0};
    ck_assert_int_eq(scope_patch_analyze(&f, &s, why, sizeof(why)), 0);
    ck_assert_uint_eq(s.site_offset, 4);
    ck_assert_uint_eq(s.window, 5);
    ck_assert_uint_eq(s.moved, 5);
}
END_TEST

START_TEST(rip_relative_load_relocated)
{
    /* movsd xmm0, [rip+0x10] */
    const uint8_t code[] = {0xf2, 0x0f, 0x10, 0x05, 0x10, 0x00, 0x00, 0x00};
    uint8_t out[32];
    uintptr_t from = 0x400000, to = 0x500000;
    long n = scope_relocate(code, sizeof(code), from, out, sizeof(out), to, why, sizeof(why));
    ck_assert_msg(n == 8, "relocated to %ld bytes: %s", n, why);
    ZydisMnemonic m;
    ck_assert_uint_eq(decoded_target(out, (size_t)n, to, &m), from + 8 + 0x10);
    ck_assert_int_eq(m, ZYDIS_MNEMONIC_MOVSD);
}
END_TEST

START_TEST(short_jcc_widened)
{
    /* test edi,edi; je +0x10; mov eax,1 */
    const uint8_t code[] = {0x85, 0xff, 0x74, 0x10, 0xb8, 0x01, 0x00, 0x00, 0x00};
    uint8_t out[64];
    uintptr_t from = 0x400000, to = 0x40000000;
    long n = scope_relocate(code, sizeof(code), from, out, sizeof(out), to, why, sizeof(why));
    ck_assert_msg(n == 2 + 6 + 5, "relocated to %ld bytes: %s", n, why);
    ZydisMnemonic m;
    ck_assert_uint_eq(decoded_target(out + 2, 6, to + 2, &m), from + 4 + 0x10);
    ck_assert_int_eq(m, ZYDIS_MNEMONIC_JZ);
    ck_assert_mem_eq(out + 8, code + 4, 5);
}
END_TEST

START_TEST(out_of_reach_refused)
{
    const uint8_t code[] = {0xf2, 0x0f, 0x10, 0x05, 0x10, 0x00, 0x00, 0x00};
    uint8_t out[32];
    uintptr_t from = 0x400000, to = from + (UINT64_C(3) << 30);
    ck_assert_int_lt(scope_relocate(code, sizeof(code), from, out, sizeof(out), to, why,
                                    sizeof(why)), 0);
    ck_assert_ptr_nonnull(strstr(why, "out of rel32 reach"));
}
END_TEST

static void assert_refused(const uint8_t *code, size_t size, const char *reason)
{
    struct scope_patch_site s;
    struct scope_function_code f = {{code, 0x1000, size}, size, NULL, 0};
    why[0] = '\0';
    ck_assert_int_eq(scope_patch_analyze(&f, &s, why, sizeof(why)), -1);
    ck_assert_msg(strstr(why, reason), "reason '%s' lacks '%s'", why, reason);
}

START_TEST(refusals)
{
    /* xor eax,eax; add rax,1; cmp rax,10; jne -> +2 (inside the window); ret */
    const uint8_t loop_into[] = {0x31, 0xc0, 0x48, 0x83, 0xc0, 0x01, 0x48,
                                 0x83, 0xf8, 0x0a, 0x75, 0xf6, 0xc3};
    assert_refused(loop_into, sizeof(loop_into), "branches into the patched bytes");
    const uint8_t tiny[] = {0x31, 0xc0, 0xc3};
    assert_refused(tiny, sizeof(tiny), "shorter than the 5-byte jump");
    uint8_t early_ret[16];
    memset(early_ret, 0xcc, sizeof(early_ret));
    early_ret[0] = 0xc3;
    assert_refused(early_ret, sizeof(early_ret), "ends after 1 bytes");
    uint8_t loop_insn[16];
    memset(loop_insn, 0x90, sizeof(loop_insn));
    loop_insn[0] = 0xe2;
    loop_insn[1] = 0xfe;
    assert_refused(loop_insn, sizeof(loop_insn), "no long form");
}
END_TEST

/* xor eax,eax; ret (3 bytes), then what follows it up to the next symbol. */
static int analyze_short(const uint8_t *after, size_t nafter, struct scope_patch_site *s)
{
    uint8_t code[16] = {0x31, 0xc0, 0xc3};
    memcpy(code + 3, after, nafter);
    struct scope_function_code f = {{code, 0x1000, 3}, 3 + nafter, NULL, 0};
    why[0] = '\0';
    return scope_patch_analyze(&f, s, why, sizeof(why));
}

START_TEST(short_function_borrows_padding)
{
    struct scope_patch_site s;
    const uint8_t int3[] = {0xcc, 0xcc, 0xcc, 0xcc, 0xcc};
    ck_assert_msg(analyze_short(int3, sizeof(int3), &s) == 0, "%s", why);
    ck_assert_uint_eq(s.site_offset, 0);
    ck_assert_uint_eq(s.moved, 3);
    ck_assert_uint_eq(s.window, 5);
    const uint8_t nopw[] = {0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00};
    ck_assert_msg(analyze_short(nopw, sizeof(nopw), &s) == 0, "%s", why);
    /* one byte short of the jump before the next symbol */
    ck_assert_int_eq(analyze_short(int3, 1, &s), -1);
    ck_assert_ptr_nonnull(strstr(why, "no padding follows"));
    /* code, not padding: push rbp; mov rbp,rsp */
    const uint8_t code[] = {0x55, 0x48, 0x89, 0xe5};
    ck_assert_int_eq(analyze_short(code, sizeof(code), &s), -1);
    ck_assert_ptr_nonnull(strstr(why, "no padding follows"));
}
END_TEST

START_TEST(fragment_branch_into_window_refused)
{
    /* push rbp; mov rbp,rsp; push rbx; sub rsp,8; ...; ret */
    const uint8_t body[] = {0x55, 0x48, 0x89, 0xe5, 0x53, 0x48, 0x83, 0xec, 0x08,
                            0x48, 0x83, 0xc4, 0x08, 0x5b, 0x5d, 0xc3};
    /* foo.cold at 0x2000: jmp 0x1004 (the push rbx, inside the window) */
    uint8_t cold[5] = {0xe9};
    int32_t rel = (int32_t)(0x1004 - (0x2000 + 5));
    memcpy(cold + 1, &rel, 4);
    struct scope_code fragment = {cold, 0x2000, sizeof(cold)};
    struct scope_function_code f = {{body, 0x1000, sizeof(body)}, sizeof(body), &fragment, 1};
    struct scope_patch_site s;
    ck_assert_int_eq(scope_patch_analyze(&f, &s, why, sizeof(why)), -1);
    ck_assert_msg(strstr(why, "0x2000, in a part split off the function"), "%s", why);
    ck_assert_int_eq(scope_patch_check(&f, why, sizeof(why)), SCOPE_REFUSED_BRANCH_INTO_WINDOW);
    /* back to the start of the function or past the window: fine */
    rel = (int32_t)(0x1000 - (0x2000 + 5));
    memcpy(cold + 1, &rel, 4);
    ck_assert_msg(scope_patch_analyze(&f, &s, why, sizeof(why)) == 0, "%s", why);
    rel = (int32_t)(0x100d - (0x2000 + 5));
    memcpy(cold + 1, &rel, 4);
    ck_assert_msg(scope_patch_analyze(&f, &s, why, sizeof(why)) == 0, "%s", why);
}
END_TEST

__attribute__((noinline, visibility("default"))) double mix(int a, double b, long c)
{
    __asm__ volatile("");
    return a * b + (double)c;
}

struct lookup {
    const char *name;
    size_t size;
};

static int find_size(const struct scope_symbol *sym, void *ctx)
{
    struct lookup *l = ctx;
    if (strcmp(sym->name, l->name) != 0)
        return 0;
    l->size = sym->size;
    return 1;
}

struct found_branches {
    uintptr_t displacement[8], end[8];
    size_t target[8], n;
};

static void keep_branch(const struct scope_rel32_branch *b, void *ctx)
{
    struct found_branches *f = ctx;
    ck_assert_uint_lt(f->n, 8);
    f->displacement[f->n] = b->displacement;
    f->end[f->n] = b->end;
    f->target[f->n++] = b->target;
}

START_TEST(rel32_branches_found)
{
    /* at 0x1000: call 0x2000; jmp 0x3000 (short form: not seen); call
     * 0x2800 (not sought); jne 0x3000 (rel32); bnd jmp 0x2000; then an
     * undecodable byte, after which a call 0x2000 is not read */
    static const uint8_t code[] = {
        0xe8, 0xfb, 0x0f, 0x00, 0x00,             /* 1000: call 2000 */
        0xeb, 0x00,                               /* 1005: jmp +0 (short) */
        0xe8, 0xf4, 0x17, 0x00, 0x00,             /* 1007: call 2800 */
        0x0f, 0x85, 0xee, 0x1f, 0x00, 0x00,       /* 100c: jne 3000 */
        0xf2, 0xe9, 0xe8, 0x0f, 0x00, 0x00,       /* 1012: bnd jmp 2000 */
        0x06,                                     /* 1018: push es: invalid in 64-bit */
        0xe8, 0xe2, 0x0f, 0x00, 0x00,             /* 1019: call 2000 */
    };
    const uintptr_t targets[] = {0x2000, 0x3000};
    struct scope_code piece = {code, 0x1000, sizeof code};
    struct found_branches f = {0};
    ck_assert_uint_eq(scope_find_rel32_branches(&piece, targets, 2, keep_branch, &f), 3);
    ck_assert_uint_eq(f.displacement[0], 0x1001);
    ck_assert_uint_eq(f.end[0], 0x1005);
    ck_assert_uint_eq(f.target[0], 0);
    ck_assert_uint_eq(f.displacement[1], 0x100e);
    ck_assert_uint_eq(f.end[1], 0x1012);
    ck_assert_uint_eq(f.target[1], 1);
    ck_assert_uint_eq(f.displacement[2], 0x1014);
    ck_assert_uint_eq(f.end[2], 0x1018);
    ck_assert_uint_eq(f.target[2], 0);
}
END_TEST

START_TEST(live_patch_keeps_results)
{
    struct lookup l = {"mix", 0};
    char err[256];
    ck_assert_int_eq(scope_elf_foreach_symbol("/proc/self/exe", 0, 1, find_size, &l, err,
                                              sizeof(err)), 0);
    ck_assert_uint_gt(l.size, 0);
    struct scope_patch p;
    struct scope_function_code f = {{(const uint8_t *)&mix, (uintptr_t)&mix, l.size}, l.size,
                                    NULL, 0};
    struct scope_patch_site site;
    ck_assert_msg(scope_patch_analyze(&f, &site, why, sizeof(why)) == 0, "%s", why);
    ck_assert_msg(scope_patch_prepare(&f, &site, 0, &p, &scope_hook_targets[0], why,
                                      sizeof(why)) == 0, "%s", why);
    ck_assert_int_eq(scope_trampoline_seal(), 0);
    int applied = 0;
    scope_patch_apply_all(&p, 1, &applied, why, sizeof(why));
    ck_assert_msg(applied, "%s", why);
    ck_assert_uint_eq(((const uint8_t *)p.site)[0], 0xe9);
    double (*volatile call)(int, double, long) = mix;
    ck_assert(call(3, 0.5, 10) == 11.5);
    ck_assert(call(-2, 4.25, 1) == -7.5);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("patcher");
    TCase *tc = tcase_create("patcher");
    tcase_add_test(tc, window_after_endbr64);
    tcase_add_test(tc, rip_relative_load_relocated);
    tcase_add_test(tc, short_jcc_widened);
    tcase_add_test(tc, out_of_reach_refused);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, short_function_borrows_padding);
    tcase_add_test(tc, fragment_branch_into_window_refused);
    tcase_add_test(tc, rel32_branches_found);
    tcase_add_test(tc, live_patch_keeps_results);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
