// cxx.cpp: C++ functions through hooks: extern "C" functions, a member
// function and a function returning a std::string (non-trivial object
// returned in memory), hooked by their mangled names; a virtual call; and
// an exception thrown and caught entirely inside one hooked function (it
// never crosses a hooked frame). The program checks every result.
// An exception thrown through a hooked frame: known_failures/cxx_throw.cpp.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#define HOOKED __attribute__((noinline, noclone, used))
#define CHECK(cond, what)                                                    \
    do {                                                                     \
        if (!(cond)) {                                                       \
            std::fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, \
                         __LINE__, #cond, what);                             \
            std::exit(1);                                                    \
        }                                                                    \
    } while (0)

volatile int cxx_seed = 1;

extern "C" HOOKED long cxx_add(long a, long b)
{
    return a + b + cxx_seed;
}

extern "C" HOOKED double cxx_scale(double x)
{
    return x * 1.5;
}

struct Solver {
    long base;
    virtual ~Solver() = default;
    HOOKED long run(long n);
    virtual long step(long x) { return x + base; }
};

struct FastSolver : Solver {
    HOOKED long step(long x) override { return cxx_add(x, base) * 2; }
};

HOOKED long Solver::run(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += step(i);
    return s;
}

HOOKED std::string cxx_name(int k)
{
    return std::string("solver-") + std::to_string(k) + std::string(40, 'x');
}

// Throws and catches inside the same (hooked) frame.
extern "C" HOOKED long cxx_catch_inside(long x)
{
    try {
        if (x % 2 == cxx_seed)
            throw std::runtime_error("odd");
        return x;
    } catch (const std::runtime_error &) {
        return -x;
    }
}

int main()
{
    FastSolver fs;
    fs.base = 10 * cxx_seed;
    Solver *s = &fs;
    for (int round = 0; round < 10; round++) {
        long r = s->run(5);
        // step(i) = cxx_add(i, 10) * 2 = (i + 11) * 2, i = 0..4
        CHECK(r == 2 * (11 + 12 + 13 + 14 + 15), "Solver::run");
        CHECK(cxx_scale(round) == round * 1.5, "cxx_scale");
        std::string n = cxx_name(round);
        CHECK(n == "solver-" + std::to_string(round) + std::string(40, 'x'), "cxx_name");
        CHECK(cxx_catch_inside(round) == (round % 2 ? -round : round), "cxx_catch_inside");
    }
    std::puts("cxx: ok");
    return 0;
}
