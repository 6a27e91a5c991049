/* log.c: scope's one-line messages on stderr, which process of a job
 * says what all of them would, and sizes written for them. */
#include "log.h"
#include "runtime.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define PROGRESS_AFTER_NS 1000000000   /* a step shorter than this says nothing */

static int progress_shown;

/* Lines held by the one thread that holds them (scope_log_hold), written
 * when they fill the buffer, at release, and by the handlers of faults
 * and termination signals (scope_log_write_held). */
static char held[65536];
static size_t nheld;
static __thread int holding;

void scope_log_write_held(void)
{
    size_t n = nheld;
    for (size_t at = 0; at < n;) {
        ssize_t w = write(STDERR_FILENO, held + at, n - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        at += (size_t)w;
    }
    nheld = 0;
}

static void vlog(const char *fmt, va_list ap)
{
    char line[1024];
    vsnprintf(line, sizeof(line), fmt, ap);
    if (!holding) {
        fprintf(stderr, "scope: %s\n", line);
        return;
    }
    int n = snprintf(held + nheld, sizeof held - nheld, "scope: %s\n", line);
    if (n >= 0 && (size_t)n >= sizeof held - nheld) {   /* no room: out with the lines before */
        scope_log_write_held();
        n = snprintf(held, sizeof held, "scope: %s\n", line);
    }
    nheld += n > 0 ? (size_t)n : 0;
}

void scope_log_hold(void)
{
    holding = 1;
}

void scope_log_release(void)
{
    if (holding && nheld)
        scope_log_write_held();
    holding = 0;
}

void scope_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

/* The rank the launcher gave this process, -1 when there is none. */
static long launcher_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                       "SLURM_PROCID", "MV2_COMM_WORLD_RANK"};
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return strtol(v, NULL, 10);
    }
    return -1;
}

void scope_warn(const char *fmt, ...)
{
    if (launcher_rank() > 0 && !scope_rt.verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void scope_debug(const char *fmt, ...)
{
    if (!scope_rt.verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void scope_progress(int64_t elapsed_ns, const char *fmt, ...)
{
    static int now = -1;   /* SCOPE_TEST_PROGRESS (test-only): at once, not after a second */
    if (now < 0)
        now = getenv("SCOPE_TEST_PROGRESS") != NULL;
    if ((elapsed_ns < PROGRESS_AFTER_NS && !now) || !isatty(STDERR_FILENO))
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "\rscope: %s", line);
    progress_shown = 1;
}

void scope_progress_end(void)
{
    if (progress_shown)
        fputc('\n', stderr);
    progress_shown = 0;
}

void scope_size_text(uint64_t bytes, char *out, size_t len)
{
    static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) {
        snprintf(out, len, "%llu B", (unsigned long long)bytes);
        return;
    }
    double v = (double)bytes / 1024;
    size_t u = 0;
    for (; v >= 1024 && u + 1 < sizeof unit / sizeof unit[0]; u++)
        v /= 1024;
    snprintf(out, len, "%.1f %s", v, unit[u]);
}
