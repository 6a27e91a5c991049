/* ping_pong.h: two coroutines of a corpus program, ping and pong, each on
 * a stack of its own (makecontext), that hand control to each other with
 * swapcontext(&ping_ctx, &pong_ctx) and back; either ending returns to
 * main. Included once, by the program's one source file. */
#ifndef SCOPE_CORPUS_PING_PONG_H
#define SCOPE_CORPUS_PING_PONG_H

#include "corpus.h"

#include <ucontext.h>

#define PING_PONG_STACK_BYTES (512 * 1024)

static ucontext_t main_ctx, ping_ctx, pong_ctx;

static void ping_pong_make(ucontext_t *ctx, void *stack, void (*body)(void))
{
    CHECK(getcontext(ctx) == 0, "getcontext");
    ctx->uc_stack.ss_sp = stack;
    ctx->uc_stack.ss_size = PING_PONG_STACK_BYTES;
    ctx->uc_link = &main_ctx;
    makecontext(ctx, body, 0);
}

/* Starts ping; returns when the first of the two ends. */
static void ping_pong_run(void (*ping)(void), void (*pong)(void))
{
    static char ping_stack[PING_PONG_STACK_BYTES] __attribute__((aligned(16)));
    static char pong_stack[PING_PONG_STACK_BYTES] __attribute__((aligned(16)));
    ping_pong_make(&ping_ctx, ping_stack, ping);
    ping_pong_make(&pong_ctx, pong_stack, pong);
    CHECK(swapcontext(&main_ctx, &ping_ctx) == 0, "swapcontext to ping");
}

#endif
