/* exit_inside.c: the program ends with exit() called from inside hooked
 * calls (driver -> phase -> exit), as codes do that stop from deep in their
 * solver, or call MPI_Finalize and exit from a hooked function. The calls
 * still open then are in the file, ending at exit; the ones that returned
 * before are nested under them as usual. Built with CORPUS_QUICK_EXIT, it
 * leaves by _exit(), as dash and daemon() do: no exit handlers run, and the
 * file must be written all the same. */
#define CORPUS_MAIN
#include "corpus.h"

#include <unistd.h>

#ifdef CORPUS_QUICK_EXIT
#define LEAVE _exit
#else
#define LEAVE exit
#endif

HOOKED long step(long i)
{
    return i * 3 + SEED;
}

HOOKED void phase(long n)
{
    long sum = 0;
    for (long i = 0; i < n; i++)
        sum += step(i);
    CHECK(sum == 3 * n * (n - 1) / 2 + n * SEED, "sum %ld", sum);
    puts("exit_inside: ok");
    fflush(stdout);
    LEAVE(0);
}

HOOKED void driver(void)
{
    phase(1000);
}

int main(void)
{
    driver();
    return 1;   /* not reached */
}
