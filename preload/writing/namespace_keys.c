/* namespace_keys.c: keeps a dlmopen namespace's pthread keys apart from
 * the application's. glibc gives every namespace its own libc, and each
 * libc's pthread_key_create hands out the lowest index free in its own
 * table, but the per-thread slots those indexes name are the thread's, one
 * set shared by every libc. A thread-safe HDF5 keeps its API context in
 * keys: loaded in a fresh namespace it would take indexes 0, 1, 2... that
 * the application (or its MPI library) already uses, overwrite their
 * values, and crash at exit on the values it finds there.
 *
 * So: take RESERVED consecutive indexes in the application's libc and
 * never give them back; then, in the new namespace's libc, take every
 * index below the first of them. The namespace's next keys (HDF5's) land
 * on the reserved indexes, which the application can never be given. */
#include "namespace_keys.h"
#include "real_loader.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>

#define RESERVED 32     /* HDF5 1.10-1.14 creates 3 to 5 keys */

typedef int (*key_create_fn)(pthread_key_t *, void (*)(void *));

/* Indexes [first, first + RESERVED) held in the application's libc; keys
 * that fill holes below them stay held too (a few at most). The slots are
 * touched once so that any second-level slot block is this libc's. */
static int reserve_in_application(pthread_key_t *first)
{
    pthread_key_t k, run_start = 0;
    unsigned run = 0;
    for (int taken = 0; run < RESERVED; taken++) {
        if (taken >= PTHREAD_KEYS_MAX || pthread_key_create(&k, NULL) != 0)
            return -1;
        if (run && k == run_start + run) {
            run++;
        } else {
            run_start = k;
            run = 1;
        }
        pthread_setspecific(k, &run);
        pthread_setspecific(k, NULL);
    }
    *first = run_start;
    return 0;
}

int scope_namespace_create(Lmid_t *lmid, char *err, size_t errlen)
{
    pthread_key_t first;
    if (reserve_in_application(&first) != 0) {
        snprintf(err, errlen, "cannot reserve %d pthread keys for the writer", RESERVED);
        return -1;
    }
    void *libc = scope_libc_dlmopen()(LM_ID_NEWLM, "libc.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!libc || dlinfo(libc, RTLD_DI_LMID, lmid) != 0) {
        snprintf(err, errlen, "cannot open a namespace for the writer: %s", dlerror());
        return -1;
    }
    if (first == 0)   /* no index below the reserved ones: nothing to take */
        return 0;
    key_create_fn create = (key_create_fn)dlsym(libc, "pthread_key_create");
    pthread_key_t k = 0;
    for (int taken = 0; create && taken < PTHREAD_KEYS_MAX; taken++) {
        if (create(&k, NULL) != 0)
            break;
        if (k + 1 == first)
            return 0;
        if (k + 1 > first)
            break;   /* not glibc's lowest-free rule: nothing safe to do */
    }
    snprintf(err, errlen, "cannot keep the writer's pthread keys apart (took up to %u of %u)",
             (unsigned)k, (unsigned)first);
    return -1;
}
