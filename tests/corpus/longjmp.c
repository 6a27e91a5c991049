/* longjmp.c: control flow that skips the returns of hooked functions.
 * (1) longjmp from three levels of hooked calls back to main, then a
 * normal hooked call; (2) longjmp out of two levels into a hooked function
 * that called setjmp, which then calls more and returns normally; (3) a
 * hooked SIGUSR1 handler, raised inside hooked calls, that siglongjmps to
 * main (the signal mask must be restored). Every skipped call must still
 * be recorded (closed when the next hooked call starts or an outer one
 * returns), properly nested, and the program must compute correctly. */
#define CORPUS_MAIN
#include "corpus.h"

#include <setjmp.h>
#include <signal.h>

#define ROUNDS 100

static jmp_buf env;
static sigjmp_buf sigenv;
static volatile long trail;   /* a digit per level reached */

HOOKED void lj_inner(int i)
{
    trail = trail * 10 + 3;
    longjmp(env, i + 1);
}

HOOKED void lj_mid(int i)
{
    trail = trail * 10 + 2;
    lj_inner(i);
    trail = -1;               /* never reached */
}

HOOKED void lj_outer(int i)
{
    trail = trail * 10 + 1;
    lj_mid(i);
    trail = -1;
}

HOOKED long lj_after(long x)
{
    return x * 5 + SEED;
}

/* (2): the jump lands inside this hooked function. */
HOOKED long lj_catcher(int i)
{
    volatile long got = 0;
    int v = setjmp(env);
    if (v == 0) {
        lj_mid(i);
        return -1;
    }
    got = v;
    return lj_after(got) + 1000;
}

HOOKED void lj_handler(int sig)
{
    trail = trail * 10 + 9;
    siglongjmp(sigenv, sig);
}

HOOKED void lj_raiser(int i)
{
    trail = trail * 10 + 4;
    raise(SIGUSR1);
    (void)i;
    trail = -1;
}

HOOKED void lj_sigouter(int i)
{
    trail = trail * 10 + 1;
    lj_raiser(i);
    trail = -1;
}

int main(void)
{
    for (volatile int i = 0; i < ROUNDS; i++) {
        trail = 0;
        int v = setjmp(env);
        if (v == 0) {
            lj_outer(i);
            CHECK(0, "lj_outer returned");
        }
        CHECK(v == i + 1, "setjmp returned %d, want %d", v, i + 1);
        CHECK(trail == 123, "trail %ld, want 123", trail);
        long a = lj_after(i);
        CHECK(a == i * 5 + 1, "lj_after(%d) = %ld", i, a);
    }

    for (int i = 0; i < ROUNDS; i++) {
        trail = 0;
        long c = lj_catcher(i);
        CHECK(c == (i + 1) * 5 + 1 + 1000, "lj_catcher(%d) = %ld", i, c);
        CHECK(trail == 23, "trail %ld, want 23", trail);
    }

    struct sigaction sa = {.sa_handler = lj_handler};
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
    for (volatile int i = 0; i < ROUNDS; i++) {
        trail = 0;
        int v = sigsetjmp(sigenv, 1);
        if (v == 0) {
            lj_sigouter(i);
            CHECK(0, "lj_sigouter returned");
        }
        CHECK(v == SIGUSR1, "sigsetjmp returned %d", v);
        CHECK(trail == 149, "trail %ld, want 149", trail);
        sigset_t now;
        sigprocmask(SIG_BLOCK, NULL, &now);
        CHECK(!sigismember(&now, SIGUSR1), "SIGUSR1 still blocked after siglongjmp");
        long a = lj_after(i);
        CHECK(a == i * 5 + 1, "lj_after(%d) = %ld", i, a);
    }
    puts("longjmp: ok");
    return 0;
}
