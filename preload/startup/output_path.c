/* output_path.c: expands %p (pid), %h (host), %j (batch job id), %t (start
 * time, YYYYmmdd-HHMMSS) and %% in the output file name, and names the file
 * of a program started by a profiled process. */
#include "output_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *job_id(void)
{
    static const char *const vars[] = {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "JOB_ID",
                                       "COBALT_JOBID", "FLUX_JOB_ID"};
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return v;
    }
    return "nojob";
}

void scope_expand_output_path(const char *pattern, pid_t pid, time_t start, char *out,
                              size_t outlen)
{
    size_t n = 0;
    char piece[256];
    for (const char *p = pattern; *p && n + 1 < outlen; p++) {
        piece[0] = '\0';
        if (*p == '%' && p[1]) {
            struct tm tm;
            switch (*++p) {
            case 'p': snprintf(piece, sizeof(piece), "%d", (int)pid); break;
            case 'h': gethostname(piece, sizeof(piece)); piece[sizeof(piece) - 1] = '\0'; break;
            case 'j': snprintf(piece, sizeof(piece), "%s", job_id()); break;
            case 't':
                localtime_r(&start, &tm);
                strftime(piece, sizeof(piece), "%Y%m%d-%H%M%S", &tm);
                break;
            case '%': snprintf(piece, sizeof(piece), "%%"); break;
            default: snprintf(piece, sizeof(piece), "%%%c", *p); break;   /* kept as is */
            }
        } else {
            piece[0] = *p;
            piece[1] = '\0';
        }
        size_t l = strlen(piece);
        if (n + l >= outlen)
            break;
        memcpy(out + n, piece, l);
        n += l;
    }
    out[n] = '\0';
}

char *scope_child_output_pattern(const char *pattern)
{
    const char *base = strrchr(pattern, '/') ? strrchr(pattern, '/') + 1 : pattern;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - pattern) : strlen(pattern);
    size_t len = strlen(pattern) + sizeof(".%p");
    char *out = malloc(len);
    if (out)
        snprintf(out, len, "%.*s.%%p%s", (int)stem, pattern, pattern + stem);
    return out;
}
