/* bench_calls.c: the victim of the hook-cost benchmark (bench_hook_cost.sh).
 * A plain C program, knowing nothing of MPI or scope: it calls one small
 * non-inlined function, work(), N times in a loop and prints the time per
 * call. Run unprofiled, under libscope (SCOPE_FUNCTIONS=work) and under
 * `uftrace record -P work`, the difference is the cost of a hooked call.
 *
 * usage: bench_calls [calls [threads]]   (default 10000000 calls, 1 thread)
 * With T threads, each thread makes `calls` calls at the same time.
 * Besides the timed calls, each thread makes WARMUP untimed calls first (the
 * first hooked call of a thread sets up its buffer); the total number of
 * calls to work() is printed so a profile can be checked against it.
 *
 * Output, one line:
 *   calls=<total calls of work> threads=<T> ns_per_call=<x> cpu_ns_per_call=<y>
 *   process_cpu_ns_per_call=<p> rdtsc_cpu_ns=<z>
 * where x is the mean over threads of (timed loop wall time / calls) and y
 * the same with each thread's CPU time (CLOCK_THREAD_CPUTIME_ID): on a
 * shared machine, time other processes take from the loop counts in x,
 * not in y (time the thread spends in the kernel, page faults included,
 * counts in both; time it sleeps, waiting for the disk, only in x); p is
 * the CPU time of the whole process while a thread loops, per call of all
 * threads (mean over threads): it holds what helper threads of a profiler
 * (scope's spill writer) spend meanwhile; z is the CPU time of one rdtsc
 * here, measured after the loop: a hooked call reads it twice, which
 * bounds its cost from below. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WARMUP 1000L

volatile long bench_sink;   /* keeps the results of work() alive */

__attribute__((noinline)) long work(long x)
{
    __asm__ volatile("");
    return x * 3 + 1;
}

struct job {
    long calls;
    long sink;
    double ns, cpu_ns, process_cpu_ns;
};

static double now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void *run(void *arg)
{
    struct job *j = arg;
    long acc = 0;
    for (long i = 0; i < WARMUP; i++)
        acc += work(i);
    double t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    double p0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    for (long i = 0; i < j->calls; i++)
        acc += work(i);
    double p1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    double c1 = now_ns(CLOCK_THREAD_CPUTIME_ID), t1 = now_ns(CLOCK_MONOTONIC);
    j->sink = acc;
    j->ns = (t1 - t0) / (double)j->calls;
    j->cpu_ns = (c1 - c0) / (double)j->calls;
    j->process_cpu_ns = (p1 - p0) / (double)j->calls;
    return NULL;
}

static double rdtsc_cpu_ns(void)
{
    enum { READS = 1000000 };
    uint64_t sum = 0;
    double c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < READS; i++)
        sum += __builtin_ia32_rdtsc();
    double c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    bench_sink = (long)sum;
    return (c1 - c0) / READS;
}

int main(int argc, char **argv)
{
    long calls = argc > 1 ? atol(argv[1]) : 10000000L;
    int threads = argc > 2 ? atoi(argv[2]) : 1;
    if (calls < 1 || threads < 1 || threads > 64) {
        fprintf(stderr, "usage: %s [calls>0 [threads 1..64]]\n", argv[0]);
        return 2;
    }
    struct job jobs[64];
    pthread_t tid[64];
    for (int t = 0; t < threads; t++)
        jobs[t] = (struct job){.calls = calls};
    if (threads == 1) {
        run(&jobs[0]);
    } else {
        for (int t = 0; t < threads; t++)
            if (pthread_create(&tid[t], NULL, run, &jobs[t]) != 0) {
                perror("pthread_create");
                return 1;
            }
        for (int t = 0; t < threads; t++)
            pthread_join(tid[t], NULL);
    }
    double ns = 0, cpu_ns = 0, process_cpu_ns = 0;
    long sink = 0;
    for (int t = 0; t < threads; t++) {
        ns += jobs[t].ns;
        cpu_ns += jobs[t].cpu_ns;
        process_cpu_ns += jobs[t].process_cpu_ns;
        sink += jobs[t].sink;
    }
    printf("calls=%ld threads=%d ns_per_call=%.3f cpu_ns_per_call=%.3f "
           "process_cpu_ns_per_call=%.3f rdtsc_cpu_ns=%.3f\n",
           (calls + WARMUP) * threads, threads, ns / threads, cpu_ns / threads,
           process_cpu_ns / threads / threads, rdtsc_cpu_ns());
    bench_sink = sink;
    return 0;
}
