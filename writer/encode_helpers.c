/* encode_helpers.c: threads encoding a window's columns next to the
 * caller (see encode_helpers.h). One round per window: the caller hands
 * out the jobs, encodes its own share and waits for the helpers. */
#include "encode_helpers.h"

#include <signal.h>
#include <string.h>

static void encode_share(struct chunk_codec *codec, struct encode_job *jobs, size_t njobs,
                         size_t first, size_t step)
{
    for (size_t j = first; j < njobs; j += step)
        jobs[j].bytes = chunk_encode(codec, jobs[j].src, jobs[j].n, jobs[j].elsize, jobs[j].out);
}

static void *helper_main(void *arg)
{
    struct encode_helpers *h = ((struct encode_helper_arg *)arg)->h;
    int index = ((struct encode_helper_arg *)arg)->index;
    if (h->on_start)
        h->on_start();
    uint64_t seen = 0;
    pthread_mutex_lock(&h->lock);
    for (;;) {
        while (h->round == seen && !h->stop)
            pthread_cond_wait(&h->go, &h->lock);
        if (h->stop)
            break;
        seen = h->round;
        pthread_mutex_unlock(&h->lock);
        encode_share(&h->codec[index], h->jobs, h->njobs, (size_t)index + 1, (size_t)h->n + 1);
        pthread_mutex_lock(&h->lock);
        if (--h->busy == 0)
            pthread_cond_signal(&h->done);
    }
    pthread_mutex_unlock(&h->lock);
    return NULL;
}

int encode_helpers_start(struct encode_helpers *h, int n, size_t max_bytes,
                         const cpu_set_t *cpus, void (*on_start)(void))
{
    memset(h, 0, sizeof *h);
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->go, NULL);
    pthread_cond_init(&h->done, NULL);
    h->on_start = on_start;
    n = n < 0 ? 0 : n > ENCODE_HELPERS_MAX ? ENCODE_HELPERS_MAX : n;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    for (int i = 0; i < n; i++) {
        if (chunk_codec_init(&h->codec[i], max_bytes) != 0)
            break;
        h->arg[i] = (struct encode_helper_arg){h, i};
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        if (cpus)
            pthread_attr_setaffinity_np(&attr, sizeof *cpus, cpus);
        int rc = pthread_create(&h->thread[i], &attr, helper_main, &h->arg[i]);
        if (rc != 0 && cpus) {   /* those CPUs refused: where the caller runs */
            pthread_attr_destroy(&attr);
            pthread_attr_init(&attr);
            rc = pthread_create(&h->thread[i], &attr, helper_main, &h->arg[i]);
        }
        pthread_attr_destroy(&attr);
        if (rc != 0) {
            chunk_codec_free(&h->codec[i]);
            break;
        }
        h->n++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return h->n;
}

void encode_helpers_stop(struct encode_helpers *h)
{
    pthread_mutex_lock(&h->lock);
    h->stop = 1;
    pthread_cond_broadcast(&h->go);
    pthread_mutex_unlock(&h->lock);
    for (int i = 0; i < h->n; i++) {
        pthread_join(h->thread[i], NULL);
        chunk_codec_free(&h->codec[i]);
    }
    pthread_cond_destroy(&h->go);
    pthread_cond_destroy(&h->done);
    pthread_mutex_destroy(&h->lock);
    h->n = 0;
}

void encode_helpers_run(struct encode_helpers *h, struct chunk_codec *own, struct encode_job *jobs,
                        size_t njobs)
{
    if (!h || h->n == 0) {
        encode_share(own, jobs, njobs, 0, 1);
        return;
    }
    pthread_mutex_lock(&h->lock);
    h->jobs = jobs;
    h->njobs = njobs;
    h->busy = h->n;
    h->round++;
    pthread_cond_broadcast(&h->go);
    pthread_mutex_unlock(&h->lock);
    encode_share(own, jobs, njobs, 0, (size_t)h->n + 1);
    pthread_mutex_lock(&h->lock);
    while (h->busy > 0)
        pthread_cond_wait(&h->done, &h->lock);
    pthread_mutex_unlock(&h->lock);
}
