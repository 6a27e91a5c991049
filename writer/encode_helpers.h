/* encode_helpers.h: a few threads that encode a window's columns next to
 * the thread that asks, each column by one thread with a codec of its own,
 * so the bytes are those a single thread would produce. Used at finalize
 * where a node has idle cores (libscope decides how many: see
 * preload/writing/encode_threads.c). */
#ifndef SCOPE_ENCODE_HELPERS_H
#define SCOPE_ENCODE_HELPERS_H

#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "chunk_codec.h"

#define ENCODE_HELPERS_MAX 3   /* with the caller, 4 columns of a window at once */

/* One column of a window to shuffle and deflate into out. */
struct encode_job {
    const void *src;
    size_t n, elsize;
    unsigned char *out;
    size_t bytes;   /* the result, 0 when encoding failed */
};

struct encode_helpers;
struct encode_helper_arg {
    struct encode_helpers *h;
    int index;
};

struct encode_helpers {
    int n;                               /* threads running */
    struct encode_helper_arg arg[ENCODE_HELPERS_MAX];
    pthread_t thread[ENCODE_HELPERS_MAX];
    struct chunk_codec codec[ENCODE_HELPERS_MAX];
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    uint64_t round;                      /* jobs handed out so far */
    int busy;                            /* helpers still on this round */
    int stop;
    struct encode_job *jobs;
    size_t njobs;
    void (*on_start)(void);
};

/* Starts up to n threads (0..ENCODE_HELPERS_MAX) with every signal blocked,
 * each running on_start (may be NULL) first and, when `cpus` is not NULL,
 * bound to those CPUs (best effort). Codecs for chunks of up to max_bytes.
 * Returns how many run (fewer when threads or memory are short). */
int encode_helpers_start(struct encode_helpers *h, int n, size_t max_bytes,
                         const cpu_set_t *cpus, void (*on_start)(void));
void encode_helpers_stop(struct encode_helpers *h);

/* Encodes jobs[0..njobs): job j on helper j % (n + 1) - 1, or with `own`
 * on the calling thread for j % (n + 1) == 0 (all of them when h is NULL);
 * returns when all are done. */
void encode_helpers_run(struct encode_helpers *h, struct chunk_codec *own, struct encode_job *jobs,
                        size_t njobs);

#endif
