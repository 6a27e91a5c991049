/* context_stacks.c: a coroutine opens a recursion 40 calls deep, then
 * hands control back to another one whose open call lies below all of
 * them in the shadow stack. The call that one makes next must still get
 * its whole stack as call site (its caller's caller, not scope's exit
 * stub), however many calls of the other context lie in between. */
#define CORPUS_MAIN
#include "corpus.h"

#include <ucontext.h>

#define DIVE 40
#define STACK_BYTES (512 * 1024)

static ucontext_t main_ctx, ping_ctx, pong_ctx;
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

static void make(ucontext_t *ctx, void *stack, void (*body)(void))
{
    CHECK(getcontext(ctx) == 0, "getcontext");
    ctx->uc_stack.ss_sp = stack;
    ctx->uc_stack.ss_size = STACK_BYTES;
    ctx->uc_link = &main_ctx;
    makecontext(ctx, body, 0);
}

int main(void)
{
    static char ping_stack[STACK_BYTES] __attribute__((aligned(16)));
    static char pong_stack[STACK_BYTES] __attribute__((aligned(16)));
    make(&ping_ctx, ping_stack, ping_body);
    make(&pong_ctx, pong_stack, pong_body);
    CHECK(swapcontext(&main_ctx, &ping_ctx) == 0, "swapcontext to ping");
    puts("context_stacks: ok");
    return 0;
}
