/* tutorial.c: the bundled example, an ordinary MPI program that knows
 * nothing of scope, shaped like the tutorial's run: a setup, six timesteps
 * each assembling and solving (the solve slows down as the run goes on),
 * and a checkpoint after every third step. Built with -O2 like user code;
 * the profiled functions are kept out of line as real code would be.
 * Works without mpirun too (then it is a 1-rank run). */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static void pause_ms(double ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)((ms - 1000 * (long)(ms / 1000)) * 1e6)};
    nanosleep(&ts, NULL);
}

__attribute__((noinline)) void setup(void) { pause_ms(10); }
__attribute__((noinline)) void assemble(void) { pause_ms(2); }
__attribute__((noinline)) void solve(int step) { pause_ms(2 + step); }
__attribute__((noinline)) void checkpoint(void) { pause_ms(4); }

__attribute__((noinline)) void timestep(int step)
{
    assemble();
    solve(step);
}

int main(int argc, char **argv)
{
    int rank = 0, size = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    setup();
    for (int step = 0; step < 6; step++) {
        timestep(step);
        if (step % 3 == 2)
            checkpoint();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("tutorial: %d rank(s) done\n", size);
    MPI_Finalize();
    return 0;
}
