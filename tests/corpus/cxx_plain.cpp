// cxx_plain.cpp: C++ that uses nothing of its standard library, so the
// program does not load libstdc++ (the linker drops it). Methods are still
// hooked by their demangled names, and regions carry them: scope brings a
// demangler of its own where the program never sees it.
#define CORPUS_MAIN
#include "corpus.h"

#include <dlfcn.h>

namespace plain {

struct Counter {
    HOOKED long add(long x);
    long total = 0;
};

long Counter::add(long x)
{
    total += x + SEED;
    return total;
}

}  // namespace plain

HOOKED long plain_sum(plain::Counter &c, long n)
{
    long last = 0;
    for (long i = 0; i < n; i++)
        last = c.add(i);
    return last;
}

int main()
{
    CHECK(!dlopen("libstdc++.so.6", RTLD_NOW | RTLD_NOLOAD),
          "libstdc++ is loaded in the program: this case would test nothing");
    plain::Counter c;
    long got = plain_sum(c, 100);
    CHECK(got == 100 * 99 / 2 + 100 * SEED, "plain_sum: %ld", got);
    puts("cxx_plain: ok");
    return 0;
}
