/* patch_analyze.c: the pure, instruction-level half of hooking, with Zydis:
 * find the patch window, refuse what cannot be moved safely, relocate the
 * displaced instructions (RIP-relative operands re-encoded, short branches
 * widened) and verify the result by decoding it again. Reads bytes and
 * writes into caller buffers only, so `scope check` runs it on a file. */
#include "patch_analyze.h"
#include "branch_scan.h"
#include "lower_bound.h"

#include <Zydis/Zydis.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct insn {
    ZydisDecodedInstruction i;
    ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
};

static ZydisDecoder *decoder(void)
{
    static ZydisDecoder d;
    static int ready;
    if (!ready) {
        ZydisDecoderInit(&d, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
        ready = 1;
    }
    return &d;
}

static int decode(const uint8_t *p, size_t len, struct insn *out)
{
    return ZYAN_SUCCESS(ZydisDecoderDecodeFull(decoder(), p, len, &out->i, out->op)) ? 0 : -1;
}

/* The operand that makes the instruction position-dependent, or -1. */
static int relative_operand(const struct insn *x)
{
    for (int k = 0; k < x->i.operand_count; k++) {
        const ZydisDecodedOperand *o = &x->op[k];
        if (k >= x->i.operand_count_visible)
            break;
        if (o->type == ZYDIS_OPERAND_TYPE_IMMEDIATE && o->imm.is_relative)
            return k;
        if (o->type == ZYDIS_OPERAND_TYPE_MEMORY && o->mem.base == ZYDIS_REGISTER_RIP)
            return k;
    }
    return -1;
}

static int is_terminator(const struct insn *x)
{
    switch (x->i.meta.category) {
    case ZYDIS_CATEGORY_RET:
    case ZYDIS_CATEGORY_UNCOND_BR:
        return 1;
    default:
        return x->i.mnemonic == ZYDIS_MNEMONIC_INT3 || x->i.mnemonic == ZYDIS_MNEMONIC_UD2 ||
               x->i.mnemonic == ZYDIS_MNEMONIC_HLT;
    }
}

static int has_short_only_form(ZydisMnemonic m)
{
    return m == ZYDIS_MNEMONIC_LOOP || m == ZYDIS_MNEMONIC_LOOPE || m == ZYDIS_MNEMONIC_LOOPNE ||
           m == ZYDIS_MNEMONIC_JRCXZ || m == ZYDIS_MNEMONIC_JECXZ || m == ZYDIS_MNEMONIC_XBEGIN;
}

/* Calls fn(at, insn, target, ctx) for each instruction of piece, decoded
 * from its start, that has a relative immediate operand (call, jmp, jcc,
 * loop...), until fn returns non-zero; returns that value, or 0. An
 * undecodable byte is stepped over (skip_bad) or ends the walk. */
static long walk_branches(const struct scope_code *piece, int skip_bad,
                          long (*fn)(size_t at, const struct insn *x, uintptr_t target, void *ctx),
                          void *ctx)
{
    struct insn x;
    for (size_t off = 0; off < piece->size;) {
        if (decode(piece->bytes + off, piece->size - off, &x) != 0) {
            if (!skip_bad)
                return 0;
            off++;
            continue;
        }
        int k = relative_operand(&x);
        ZyanU64 target;
        long rc;
        if (k >= 0 && x.op[k].type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
            ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&x.i, &x.op[k], piece->address + off, &target)) &&
            (rc = fn(off, &x, (uintptr_t)target, ctx)) != 0)
            return rc;
        off += x.i.length;
    }
    return 0;
}

struct window { uintptr_t lo, hi; };

static long lands_in_window(size_t at, const struct insn *x, uintptr_t target, void *ctx)
{
    (void)x;
    const struct window *w = ctx;
    return target > w->lo && target < w->hi ? (long)at + 1 : 0;
}

/* Whether some byte of piece could begin a direct branch into (lo, hi):
 * most functions are ruled out without decoding their whole body, and
 * most of a body's bytes need only be read as the start of a rel32 form. */
static int may_branch_into(const struct scope_code *piece, uintptr_t lo, uintptr_t hi)
{
    uintptr_t target;
    if (hi - lo < 2)
        return 0;
    /* call, jmp, jcc and xbegin rel32: from anywhere */
    struct scope_branch_scan scan;
    scope_branch_scan_rel32(&scan, piece, lo + 1, hi - 1, 1);
    if (scope_branch_scan_next(&scan, &target) < piece->size)
        return 1;
    /* rel8 forms reach 128 bytes back and 127 on from their end: only the
     * bytes within that of the window can begin one that lands in it */
    int64_t from = (int64_t)(lo - piece->address) - 129, to = (int64_t)(hi - piece->address) + 126;
    from = from < 0 ? 0 : from;
    to = to > (int64_t)piece->size ? (int64_t)piece->size : to;
    if (from >= to)
        return 0;
    size_t with = (size_t)to + 8 < piece->size ? (size_t)to + 8 : piece->size;
    struct scope_code near = {piece->bytes + from, piece->address + (uintptr_t)from,
                              with - (size_t)from};
    scope_branch_scan_all(&scan, &near);
    for (size_t i = scope_branch_scan_next(&scan, &target); i < (size_t)(to - from);
         i = scope_branch_scan_next(&scan, &target))
        if (target > lo && target < hi)
            return 1;
    return 0;
}

/* The offset in piece of an instruction that branches into (lo, hi), or
 * -1. */
static long branch_into_window(const struct scope_code *piece, uintptr_t lo, uintptr_t hi)
{
    if (!may_branch_into(piece, lo, hi))
        return -1;
    struct window w = {lo, hi};
    return walk_branches(piece, 1, lands_in_window, &w) - 1;
}

struct rel32_search {
    const struct scope_code *piece;
    const uintptr_t *targets;
    size_t ntargets;
    scope_rel32_fn fn;
    void *ctx;
    size_t found;
};

static long rel32_to_target(size_t at, const struct insn *x, uintptr_t target, void *ctx)
{
    struct rel32_search *s = ctx;
    if (x->i.raw.imm[0].size != 32 || !x->i.raw.imm[0].is_relative ||
        x->i.raw.imm[0].offset + 4u != x->i.length)
        return 0;
    size_t lo = scope_lower_bound(s->targets, s->ntargets, target);
    if (lo < s->ntargets && s->targets[lo] == target) {
        const struct scope_rel32_branch b = {
            .displacement = s->piece->address + at + x->i.raw.imm[0].offset,
            .end = s->piece->address + at + x->i.length,
            .bytes = s->piece->bytes + at + x->i.raw.imm[0].offset,
            .target = lo};
        s->fn(&b, s->ctx);
        s->found++;
    }
    return 0;
}

int scope_may_branch_to(const struct scope_code *piece, const uintptr_t *targets,
                        size_t ntargets)
{
    uintptr_t target;
    struct scope_branch_scan scan;
    scope_branch_scan_rel32(&scan, piece, targets[0], targets[ntargets - 1], 0);
    for (size_t i = scope_branch_scan_next(&scan, &target); i < piece->size;
         i = scope_branch_scan_next(&scan, &target)) {
        size_t at = scope_lower_bound(targets, ntargets, target);
        if (at < ntargets && targets[at] == target)
            return 1;
    }
    return 0;
}

size_t scope_find_rel32_branches(const struct scope_code *piece, const uintptr_t *targets,
                                 size_t ntargets, scope_rel32_fn fn, void *ctx)
{
    struct rel32_search s = {piece, targets, ntargets, fn, ctx, 0};
    if (ntargets && scope_may_branch_to(piece, targets, ntargets))
        walk_branches(piece, 0, rel32_to_target, &s);
    return s.found;
}

/* Are the bytes code[from, to) int3 or nop instructions (the last may run
 * on past `to`, up to room)? */
static int is_padding(const uint8_t *code, size_t from, size_t to, size_t room)
{
    struct insn x;
    for (size_t off = from; off < to; off += x.i.length)
        if (decode(code + off, room - off, &x) != 0 ||
            (x.i.mnemonic != ZYDIS_MNEMONIC_NOP && x.i.mnemonic != ZYDIS_MNEMONIC_INT3))
            return 0;
    return 1;
}

/* Writes the reason and returns its kind. */
static enum scope_refusal refuse(enum scope_refusal kind, char *why, size_t whylen,
                                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static enum scope_refusal refuse(enum scope_refusal kind, char *why, size_t whylen,
                                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
    return kind;
}

/* A function whose instructions, ending in a ret or jmp, are all shorter
 * than the jump: the jump may still fit if padding follows it. */
static enum scope_refusal borrow_padding(const struct scope_function_code *f,
                                         struct scope_patch_site *site, int ends,
                                         char *why, size_t whylen)
{
    size_t end = site->site_offset + SCOPE_JUMP_BYTES, size = f->code.size;
    if (ends && end <= f->room && is_padding(f->code.bytes, size, end, f->room)) {
        site->window = SCOPE_JUMP_BYTES;
        return SCOPE_HOOKABLE;
    }
    if (site->site_offset)
        return refuse(SCOPE_REFUSED_TOO_SHORT, why, whylen,
                      "the function is %zu bytes, %zu after its endbr64: too short for the "
                      "5-byte jump, and no padding follows it", size, size - site->site_offset);
    return refuse(SCOPE_REFUSED_TOO_SHORT, why, whylen,
                  "the function is %zu bytes, shorter than the 5-byte jump, and no padding "
                  "follows it", size);
}

static enum scope_refusal analyze(const struct scope_function_code *f,
                                  struct scope_patch_site *site, char *why, size_t whylen)
{
    const uint8_t *code = f->code.bytes;
    size_t size = f->code.size, off = 0;
    struct insn x;
    if (size > 0 && decode(code, size, &x) == 0 && x.i.mnemonic == ZYDIS_MNEMONIC_ENDBR64)
        off = x.i.length;
    site->site_offset = off;
    int ends = 0;   /* the last instruction seen is a ret, jmp, int3... */
    while (off - site->site_offset < SCOPE_JUMP_BYTES && off < size) {
        if (decode(code + off, size - off, &x) != 0)
            return refuse(SCOPE_REFUSED_UNDECODABLE, why, whylen,
                          "undecodable instruction at +%#zx", off);
        if (has_short_only_form(x.i.mnemonic))
            return refuse(SCOPE_REFUSED_SHORT_ONLY, why, whylen,
                          "%s at +%#zx has no long form to relocate to",
                          ZydisMnemonicGetString(x.i.mnemonic), off);
        off += x.i.length;
        ends = is_terminator(&x);
        if (ends && off - site->site_offset < SCOPE_JUMP_BYTES && off < size)
            return refuse(SCOPE_REFUSED_ENDS_IN_WINDOW, why, whylen,
                          "the function ends after %zu bytes, before the 5-byte jump fits", off);
    }
    site->moved = site->window = off - site->site_offset;
    if (site->moved < SCOPE_JUMP_BYTES) {
        enum scope_refusal r = borrow_padding(f, site, ends, why, whylen);
        if (r != SCOPE_HOOKABLE)
            return r;
    }
    uintptr_t lo = f->code.address + site->site_offset, hi = lo + site->window;
    long at = branch_into_window(&f->code, lo, hi);
    if (at >= 0)
        return refuse(SCOPE_REFUSED_BRANCH_INTO_WINDOW, why, whylen,
                      "the instruction at +%#lx branches into the patched bytes", (unsigned long)at);
    for (size_t i = 0; i < f->nfragments; i++)
        if ((at = branch_into_window(&f->fragments[i], lo, hi)) >= 0)
            return refuse(SCOPE_REFUSED_BRANCH_INTO_WINDOW, why, whylen,
                          "the instruction at %#lx, in a part split off the function, "
                          "branches into the patched bytes",
                          (unsigned long)(f->fragments[i].address + (uintptr_t)at));
    return SCOPE_HOOKABLE;
}

int scope_patch_analyze(const struct scope_function_code *f, struct scope_patch_site *site,
                        char *why, size_t whylen)
{
    return analyze(f, site, why, whylen) == SCOPE_HOOKABLE ? 0 : -1;
}

/* Re-encodes one position-dependent instruction for its new address. */
static long relocate_one(const struct insn *x, int k, uintptr_t from, uint8_t *out,
                         size_t outlen, uintptr_t to, ZyanU64 *target, char *why, size_t whylen)
{
    ZydisEncoderRequest req;
    if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&x->i, &x->op[k], from, target)) ||
        !ZYAN_SUCCESS(ZydisEncoderDecodedInstructionToEncoderRequest(
            &x->i, x->op, x->i.operand_count_visible, &req))) {
        snprintf(why, whylen, "cannot re-encode %s", ZydisMnemonicGetString(x->i.mnemonic));
        return -1;
    }
    if (x->op[k].type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
        req.operands[k].imm.u = *target;
        req.branch_width = ZYDIS_BRANCH_WIDTH_NONE;
        req.branch_type = ZYDIS_BRANCH_TYPE_NONE;
    } else {
        req.operands[k].mem.displacement = (ZyanI64)*target;
    }
    ZyanUSize len = outlen;
    if (!ZYAN_SUCCESS(ZydisEncoderEncodeInstructionAbsolute(&req, out, &len, to))) {
        snprintf(why, whylen, "%s refers to %#llx, out of rel32 reach of the trampoline",
                 ZydisMnemonicGetString(x->i.mnemonic), (unsigned long long)*target);
        return -1;
    }
    return (long)len;
}

/* A call among the displaced instructions must leave its original return
 * address on the stack (an address in the trampoline would stop the
 * unwinder of a C++ exception): it becomes push <return address>; jmp
 * <target>, so the callee returns straight to the function's own code.
 * That is only right when the call ends the window. The target is a
 * direct call's, or read at the call as the original does: through a
 * RIP-relative slot (-fno-plt calls through the GOT) held in r11, which
 * no calling convention passes anything in, or from a register. */
static long relocate_call(const struct insn *x, int k, uintptr_t from, int last, uint8_t *out,
                          size_t outlen, char *why, size_t whylen)
{
    /* Both followed by .quad return; .quad target (direct) or slot. */
    /* push [rip+6]; jmp [rip+8] */
    static const uint8_t direct[12] = {0xff, 0x35, 6, 0, 0, 0, 0xff, 0x25, 8, 0, 0, 0};
    /* push [rip+10]; mov r11, [rip+11]; jmp [r11] */
    static const uint8_t through_slot[16] = {0xff, 0x35, 10, 0, 0, 0, 0x4c, 0x8b, 0x1d, 11, 0,
                                             0, 0, 0x41, 0xff, 0x23};
    /* push [rip+3 or 2]; jmp reg; .quad return */
    const ZydisDecodedOperand *op = &x->op[0];
    uint64_t ret = from + x->i.length;
    ZyanU64 target;
    if (!last) {
        snprintf(why, whylen, "a call in the first bytes is followed by patched bytes");
        return -1;
    }
    if (outlen < 32 + 16) {
        snprintf(why, whylen, "cannot relocate the call in the first bytes");
        return -1;
    }
    if (k >= 0 && ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&x->i, &x->op[k], from, &target))) {
        int slot = x->op[k].type == ZYDIS_OPERAND_TYPE_MEMORY;
        size_t n = slot ? sizeof(through_slot) : sizeof(direct);
        memcpy(out, slot ? through_slot : direct, n);
        memcpy(out + n, &ret, 8);
        memcpy(out + n + 8, &target, 8);
        return (long)(n + 16);
    }
    if (op->type == ZYDIS_OPERAND_TYPE_REGISTER && op->reg.value >= ZYDIS_REGISTER_RAX &&
        op->reg.value <= ZYDIS_REGISTER_R15 && op->reg.value != ZYDIS_REGISTER_RSP) {
        unsigned r = (unsigned)(op->reg.value - ZYDIS_REGISTER_RAX);
        size_t n = 0;
        size_t jmp_len = r >= 8 ? 3 : 2;
        out[n++] = 0xff;   /* push [rip + jmp_len]: the return address after the jmp */
        out[n++] = 0x35;
        uint32_t rel = (uint32_t)jmp_len;
        memcpy(out + n, &rel, 4);
        n += 4;
        if (r >= 8)
            out[n++] = 0x41;
        out[n++] = 0xff;   /* jmp reg */
        out[n++] = (uint8_t)(0xe0 | (r & 7));
        memcpy(out + n, &ret, 8);
        return (long)(n + 8);
    }
    snprintf(why, whylen, "a call in the first bytes through a register-based address cannot "
             "be moved");
    return -1;
}

/* Decodes what was emitted and checks it is the same instruction with the
 * same absolute target. */
static int verify(const uint8_t *p, size_t len, uintptr_t at, const struct insn *orig, int k,
                  ZyanU64 target)
{
    struct insn y;
    if (decode(p, len, &y) != 0 || y.i.length != len || y.i.mnemonic != orig->i.mnemonic)
        return -1;
    if (k < 0)
        return 0;
    int j = relative_operand(&y);
    ZyanU64 t2;
    return j >= 0 && ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&y.i, &y.op[j], at, &t2)) && t2 == target
               ? 0 : -1;
}

long scope_relocate(const uint8_t *code, size_t len, uintptr_t from, uint8_t *out,
                    size_t outlen, uintptr_t to, char *why, size_t whylen)
{
    size_t in = 0, written = 0;
    while (in < len) {
        struct insn x;
        if (decode(code + in, len - in, &x) != 0) {
            snprintf(why, whylen, "undecodable instruction at +%#zx", in);
            return -1;
        }
        int k = relative_operand(&x);
        ZyanU64 target = 0;
        long n;
        if (x.i.meta.category == ZYDIS_CATEGORY_CALL) {
            n = relocate_call(&x, k, from + in, in + x.i.length == len, out + written,
                              outlen - written, why, whylen);
            if (n < 0)
                return -1;
            in += x.i.length;
            written += (size_t)n;
            continue;
        }
        if (k < 0) {
            if (written + x.i.length > outlen)
                return snprintf(why, whylen, "relocated code too long"), -1;
            memcpy(out + written, code + in, x.i.length);
            n = x.i.length;
        } else {
            n = relocate_one(&x, k, from + in, out + written, outlen - written, to + written,
                             &target, why, whylen);
            if (n < 0)
                return -1;
        }
        if (verify(out + written, (size_t)n, to + written, &x, k, target) != 0) {
            snprintf(why, whylen, "relocated %s does not decode back to itself",
                     ZydisMnemonicGetString(x.i.mnemonic));
            return -1;
        }
        in += x.i.length;
        written += (size_t)n;
    }
    return (long)written;
}

enum scope_refusal scope_patch_check(const struct scope_function_code *f, char *why,
                                     size_t whylen)
{
    struct scope_patch_site site;
    enum scope_refusal r = analyze(f, &site, why, whylen);
    if (r != SCOPE_HOOKABLE)
        return r;
    uint8_t out[SCOPE_RELOCATED_MAX];
    uintptr_t from = f->code.address + site.site_offset;
    if (scope_relocate(f->code.bytes + site.site_offset, site.moved, from, out, sizeof out,
                       from + SCOPE_CHECK_TRAMPOLINE_DISTANCE, why, whylen) < 0)
        return SCOPE_REFUSED_RELOCATION;
    return SCOPE_HOOKABLE;
}

const char *scope_refusal_label(enum scope_refusal r)
{
    static const char *const labels[] = {
        [SCOPE_HOOKABLE] = "hookable",
        [SCOPE_REFUSED_TOO_SHORT] = "too short",
        [SCOPE_REFUSED_ENDS_IN_WINDOW] = "ends in window",
        [SCOPE_REFUSED_BRANCH_INTO_WINDOW] = "branch into window",
        [SCOPE_REFUSED_SHORT_ONLY] = "no long form",
        [SCOPE_REFUSED_UNDECODABLE] = "undecodable",
        [SCOPE_REFUSED_RELOCATION] = "cannot relocate",
    };
    return (unsigned)r < sizeof labels / sizeof labels[0] ? labels[r] : "?";
}
