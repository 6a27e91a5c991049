/* context_stacks.c: a coroutine opens a recursion 40 calls deep, then
 * hands control back to another one whose open call lies below all of
 * them in the shadow stack. The call that one makes next must still get
 * its whole stack as call site (its caller's caller, not scope's exit
 * stub), however many calls of the other context lie in between. */
#define CORPUS_MAIN
#include "ping_pong.h"

#define DIVE 40

static long *volatile escaped;

/* The local's address escapes, so the frame stays: no loop, no tail call. */
HOOKED long dive(long n)
{
    long here = n;
    escaped = &here;
    if (n == 0) {
        CHECK(swapcontext(&pong_ctx, &ping_ctx) == 0, "swapcontext to ping");
        return SEED;
    }
    return dive(n - 1) + (here == n);
}

HOOKED long step(long x)
{
    CHECK(swapcontext(&ping_ctx, &pong_ctx) == 0, "swapcontext to pong");
    return x + SEED;
}

HOOKED long leaf(long x)
{
    return x * 2 + SEED;
}

HOOKED long outer(long x)
{
    long a = step(x);
    return leaf(a) + 1;
}

static void ping_body(void)
{
    CHECK(outer(3) == 10, "outer");
    /* let the dive return; pong then ends in main */
    CHECK(swapcontext(&ping_ctx, &pong_ctx) == 0, "last swapcontext to pong");
    CHECK(0, "ping resumed after pong ended");
}

static void pong_body(void)
{
    CHECK(dive(DIVE) == DIVE + 1, "dive");
}

int main(void)
{
    ping_pong_run(ping_body, pong_body);
    puts("context_stacks: ok");
    return 0;
}
