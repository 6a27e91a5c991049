/* branch_scan.c: the byte scans of branch_scan.h. The rel32 scan works
 * out, for sixteen consecutive bytes at once, where a rel32 displacement
 * starting after each would lead, in 32-bit lanes: a target can equal a
 * place only if it does modulo 2^32, so the lanes find every candidate and
 * an exact check of each one found drops the rest. */
#include "branch_scan.h"

#include <emmintrin.h>
#include <string.h>

enum { NOT_BRANCH, NEAR_REL32, TWO_BYTE_REL32, SHORT_REL8, XBEGIN_REL32 };
static const uint8_t branch_kind[256] = {
    [0xe8] = NEAR_REL32, [0xe9] = NEAR_REL32, [0x0f] = TWO_BYTE_REL32,
    [0xc7] = XBEGIN_REL32, [0xeb] = SHORT_REL8, [0x70 ... 0x7f] = SHORT_REL8,
    [0xe0 ... 0xe3] = SHORT_REL8,
};

static uintptr_t rel32_target(const struct scope_code *piece, size_t disp_at)
{
    int32_t rel;
    memcpy(&rel, piece->bytes + disp_at, 4);
    return piece->address + disp_at + 4 + (uintptr_t)(int64_t)rel;
}

#define REL32_FORMS (1u << NEAR_REL32 | 1u << TWO_BYTE_REL32)
#define ALL_FORMS (REL32_FORMS | 1u << XBEGIN_REL32 | 1u << SHORT_REL8)

/* The place the bytes at i name as a branch of the kinds in `forms` (bits
 * of the enum): 1 and *target, or 0 when they cannot be one. */
static int byte_branch(const struct scope_code *piece, size_t i, unsigned forms,
                       uintptr_t *target)
{
    const uint8_t *b = piece->bytes;
    size_t left = piece->size - i;
    int kind = branch_kind[b[i]];
    if (!(forms & 1u << kind))
        return 0;
    switch (kind) {
    case NEAR_REL32:
        if (left < 5)
            return 0;
        *target = rel32_target(piece, i + 1);
        return 1;
    case TWO_BYTE_REL32:
        if (left < 6 || (b[i + 1] & 0xf0) != 0x80)
            return 0;
        *target = rel32_target(piece, i + 2);
        return 1;
    case XBEGIN_REL32:
        if (left < 6 || b[i + 1] != 0xf8)
            return 0;
        *target = rel32_target(piece, i + 2);
        return 1;
    case SHORT_REL8:
        if (left < 2)
            return 0;
        *target = piece->address + i + 2 + (uintptr_t)(int64_t)(int8_t)b[i + 1];
        return 1;
    default:
        return 0;
    }
}

/* Bit j of the index, at bit 4 j: lane j of a group of four. */
static const uint16_t lane_bits[16] = {
    0x0000, 0x0001, 0x0010, 0x0011, 0x0100, 0x0101, 0x0110, 0x0111,
    0x1000, 0x1001, 0x1010, 0x1011, 0x1100, 0x1101, 0x1110, 0x1111,
};

/* The bytes of the sixteen at `at` whose displacement, read at
 * at + k + skip for byte k, leads into the scan's range modulo 2^32;
 * `after` is the offset from byte k to the end of its instruction. */
static unsigned rel32_lanes(const struct scope_branch_scan *s, size_t at, size_t skip,
                            uint32_t after)
{
    const __m128i sign = _mm_set1_epi32((int)0x80000000u);
    const __m128i steps = _mm_setr_epi32(0, 4, 8, 12);
    const __m128i width = _mm_xor_si128(_mm_set1_epi32((int)s->width), sign);
    /* byte k's target minus lo is its displacement + address + k + after - lo */
    uint32_t base = (uint32_t)(s->piece->address + at + after - s->lo);
    unsigned in = 0;
    for (unsigned k = 0; k < 4; k++) {
        __m128i disp = _mm_loadu_si128((const __m128i *)(const void *)
                                           (s->piece->bytes + at + skip + k));
        __m128i off = _mm_add_epi32(disp, _mm_add_epi32(_mm_set1_epi32((int)(base + k)), steps));
        __m128i beyond = _mm_cmpgt_epi32(_mm_xor_si128(off, sign), width);
        in |= (unsigned)lane_bits[~_mm_movemask_ps(_mm_castsi128_ps(beyond)) & 0xf] << k;
    }
    return in;
}

/* Of the sixteen bytes v (next: the byte after each), those that begin a
 * call or jmp rel32 (*near: e8, e9) and those whose displacement starts
 * two bytes on (*two_byte: jcc rel32, 0f 8x, and with `xbegin` c7 f8). */
static void rel32_opcodes(__m128i v, __m128i next, int xbegin, __m128i *near, __m128i *two_byte)
{
    *near = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xe8)),
                         _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xe9)));
    *two_byte = _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x0f)),
                              _mm_cmpeq_epi8(_mm_and_si128(next, _mm_set1_epi8((char)0xf0)),
                                             _mm_set1_epi8((char)0x80)));
    if (xbegin)
        *two_byte = _mm_or_si128(*two_byte,
                                 _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xc7)),
                                               _mm_cmpeq_epi8(next, _mm_set1_epi8((char)0xf8))));
}

/* The rel32 branch bytes of the sixteen at `at` that may lead into the
 * range (bytes at + 21 and on are read). */
static unsigned rel32_block(const struct scope_branch_scan *s, size_t at)
{
    const uint8_t *b = s->piece->bytes + at;
    __m128i near, two_byte;
    rel32_opcodes(_mm_loadu_si128((const __m128i *)(const void *)b),
                  _mm_loadu_si128((const __m128i *)(const void *)(b + 1)),
                  (s->forms & 1u << XBEGIN_REL32) != 0, &near, &two_byte);
    unsigned near_bytes = (unsigned)_mm_movemask_epi8(near);
    unsigned two_byte_bytes = (unsigned)_mm_movemask_epi8(two_byte);
    unsigned hits = 0;
    if (near_bytes)
        hits |= near_bytes & rel32_lanes(s, at, 1, 5);
    if (two_byte_bytes)
        hits |= two_byte_bytes & rel32_lanes(s, at, 2, 6);
    return hits;
}

/* The bytes of the sixteen at b that may begin a branch of any form: most
 * bytes begin none, and a 0f or c7 only does with the right second byte. */
static unsigned branch_mask(const uint8_t *b)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)b), near, two_byte;
    rel32_opcodes(v, _mm_loadu_si128((const __m128i *)(const void *)(b + 1)), 1, &near,
                  &two_byte);
    __m128i high = _mm_and_si128(v, _mm_set1_epi8((char)0xf0));
    __m128i loop = _mm_and_si128(v, _mm_set1_epi8((char)0xfc));
    __m128i m = _mm_or_si128(near, two_byte);
    m = _mm_or_si128(m, _mm_cmpeq_epi8(high, _mm_set1_epi8(0x70)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(loop, _mm_set1_epi8((char)0xe0)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xeb)));
    return (unsigned)_mm_movemask_epi8(m);
}

void scope_branch_scan_rel32(struct scope_branch_scan *s, const struct scope_code *piece,
                             uintptr_t lo, uintptr_t hi, int xbegin)
{
    *s = (struct scope_branch_scan){
        .piece = piece, .lo = lo, .hi = hi,
        .width = hi - lo < UINT32_MAX ? (uint32_t)(hi - lo) : UINT32_MAX,
        .forms = REL32_FORMS | (xbegin ? 1u << XBEGIN_REL32 : 0)};
}

void scope_branch_scan_all(struct scope_branch_scan *s, const struct scope_code *piece)
{
    *s = (struct scope_branch_scan){.piece = piece, .lo = 0, .hi = UINTPTR_MAX,
                                    .width = UINT32_MAX, .forms = ALL_FORMS};
}

size_t scope_branch_scan_next(struct scope_branch_scan *s, uintptr_t *target)
{
    const struct scope_code *piece = s->piece;
    for (;;) {
        while (!s->hits && s->block + 21 <= piece->size) {   /* the blocks read 21 bytes */
            s->hits = s->forms == ALL_FORMS ? branch_mask(piece->bytes + s->block)
                                            : rel32_block(s, s->block);
            if (!s->hits)
                s->block += 16;
        }
        size_t i;
        if (s->hits) {
            i = s->block + (size_t)__builtin_ctz(s->hits);
            s->hits &= s->hits - 1;
            if (!s->hits)
                s->block += 16;
        } else if (s->block < piece->size) {   /* the last bytes, one by one */
            i = s->block++;
        } else {
            return piece->size;
        }
        if (byte_branch(piece, i, s->forms, target) && *target >= s->lo && *target <= s->hi)
            return i;
    }
}
