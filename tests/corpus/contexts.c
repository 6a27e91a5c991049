/* contexts.c: user-level context switches (makecontext/swapcontext)
 * between hooked functions. A coroutine on a stack of its own runs co_body, which
 * calls co_step; co_step yields back to main in the middle of its call,
 * main makes hooked calls on its own stack, then resumes the coroutine,
 * and co_step returns. Also a hooked call, co_switch, that switches away
 * itself and is resumed. No crash, every result right, every call
 * recorded (their times interleave: one thread, two stacks). Two
 * coroutines switching between themselves: coroutines.c. */
#define CORPUS_MAIN
#include "corpus.h"

#include <ucontext.h>

#define STEPS 50
#define STACK_BYTES (256 * 1024)

static ucontext_t main_ctx, co_ctx;
static int finished;

HOOKED long co_main_work(long x)
{
    return x * 7 + SEED;
}

/* Switches from the coroutine to main and back, inside its own call. */
HOOKED long co_step(long x)
{
    CHECK(swapcontext(&co_ctx, &main_ctx) == 0, "swapcontext to main");
    return x * 5 + SEED;
}

static void co_body(void)
{
    for (long i = 0; i < STEPS; i++) {
        long r = co_step(i);
        CHECK(r == i * 5 + 1, "co_step(%ld) = %ld", i, r);
    }
    finished = 1;
}

/* Called on main's stack: switches to the coroutine inside its call. */
HOOKED long co_switch(long x)
{
    CHECK(swapcontext(&main_ctx, &co_ctx) == 0, "swapcontext to the coroutine");
    return x + SEED;
}

int main(void)
{
    static char stack[STACK_BYTES] __attribute__((aligned(16)));
    CHECK(getcontext(&co_ctx) == 0, "getcontext");
    co_ctx.uc_stack.ss_sp = stack;
    co_ctx.uc_stack.ss_size = sizeof(stack);
    co_ctx.uc_link = &main_ctx;
    makecontext(&co_ctx, co_body, 0);
    for (long i = 0; !finished; i++) {
        long r = co_switch(i);
        CHECK(r == i + 1, "co_switch(%ld) = %ld", i, r);
        for (long j = 0; j < 10; j++) {
            r = co_main_work(j);
            CHECK(r == j * 7 + 1, "co_main_work(%ld) = %ld", j, r);
        }
    }
    puts("contexts: ok");
    return 0;
}
