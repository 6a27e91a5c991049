/* ret_values.c: every way the x86-64 SysV ABI returns a value or passes
 * arguments, through hooked functions: long double (st0), _Complex long
 * double (st0:st1), a 32-byte struct in memory, 16-byte structs in rax:rdx,
 * xmm0:xmm1 and rax:xmm0, __int128, _Complex double, double, float, a
 * variadic function (al = vector register count), 8 integer + 10 double
 * arguments (stack arguments) and a struct passed by value on the stack.
 * The program checks every result; the profile must show each leaf called
 * ROUNDS times inside ret_suite. */
#define CORPUS_MAIN
#include "corpus.h"

#include <complex.h>
#include <stdarg.h>
#include <string.h>

#define ROUNDS 3

struct big { long a, b, c, d; };          /* 32 bytes: returned in memory */
struct pair { long a, b; };               /* rax:rdx */
struct dpair { double x, y; };            /* xmm0:xmm1 */
struct mixed { long n; double d; };       /* rax, xmm0 */

HOOKED long double ret_ld(long double a, int k)
{
    return a * k + 0.5L;
}

HOOKED _Complex long double ret_cld(long double re, long double im)
{
    return (re + 1.0L) + (im * 2.0L) * I;
}

HOOKED struct big ret_big(long x)
{
    struct big b = {x, x * 2, x * 3, x * 4 + SEED};
    return b;
}

HOOKED struct pair ret_pair(long x, long y)
{
    struct pair p = {x + y, x - y};
    return p;
}

HOOKED struct dpair ret_dpair(double x, double y)
{
    struct dpair p = {x * 0.5, y + 0.25};
    return p;
}

HOOKED struct mixed ret_mixed(long n, double d)
{
    struct mixed m = {n * 7, d * 3.0};
    return m;
}

HOOKED __int128 ret_i128(long hi, unsigned long lo)
{
    return ((__int128)hi << 64 | lo) + 1;
}

HOOKED _Complex double ret_cplx(double re, double im)
{
    return (re * 2.0) + (im - 1.0) * I;
}

HOOKED double ret_double(double a, double b)
{
    return a * b - 0.125;
}

HOOKED float ret_float(float a, int k)
{
    return a * (float)k + 0.5f;
}

/* fmt: 'i' an int, 'd' a double; returns the sum of all. */
HOOKED double vsum(const char *fmt, ...)
{
    va_list ap;
    double s = 0;
    va_start(ap, fmt);
    for (const char *p = fmt; *p; p++)
        s += *p == 'i' ? (double)va_arg(ap, int) : va_arg(ap, double);
    va_end(ap);
    return s;
}

/* 8 integer + 10 double arguments: two of each go on the stack. Each is
 * weighted by its position so a swapped or clobbered one shows. */
HOOKED double many(long i1, long i2, long i3, long i4, long i5, long i6, long i7, long i8,
                   double d1, double d2, double d3, double d4, double d5,
                   double d6, double d7, double d8, double d9, double d10)
{
    long is = i1 + 2 * i2 + 3 * i3 + 4 * i4 + 5 * i5 + 6 * i6 + 7 * i7 + 8 * i8;
    double ds = d1 + 2 * d2 + 3 * d3 + 4 * d4 + 5 * d5 + 6 * d6 + 7 * d7 + 8 * d8 +
                9 * d9 + 10 * d10;
    return (double)is * 1000.0 + ds;
}

HOOKED long big_arg(struct big b, long k)
{
    return b.a + 10 * b.b + 100 * b.c + 1000 * b.d + k;
}

HOOKED void ret_suite(int round)
{
    long s = SEED + round;          /* 1 + round: unknown to the compiler */
    double ds = (double)s;

    double m = many(s, s + 1, s + 2, s + 3, s + 4, s + 5, s + 6, s + 7,
                    ds, ds + 1, ds + 2, ds + 3, ds + 4, ds + 5, ds + 6, ds + 7, ds + 8, ds + 9);
    double m_want = (double)(36 * s + 168) * 1000.0 + (55 * ds + 330);
    CHECK(m == m_want, "many() = %.17g, want %.17g", m, m_want);

    long double ld = ret_ld((long double)ds + 0.25L, 3);
    long double ld_want = ((long double)ds + 0.25L) * 3 + 0.5L;
    CHECK(ld == ld_want, "ret_ld() = %Lg, want %Lg", ld, ld_want);

    _Complex long double cld = ret_cld((long double)ds, 1.5L);
    CHECK(creall(cld) == (long double)ds + 1.0L && cimagl(cld) == 3.0L,
          "ret_cld() = %Lg%+Lgi", creall(cld), cimagl(cld));

    struct big b = ret_big(s);
    CHECK(b.a == s && b.b == 2 * s && b.c == 3 * s && b.d == 4 * s + SEED,
          "ret_big() = {%ld,%ld,%ld,%ld}", b.a, b.b, b.c, b.d);

    struct pair p = ret_pair(s * 100, 7);
    CHECK(p.a == s * 100 + 7 && p.b == s * 100 - 7, "ret_pair() = {%ld,%ld}", p.a, p.b);

    struct dpair dp = ret_dpair(ds, ds * 4);
    CHECK(dp.x == ds * 0.5 && dp.y == ds * 4 + 0.25, "ret_dpair() = {%g,%g}", dp.x, dp.y);

    struct mixed mx = ret_mixed(s, ds + 0.5);
    CHECK(mx.n == 7 * s && mx.d == (ds + 0.5) * 3.0, "ret_mixed() = {%ld,%g}", mx.n, mx.d);

    __int128 q = ret_i128(s, ~0ul);
    __int128 q_want = (__int128)(s + 1) << 64;
    CHECK(q == q_want, "ret_i128() = %#lx:%016lx", (unsigned long)(q >> 64), (unsigned long)q);

    _Complex double c = ret_cplx(ds, 4.0);
    CHECK(creal(c) == 2 * ds && cimag(c) == 3.0, "ret_cplx() = %g%+gi", creal(c), cimag(c));

    double d = ret_double(ds, 1.5);
    CHECK(d == ds * 1.5 - 0.125, "ret_double() = %g", d);

    float f = ret_float((float)s, 5);
    CHECK(f == (float)s * 5.0f + 0.5f, "ret_float() = %g", (double)f);

    double v = vsum("ididid", (int)s, ds + 0.5, 20, 0.25, -3, ds);
    double v_want = (double)s + ds + 0.5 + 20 + 0.25 - 3 + ds;
    CHECK(v == v_want, "vsum() = %g, want %g", v, v_want);

    struct big arg = {s, 2, 3, 4};
    long ba = big_arg(arg, 5);
    CHECK(ba == s + 20 + 300 + 4000 + 5, "big_arg() = %ld", ba);
}

int main(void)
{
    for (int r = 0; r < ROUNDS; r++)
        ret_suite(r);
    puts("ret_values: ok");
    return 0;
}
