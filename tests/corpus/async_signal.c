/* async_signal.c: an interval timer's handler calls a hooked function
 * while the main loop keeps entering and leaving another one, so signals
 * land at every instruction of scope's entry and exit paths. The shadow
 * stack and the record buffer must survive it (a frame is marked busy while
 * half written; record slots are taken with one xadd), and every loop call
 * must be recorded and return the right value. The timer fires every
 * 100 us: a virtual machine spends 15-20 us delivering one signal, and a
 * handler whose call unwinds 4 call-site frames then takes about as long
 * as a shorter period, so the loop would hardly advance. */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

static volatile long sink;

__attribute__((noinline)) long in_handler(long x)
{
    return x * 3 + sink;
}

__attribute__((noinline)) long busy(long x)
{
    return x * 7 + sink;
}

static void on_timer(int sig)
{
    sink = in_handler(sig) - sig * 3;   /* stays 0 */
}

int main(void)
{
    struct sigaction sa = {.sa_handler = on_timer, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 100}, {0, 100}};
    setitimer(ITIMER_REAL, &it, NULL);
    for (long i = 0; i < 2000000; i++)
        if (busy(i) != i * 7) {
            fprintf(stderr, "busy(%ld) returned a wrong value\n", i);
            return 1;
        }
    puts("ok");
    return 0;
}
