// thread_exit.cpp: calls whose returns pthread_exit and cancellation skip.
// Threads leave through pthread_exit from inside two nested hooked
// functions, and one thread is cancelled while blocked inside two others;
// every frame on the way holds an object whose destructor must run (the
// forced unwind passes the hooked frames like any other). The profile must
// hold every one of these calls, ended, nested as called.
#define CORPUS_MAIN
#include "corpus.h"

#include <pthread.h>
#include <unistd.h>

#define EXITS 3

static int destroyed;

struct Guard {
    ~Guard() { __atomic_add_fetch(&destroyed, 1, __ATOMIC_SEQ_CST); }
};

extern "C" HOOKED long te_leave(long x)
{
    Guard g;
    if (x >= 0)
        pthread_exit(reinterpret_cast<void *>(x + SEED));
    return x;
}

extern "C" HOOKED long te_middle(long x)
{
    Guard g;
    return te_leave(x) * 2 + SEED;
}

extern "C" HOOKED long te_blocked(long x)
{
    Guard g;
    for (;;) {
        pause();   // a cancellation point
        x += SEED;
    }
    return x;
}

extern "C" HOOKED long te_wait(long x)
{
    Guard g;
    return te_blocked(x) + SEED;
}

static void *exiting(void *arg)
{
    Guard g;
    return reinterpret_cast<void *>(te_middle(reinterpret_cast<long>(arg)));
}

static void *waiting(void *arg)
{
    Guard g;
    return reinterpret_cast<void *>(te_wait(reinterpret_cast<long>(arg)));
}

int main()
{
    for (long i = 0; i < EXITS; i++) {
        pthread_t t;
        void *ret;
        CHECK(pthread_create(&t, nullptr, exiting, reinterpret_cast<void *>(i)) == 0, "create");
        CHECK(pthread_join(t, &ret) == 0, "join");
        CHECK(ret == reinterpret_cast<void *>(i + SEED), "thread %ld returned %p", i, ret);
    }
    CHECK(destroyed == 3 * EXITS, "%d of %d destructors ran after pthread_exit", destroyed,
          3 * EXITS);
    pthread_t t;
    void *ret;
    CHECK(pthread_create(&t, nullptr, waiting, nullptr) == 0, "create");
    usleep(50000);
    CHECK(pthread_cancel(t) == 0, "cancel");
    CHECK(pthread_join(t, &ret) == 0 && ret == PTHREAD_CANCELED, "not cancelled");
    CHECK(destroyed == 3 * EXITS + 3, "%d of %d destructors ran after cancellation", destroyed,
          3 * EXITS + 3);
    puts("thread_exit: ok");
    return 0;
}
