/* exec_image.c: a thread replaces the process's image (execl of the
 * program itself) while the main thread waits for it (with
 * CORPUS_EXEC_FROM_MAIN, the main thread itself). What the first image
 * recorded must be in its file (500 calls, and the call open at the exec,
 * ending there, unfinished); the new image, same pid, records its own 500
 * calls into a file of its own. */
#define CORPUS_MAIN
#include "corpus.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#define CALLS 500

HOOKED long ex_work(long i)
{
    return i * 5 + SEED;
}

static long work_all(void)
{
    long sum = 0;
    for (long i = 0; i < CALLS; i++)
        sum += ex_work(i);
    CHECK(sum == 5L * CALLS * (CALLS - 1) / 2 + CALLS * SEED, "sum %ld", sum);
    return sum;
}

HOOKED void ex_thread(const char *self)
{
    fflush(stdout);
    execl("/proc/self/exe", self, "again", (char *)NULL);
    CHECK(0, "execl: %s", strerror(errno));
}

static void *thread_main(void *arg)
{
    ex_thread(arg);
    return NULL;
}

int main(int argc, char **argv)
{
    work_all();
    if (argc > 1 && strcmp(argv[1], "again") == 0) {
        puts("exec_image: ok");
        return 0;
    }
#ifdef CORPUS_EXEC_FROM_MAIN
    thread_main(argv[0]);
#else
    pthread_t th;
    CHECK(pthread_create(&th, NULL, thread_main, argv[0]) == 0, "pthread_create");
    pthread_join(th, NULL);
#endif
    CHECK(0, "the exec did not happen");
}
