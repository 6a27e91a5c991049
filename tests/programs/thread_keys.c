/* thread_keys.c: an MPI program that keeps values in pthread keys across
 * MPI_Finalize, where rank 0's scope loads its HDF5 writer. Exits 1 if any
 * value changed, if a key made after finalize collides with an earlier one,
 * or if key destructors did not run for a thread that exits afterwards.
 * Prints "thread_keys: ok" per rank. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define KEYS 40   /* more than one 32-slot block of thread-specific data */

static pthread_key_t keys[KEYS];
static int values[KEYS];
static int destroyed;

static void count_destroyed(void *v)
{
    (void)v;
    __atomic_add_fetch(&destroyed, 1, __ATOMIC_SEQ_CST);
}

__attribute__((noinline)) double step(int i)
{
    volatile double x = i;
    for (int k = 0; k < 200; k++)
        x = x * 1.0001 + 1.0;
    return x;
}

static void *late_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < KEYS; i++)
        pthread_setspecific(keys[i], &values[i]);
    return NULL;
}

int main(int argc, char **argv)
{
    for (int i = 0; i < KEYS; i++)
        if (pthread_key_create(&keys[i], count_destroyed) != 0 ||
            pthread_setspecific(keys[i], &values[i]) != 0)
            return 1;
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double s = 0;
    for (int i = 0; i < 1000; i++)
        s += step(i);
    MPI_Finalize();
    int bad = 0;
    for (int i = 0; i < KEYS; i++)
        if (pthread_getspecific(keys[i]) != &values[i]) {
            fprintf(stderr, "rank %d: key %u changed after MPI_Finalize\n", rank, (unsigned)keys[i]);
            bad = 1;
        }
    pthread_key_t fresh;
    if (pthread_key_create(&fresh, NULL) != 0 || pthread_getspecific(fresh) != NULL) {
        fprintf(stderr, "rank %d: a new key is not empty\n", rank);
        bad = 1;
    }
    for (int i = 0; i < KEYS; i++)
        bad |= fresh == keys[i];
    pthread_t t;
    if (pthread_create(&t, NULL, late_thread, NULL) != 0 || pthread_join(t, NULL) != 0 ||
        destroyed != KEYS) {
        fprintf(stderr, "rank %d: %d of %d key destructors ran\n", rank, destroyed, KEYS);
        bad = 1;
    }
    printf("thread_keys: %s (%.0f)\n", bad ? "CORRUPTED" : "ok", s);
    return bad;
}
