/* coroutines.c: two coroutines, each on a stack of its own (makecontext),
 * hand control to each other from inside hooked calls: ping's call is
 * open while pong runs, and pong's while ping runs, so each return comes
 * while the other coroutine's call is open above it in the shadow stack.
 * Then a longjmp on ping's stack skips a hooked call there, which the next
 * hooked call on that stack ends. No crash, every result right, every call
 * recorded once. */
#define CORPUS_MAIN
#include "ping_pong.h"

#include <setjmp.h>

#define STEPS 40

static jmp_buf skip;
static int pong_done;

HOOKED long ping_step(long x)
{
    CHECK(swapcontext(&ping_ctx, &pong_ctx) == 0, "swapcontext to pong");
    return x * 3 + SEED;
}

HOOKED long pong_step(long x)
{
    CHECK(swapcontext(&pong_ctx, &ping_ctx) == 0, "swapcontext to ping");
    return x * 5 + SEED;
}

HOOKED void leap(void)
{
    longjmp(skip, 1);
}

HOOKED long after_leap(long x)
{
    return x + SEED;
}

static void ping_body(void)
{
    for (long i = 0; i < STEPS; i++) {
        long r = ping_step(i);
        CHECK(r == i * 3 + 1, "ping_step(%ld) = %ld", i, r);
    }
    if (!setjmp(skip))
        leap();
    CHECK(after_leap(4) == 5, "after_leap");
    /* pong's last call is open: let it return; pong then ends in main */
    CHECK(swapcontext(&ping_ctx, &pong_ctx) == 0, "last swapcontext to pong");
    CHECK(0, "ping resumed after pong ended");
}

static void pong_body(void)
{
    for (long i = 0; i < STEPS; i++) {
        long r = pong_step(i);
        CHECK(r == i * 5 + 1, "pong_step(%ld) = %ld", i, r);
    }
    pong_done = 1;
}

int main(void)
{
    ping_pong_run(ping_body, pong_body);
    CHECK(pong_done, "pong did not finish");
    CHECK(after_leap(9) == 10, "after_leap on main's stack");
    puts("coroutines: ok");
    return 0;
}
