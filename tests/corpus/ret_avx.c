/* ret_avx.c: 256-bit vector arguments and return values (ymm0-ymm2) through
 * hooked functions, compiled with -mavx. The first hooked call of the
 * process sets up its thread (the slow path, which must save the full AVX
 * state), so it is made with ymm arguments live. Skips (exit 77) on a CPU
 * without AVX. */
#define CORPUS_MAIN
#include "corpus.h"

#include <immintrin.h>

#define ROUNDS 4

HOOKED __m256 avx_fma(__m256 a, __m256 b, __m256 c)
{
    return _mm256_add_ps(_mm256_mul_ps(a, b), c);
}

HOOKED __m256d avx_sub(__m256d a, __m256d b)
{
    return _mm256_sub_pd(a, b);
}

/* A vector argument on the stack (the ninth vector argument). */
HOOKED __m256 avx_ninth(__m256 a1, __m256 a2, __m256 a3, __m256 a4, __m256 a5,
                        __m256 a6, __m256 a7, __m256 a8, __m256 a9)
{
    __m256 s = _mm256_add_ps(_mm256_add_ps(a1, a2), _mm256_add_ps(a3, a4));
    s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(a5, a6), _mm256_add_ps(a7, a8)));
    return _mm256_add_ps(s, _mm256_mul_ps(a9, _mm256_set1_ps(100.0f)));
}

HOOKED void avx_round(int r)
{
    float base = (float)(SEED + r);
    __m256 a = _mm256_setr_ps(base, base + 1, base + 2, base + 3, base + 4, base + 5, base + 6, base + 7);
    __m256 b = _mm256_set1_ps(2.0f);
    __m256 c = _mm256_setr_ps(-1, -2, -3, -4, -5, -6, -7, -8);
    __m256 v = avx_fma(a, b, c);
    float out[8];
    _mm256_storeu_ps(out, v);
    for (int i = 0; i < 8; i++)
        CHECK(out[i] == (base + (float)i) * 2.0f - (float)(i + 1),
              "avx_fma lane %d = %g", i, (double)out[i]);

    double db = base;
    __m256d d = avx_sub(_mm256_setr_pd(db, db * 2, db * 3, db * 4), _mm256_set1_pd(0.5));
    double dout[4];
    _mm256_storeu_pd(dout, d);
    for (int i = 0; i < 4; i++)
        CHECK(dout[i] == db * (i + 1) - 0.5, "avx_sub lane %d = %g", i, dout[i]);

    __m256 one = _mm256_set1_ps(1.0f);
    __m256 n = avx_ninth(one, one, one, one, one, one, one, one, a);
    _mm256_storeu_ps(out, n);
    for (int i = 0; i < 8; i++)
        CHECK(out[i] == 8.0f + 100.0f * (base + (float)i), "avx_ninth lane %d = %g", i, (double)out[i]);
}

int main(void)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx")) {
        puts("ret_avx: this CPU has no AVX: skipped");
        return 77;
    }
    /* First hooked call of the process, with all three ymm arguments live. */
    float base = (float)SEED;
    __m256 v = avx_fma(_mm256_set1_ps(base), _mm256_set1_ps(3.0f), _mm256_set1_ps(0.25f));
    float out[8];
    _mm256_storeu_ps(out, v);
    for (int i = 0; i < 8; i++)
        CHECK(out[i] == base * 3.0f + 0.25f, "first avx_fma lane %d = %g", i, (double)out[i]);
    for (int r = 0; r < ROUNDS; r++)
        avx_round(r);
    puts("ret_avx: ok");
    return 0;
}
