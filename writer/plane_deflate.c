/* plane_deflate.c: shuffled planes as stored or fixed-Huffman run blocks
 * in a zlib stream (see plane_deflate.h). One pass per plane finds its
 * runs and prices both forms; a second writes the cheaper one. */
#include "plane_deflate.h"

#include <libdeflate.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define MIN_PLANE 4096          /* smaller planes: zlib does as well */
#define STORED_MAX 65535        /* bytes of one stored block */
#define MATCH_MIN 3
#define MATCH_MAX 258

/* A code as the bit writer takes it: bits already reversed, and how many. */
struct code {
    uint32_t bits;
    uint32_t len;
};

static struct code literal_code[256];
static struct code match_code[MATCH_MAX + 1];   /* length symbol, extra bits, distance 1 */
static pthread_once_t codes_once = PTHREAD_ONCE_INIT;

static uint32_t reversed(uint32_t code, uint32_t len)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < len; i++)
        r |= ((code >> i) & 1u) << (len - 1 - i);
    return r;
}

/* Deflate's fixed literal/length code (RFC 1951, 3.2.6). */
static struct code fixed_code(uint32_t symbol)
{
    if (symbol < 144)
        return (struct code){reversed(0x30 + symbol, 8), 8};
    if (symbol < 256)
        return (struct code){reversed(0x190 + symbol - 144, 9), 9};
    if (symbol < 280)
        return (struct code){reversed(symbol - 256, 7), 7};
    return (struct code){reversed(0xc0 + symbol - 280, 8), 8};
}

static void make_codes(void)
{
    static const uint16_t base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static const uint8_t extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    for (uint32_t v = 0; v < 256; v++)
        literal_code[v] = fixed_code(v);
    for (uint32_t len = MATCH_MIN, k = 0; len <= MATCH_MAX; len++) {
        while (k < 28 && len >= base[k + 1])
            k++;
        struct code sym = fixed_code(257 + k);
        /* distance 1 is distance code 0: five zero bits, no extra */
        match_code[len] = (struct code){sym.bits | (uint32_t)(len - base[k]) << sym.len,
                                        sym.len + extra[k] + 5};
    }
}

struct bit_writer {
    unsigned char *out;
    uint64_t acc;
    uint32_t n;
};

static inline void put_bits(struct bit_writer *w, uint32_t bits, uint32_t len)
{
    w->acc |= (uint64_t)bits << w->n;
    w->n += len;
    if (w->n >= 32) {
        for (int i = 0; i < 4; i++)
            *w->out++ = (unsigned char)(w->acc >> (8 * i));
        w->acc >>= 32;
        w->n -= 32;
    }
}

static void align_to_byte(struct bit_writer *w)
{
    while (w->n > 0) {
        *w->out++ = (unsigned char)w->acc;
        w->acc >>= 8;
        w->n = w->n > 8 ? w->n - 8 : 0;
    }
    w->acc = 0;
}

/* Bytes equal to p[i] from i on (at least 1). */
static size_t run_at(const unsigned char *p, size_t i, size_t len)
{
    size_t j = i + 1;
    uint64_t same = 0x0101010101010101ull * p[i], word;
    for (; j + 8 <= len; j += 8) {
        memcpy(&word, p + j, 8);
        if (word != same)
            break;
    }
    while (j < len && p[j] == p[i])
        j++;
    return j - i;
}

/* The lengths a run's repeat (the bytes after its first) is cut into:
 * each MATCH_MIN..MATCH_MAX, and at most MATCH_MIN - 1 left as literals. */
static size_t next_match(size_t repeat)
{
    size_t take = repeat > MATCH_MAX ? MATCH_MAX : repeat;
    if (repeat - take > 0 && repeat - take < MATCH_MIN)
        take = repeat - MATCH_MIN;
    return take;
}

/* Prices a plane in fixed-Huffman runs, in bits, and estimates what a
 * Huffman code of its own would take (its literals' entropy, a few bits a
 * match). */
static void price_plane(const unsigned char *p, size_t len, double *fixed_bits,
                        double *own_code_bits)
{
    uint32_t count[256] = {0};
    size_t literals = 0, matches = 0;
    uint64_t bits = 3 + 7;   /* block header, end of block */
    for (size_t i = 0; i < len;) {
        size_t run = run_at(p, i, len), repeat = run - 1;
        count[p[i]]++;
        literals++;
        bits += literal_code[p[i]].len;
        while (repeat >= MATCH_MIN) {
            size_t take = next_match(repeat);
            bits += match_code[take].len;
            matches++;
            repeat -= take;
        }
        count[p[i]] += (uint32_t)repeat;
        literals += repeat;
        bits += repeat * literal_code[p[i]].len;
        i += run;
    }
    double entropy = 0;
    for (int v = 0; v < 256; v++)
        if (count[v])
            entropy += count[v] * log2((double)literals / count[v]);
    *fixed_bits = (double)bits;
    *own_code_bits = entropy + 4.0 * (double)matches + 8.0 * 60;   /* + its code table */
}

static void write_fixed(struct bit_writer *w, const unsigned char *p, size_t len, int final)
{
    put_bits(w, (uint32_t)final | 1u << 1, 3);
    for (size_t i = 0; i < len;) {
        size_t run = run_at(p, i, len), repeat = run - 1;
        struct code lit = literal_code[p[i]];
        put_bits(w, lit.bits, lit.len);
        while (repeat >= MATCH_MIN) {
            size_t take = next_match(repeat);
            put_bits(w, match_code[take].bits, match_code[take].len);
            repeat -= take;
        }
        for (; repeat > 0; repeat--)
            put_bits(w, lit.bits, lit.len);
        i += run;
    }
    put_bits(w, 0, 7);   /* end of block */
}

static void write_stored(struct bit_writer *w, const unsigned char *p, size_t len, int final)
{
    for (size_t at = 0; at < len;) {
        size_t n = len - at > STORED_MAX ? STORED_MAX : len - at;
        put_bits(w, (uint32_t)(final && at + n == len), 3);
        align_to_byte(w);
        unsigned char head[4] = {(unsigned char)n, (unsigned char)(n >> 8),
                                 (unsigned char)~n, (unsigned char)(~n >> 8)};
        memcpy(w->out, head, 4);
        memcpy(w->out + 4, p + at, n);
        w->out += 4 + n;
        at += n;
    }
}

/* Stored blocks of a plane, in bits at most (alignment included). */
static double stored_bits(size_t len)
{
    return 8.0 * ((double)len + 6.0 * (double)((len + STORED_MAX - 1) / STORED_MAX));
}

size_t plane_deflate(const unsigned char *planes, size_t nplanes, size_t plane_len,
                     unsigned char *out, size_t cap)
{
    enum { MAX_PLANES = 16 };
    if (plane_len < MIN_PLANE || nplanes == 0 || nplanes > MAX_PLANES)
        return 0;
    pthread_once(&codes_once, make_codes);
    int stored[MAX_PLANES];
    double chosen = 0, own_code = 0;
    for (size_t k = 0; k < nplanes; k++) {
        double fixed, own;
        price_plane(planes + k * plane_len, plane_len, &fixed, &own);
        double raw = stored_bits(plane_len);
        stored[k] = raw <= fixed;
        chosen += stored[k] ? raw : fixed;
        own_code += own < raw ? own : raw;
    }
    /* zlib's own Huffman codes would be much smaller: leave it to zlib */
    if (chosen > 1.25 * own_code + 8.0 * 1024)
        return 0;
    if (chosen / 8 + 16 > (double)cap)
        return 0;
    struct bit_writer w = {.out = out};
    put_bits(&w, 0x78 | 0x01 << 8, 16);   /* zlib header: deflate, 32 KiB window */
    for (size_t k = 0; k < nplanes; k++) {
        const unsigned char *p = planes + k * plane_len;
        int final = k + 1 == nplanes;
        if (stored[k])
            write_stored(&w, p, plane_len, final);
        else
            write_fixed(&w, p, plane_len, final);
    }
    align_to_byte(&w);
    uint32_t adler = libdeflate_adler32(1, planes, nplanes * plane_len);
    for (int i = 3; i >= 0; i--)
        *w.out++ = (unsigned char)(adler >> (8 * i));
    return (size_t)(w.out - out);
}
