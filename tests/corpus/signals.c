/* signals.c: hooked functions called from signal handlers while other
 * hooked functions run. (1) raise(SIGALRM) inside a hooked call, the
 * handler calls a hooked function; (2) the same with the handler on an
 * alternate signal stack (sigaltstack); (3) an interval timer firing while
 * a hooked function is called 300 000 times, its handler calling nothing
 * hooked. The program checks every value. An asynchronous handler that
 * calls a hooked function is known to fail: known_failures/signal_in_entry.c */
#define CORPUS_MAIN
#include "corpus.h"

#include <signal.h>
#include <string.h>
#include <sys/time.h>

#define ROUNDS 100
#define BUSY_CALLS 300000

static volatile long handler_result;
static volatile sig_atomic_t async_calls;

HOOKED long sig_in_handler(long x)
{
    return x * 11 + SEED;
}

static void on_alarm(int sig)
{
    handler_result = sig_in_handler(sig);
}

static void on_timer(int sig)
{
    (void)sig;
    async_calls++;
}

HOOKED long sig_outer(int i)
{
    handler_result = 0;
    raise(SIGALRM);
    return handler_result + i;
}

HOOKED long sig_alt_outer(int i)
{
    handler_result = 0;
    raise(SIGALRM);
    return handler_result + i;
}

HOOKED long sig_busy(long i)
{
    long s = i;
    for (int k = 0; k < 20; k++)
        s = s * 31 + k;
    return s;
}

static long busy_want(long i)
{
    long s = i;
    for (int k = 0; k < 20; k++)
        s = s * 31 + k;
    return s;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_alarm;
    CHECK(sigaction(SIGALRM, &sa, NULL) == 0, "sigaction");
    for (int i = 0; i < ROUNDS; i++) {
        long r = sig_outer(i);
        CHECK(r == SIGALRM * 11 + 1 + i, "sig_outer(%d) = %ld", i, r);
    }

    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    CHECK(sigaltstack(&ss, NULL) == 0, "sigaltstack");
    sa.sa_flags = SA_ONSTACK;
    CHECK(sigaction(SIGALRM, &sa, NULL) == 0, "sigaction");
    for (int i = 0; i < ROUNDS; i++) {
        long r = sig_alt_outer(i);
        CHECK(r == SIGALRM * 11 + 1 + i, "sig_alt_outer(%d) = %ld", i, r);
    }

    sa.sa_flags = SA_RESTART;
    sa.sa_handler = on_timer;
    CHECK(sigaction(SIGALRM, &sa, NULL) == 0, "sigaction");
    struct itimerval it = {{0, 50}, {0, 50}};
    CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0, "setitimer");
    for (long i = 0; i < BUSY_CALLS; i++) {
        long r = sig_busy(i);
        CHECK(r == busy_want(i), "sig_busy(%ld) = %ld", i, r);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0, "setitimer");
    CHECK(async_calls > 0, "the timer never fired");
    puts("signals: ok");
    return 0;
}
