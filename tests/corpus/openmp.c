/* openmp.c: an OpenMP parallel loop (static schedule, 4 threads of
 * libgomp's pool) calls a hooked function that calls another, 100 000
 * times per thread, inside a hooked function on the main thread; then a
 * second parallel region reuses the same pool threads. Every result is
 * checked; the profile must hold every call under exactly 4 thread ids,
 * each leaf inside its caller on the same thread, the main thread's share
 * inside the enclosing function. */
#define CORPUS_MAIN
#include "corpus.h"

#include <omp.h>

#define THREADS 4
#define CALLS 100000

HOOKED long omp_leaf(long x)
{
    return x * 7 + SEED;
}

HOOKED long omp_work(long x)
{
    return omp_leaf(x) ^ (x << 20);
}

/* One parallel loop of THREADS * CALLS iterations: CALLS on each thread. */
HOOKED long omp_phase(void)
{
    long sum = 0;
#pragma omp parallel for schedule(static) num_threads(THREADS) reduction(+ : sum)
    for (long i = 0; i < THREADS * CALLS; i++) {
        long r = omp_work(i);
        CHECK(r == ((i * 7 + SEED) ^ (i << 20)), "omp_work(%ld) = %ld", i, r);
        sum += r & 1;
    }
    return sum;
}

int main(void)
{
    long odd = omp_phase() + omp_phase();
    CHECK(odd >= 0, "sum %ld", odd);
    puts("openmp: ok");
    return 0;
}
