// cxx_throw.cpp: a C++ exception thrown inside a hooked function and
// caught by an unhooked caller two frames up, through another hooked frame.
// scope puts the real return addresses back before the unwinder walks them
// and closes the unwound calls at the catch; every call must be recorded
// and every exception caught.
#include <cstdio>
#include <stdexcept>

volatile int seed = 1;

extern "C" __attribute__((noinline)) long thrower(long x)
{
    if (x >= seed)
        throw std::runtime_error("thrown through a hooked frame");
    return x;
}

extern "C" __attribute__((noinline)) long middle(long x)
{
    return thrower(x) + seed;   // not a tail call: the frame stays
}

int main()
{
    long caught = 0;
    for (long i = 0; i < 10; i++) {
        try {
            middle(i);
        } catch (const std::runtime_error &) {
            caught++;
        }
    }
    if (caught != 9) {
        std::fprintf(stderr, "caught %ld, want 9\n", caught);
        return 1;
    }
    std::puts("ok");
    return 0;
}
