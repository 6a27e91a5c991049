// cxx_cold.cpp: C++ at -O2 whose functions GCC splits: the exception paths
// of thrower, rethrower and outer go to "[clone .cold]" fragments (code
// jumped into, never called), and weigh exists only as a clone that takes
// its argument's fields ("[clone .isra.0]"). Every function must show its
// exact calls under its own name, no fragment a region (a hooked fragment
// made the program loop forever).
#include <cstdio>
#include <stdexcept>

volatile int seed = 1;

__attribute__((noinline)) int thrower(int x)
{
    if (__builtin_expect(x % 4 == seed, 0))
        throw std::runtime_error("odd one");
    return x + seed;
}

__attribute__((noinline)) int rethrower(int x)
{
    try {
        return thrower(x);
    } catch (const std::runtime_error &) {
        if (__builtin_expect(x % 8 == seed, 0))
            throw;
        return -1;
    }
}

__attribute__((noinline)) int outer(int x)
{
    try {
        return rethrower(x);
    } catch (...) {
        return -2;
    }
}

struct pair { int a, b[16]; };

static __attribute__((noinline)) int weigh(const pair &p)
{
    return p.a * seed + 1;
}

int main()
{
    long sum = 0;
    for (int i = 0; i < 16; i++)
        sum += outer(i);
    pair p = {seed, {}};
    for (int i = 0; i < 10; i++)
        sum += weigh(p) + i;
    std::printf("%ld\n", sum);
    return 0;
}
