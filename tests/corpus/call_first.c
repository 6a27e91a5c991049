/* call_first.c: functions whose first instructions end in a call, so that
 * the call itself is displaced by the hook: through the GOT when built with
 * -fno-plt (else the PLT), and through a register. The callee must return
 * straight into the function's own code (a C++ exception or a backtrace
 * passes there), every result checked, every call counted and nested. */
#define CORPUS_MAIN
#include "corpus.h"

#include <unistd.h>

static long pid;

HOOKED long cf_got(long x)
{
    long p = (long)getpid();
    return x * 2 + (p == pid);
}

HOOKED long cf_leaf(void)
{
    return 40 + SEED;
}

HOOKED long cf_reg(long (*fn)(void))
{
    return fn() + 1;
}

int main(void)
{
    pid = (long)getpid();
    long (*volatile leaf)(void) = cf_leaf;
    for (long i = 0; i < 1000; i++) {
        CHECK(cf_got(i) == i * 2 + 1, "cf_got(%ld)", i);
        CHECK(cf_reg(leaf) == 41 + SEED, "cf_reg");
    }
    puts("call_first: ok");
    return 0;
}
