/* encode_threads.c: how many threads encode at finalize, and their pool
 * (see encode_threads.h). */
#include "encode_threads.h"

#include "log.h"
#include "region_encode.h"
#include "thread_state.h"

#include <stdlib.h>
#include <unistd.h>

static struct encode_helpers pool;
static int running;

int scope_encode_helper_count(long online_cpus, long ranks_on_node, long limit)
{
    long idle = online_cpus - (ranks_on_node > 0 ? ranks_on_node : 1);
    long n = idle < ENCODE_HELPERS_MAX ? idle : ENCODE_HELPERS_MAX;
    if (limit >= 0 && limit < n)
        n = limit;
    return n > 0 ? (int)n : 0;
}

/* SCOPE_FINALIZE_THREADS as a cap: -1 when unset or not a count (said). */
static long user_limit(void)
{
    const char *v = getenv("SCOPE_FINALIZE_THREADS");
    if (!v || !*v)
        return -1;
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || n < 0) {
        scope_log("SCOPE_FINALIZE_THREADS=%s is not a number of threads: ignored", v);
        return -1;
    }
    return n;
}

static void not_recorded(void)
{
    scope_tls.status = SCOPE_THREAD_OFF;   /* its calls are scope's, not the program's */
}

int scope_encode_threads_begin(long ranks_on_node, const cpu_set_t *used)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int n = scope_encode_helper_count(online, ranks_on_node, user_limit());
    cpu_set_t idle;
    CPU_ZERO(&idle);
    for (long cpu = 0; used && cpu < online && cpu < CPU_SETSIZE; cpu++)
        if (!CPU_ISSET(cpu, used))
            CPU_SET(cpu, &idle);
    if (n > 0)
        n = encode_helpers_start(&pool, n, REGION_WINDOW * sizeof(int64_t),
                                 CPU_COUNT(&idle) > 0 ? &idle : NULL, not_recorded);
    running = n > 0;
    return n;
}

struct encode_helpers *scope_encode_threads(void)
{
    return running ? &pool : NULL;
}

void scope_encode_threads_end(void)
{
    if (running)
        encode_helpers_stop(&pool);
    running = 0;
}
