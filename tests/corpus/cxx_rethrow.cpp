// cxx_rethrow.cpp: exceptions rethrown through hooked frames. A hooked
// function throws through a frame with a destructor that calls a hooked
// function while the stack unwinds (which itself catches an exception its
// hooked callee throws, while the first is still in flight); its caller
// catches, calls a hooked
// handler and rethrows (`throw;`); the next catches everything (`catch
// (...)`), calls the handler and rethrows; the outermost catches it, then
// inside its catch block rethrows it again with std::rethrow_exception in
// a nested try and calls the handler from that catch. Every call must be
// counted once, nested in the frame it ran in, with self times >= 0.
#define CORPUS_MAIN
#include "corpus.h"

#include <exception>

struct Err {
    long v;
};

static long cleanups;

extern "C" HOOKED long rr_inner(long x)
{
    if (x >= 0)
        throw Err{x};
    return x;
}

extern "C" HOOKED long rr_cleanup(long x)
{
    try {
        return rr_inner(x);
    } catch (const Err &e) {
        return e.v + SEED;
    }
}

extern "C" HOOKED long rr_handler(long x)
{
    return x * 2 + SEED;
}

struct Guard {
    ~Guard() { cleanups += rr_cleanup(cleanups) > 0; }
};

extern "C" HOOKED long rr_throw(long x)
{
    Guard g;
    if (x % 2)
        throw Err{x};
    return x;
}

extern "C" HOOKED long rr_rethrow(long x)
{
    Guard g;
    try {
        return rr_throw(x);
    } catch (const Err &e) {
        rr_handler(e.v);
        throw;
    }
}

extern "C" HOOKED long rr_nested(long x)
{
    try {
        try {
            return rr_rethrow(x);
        } catch (...) {
            rr_handler(x);
            throw;
        }
    } catch (const Err &) {
        try {
            std::rethrow_exception(std::current_exception());
        } catch (const Err &again) {
            return -rr_handler(again.v);
        }
    }
}

int main()
{
    long sum = 0;
    for (long x = 0; x < 10; x++)
        sum += rr_nested(x);
    // even x: x; odd x: -(2x + 1)
    CHECK(sum == (0 + 2 + 4 + 6 + 8) - (3 + 7 + 11 + 15 + 19), "sum %ld", sum);
    CHECK(cleanups == 20, "cleanups %ld", cleanups);
    puts("cxx_rethrow: ok");
    return 0;
}
