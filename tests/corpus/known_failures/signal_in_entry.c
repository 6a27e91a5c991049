/* signal_in_entry.c: KNOWN FAILURE, not registered in meson.
 *
 * A signal whose handler calls a hooked function, arriving while another
 * hooked function is being entered, corrupts scope's shadow stack: the
 * program aborts (SIGABRT from scope_on_exit, "no frame returns here") or
 * crashes, typically within a second. Without libscope it runs fine.
 *
 * Diagnosis: scope_on_entry (preload/hooks.c) fills the shadow frame at
 * t->sp (return_address, slot, hook, start) BEFORE it publishes it with
 * t->sp = f + 1. A handler that runs in between and calls a hooked function
 * takes the same frame f, overwrites f->return_address with the handler's
 * own return address and pops it again; the interrupted entry then finishes
 * with f->slot of the outer call but the handler's return address, so the
 * outer call "returns" into the handler's code. emit() already reserves its
 * record slot before filling it; the shadow frame needs the same: t->sp =
 * f + 1 (compiler barrier) first, then fill f (and make a half-filled
 * frame harmless to close_dead_frames, e.g. write f->slot before
 * publishing or mark it), or block nothing and fill a local copy, then
 * publish.
 *
 * Run: gcc -O2 signal_in_entry.c -o sie
 *      SCOPE_FUNCTIONS=busy,in_handler SCOPE_OUTPUT=/tmp/sie.h5
 *        LD_PRELOAD=build/preload/libscope-openmpi.so ./sie
 * Expected: "ok"; observed: Aborted (exit 134) at -O0, -O2 and -O3. */
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
    struct itimerval it = {{0, 20}, {0, 20}};
    setitimer(ITIMER_REAL, &it, NULL);
    for (long i = 0; i < 20000000; i++)
        if (busy(i) != i * 7) {
            fprintf(stderr, "busy(%ld) returned a wrong value\n", i);
            return 1;
        }
    puts("ok");
    return 0;
}
