// cxx_throw.cpp: KNOWN FAILURE, not registered in meson.
//
// A C++ exception thrown inside a hooked function and caught by its
// caller. Under libscope the return address of the hooked frame has been
// replaced by scope_exit_stub, whose CFI says "rip undefined": the unwinder
// finds no frame above it, so the throw ends in std::terminate() (SIGABRT,
// "terminate called after throwing an instance of 'std::runtime_error'").
// Without libscope the program prints "ok". DESIGN.md section 6 requires
// exceptions not to break: the personality/unwinder must see the real
// return address (e.g. wrap _Unwind_RaiseException / __cxa_throw to restore
// the shadow-stack return addresses of the frames being unwound, as
// uftrace does, or give the exit stub CFI that computes the real return
// address from the shadow stack).
//
// Run: g++ -O2 cxx_throw.cpp -o cxx_throw
//      SCOPE_FUNCTIONS=thrower,middle SCOPE_OUTPUT=/tmp/t.h5
//        LD_PRELOAD=build/preload/libscope-openmpi.so ./cxx_throw
// Observed at -O0, -O2, -O3, also with only `thrower` hooked: exit 134.
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
