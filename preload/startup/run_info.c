/* run_info.c: host, platform, user, working directory, start timestamp and
 * command line of this process, for the file's metadata. */
#include "run_info.h"
#include "clock.h"
#include "runtime.h"
#include "scope_build_config.h"

#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

struct scope_run_facts scope_facts;

static void read_command(char *out, size_t len)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, out, len - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n <= 0) {
        out[0] = '\0';
        return;
    }
    for (ssize_t i = 0; i < n - 1; i++)
        if (out[i] == '\0')
            out[i] = ' ';
    out[n] = '\0';
}

void scope_run_facts_collect(struct scope_run_facts *f)
{
    struct utsname u;
    gethostname(f->hostname, sizeof(f->hostname) - 1);
    if (uname(&u) == 0)
        snprintf(f->platform, sizeof(f->platform), "%s-%s-%s", u.sysname, u.release, u.machine);
    struct passwd pw, *res = NULL;
    char buf[1024];
    if (getpwuid_r(getuid(), &pw, buf, sizeof(buf), &res) == 0 && res)
        snprintf(f->user, sizeof(f->user), "%s", pw.pw_name);
    else
        snprintf(f->user, sizeof(f->user), "%s", getenv("USER") ? getenv("USER") : "");
    if (!getcwd(f->cwd, sizeof(f->cwd)))
        f->cwd[0] = '\0';
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(f->timestamp, sizeof(f->timestamp), "%Y-%m-%dT%H:%M:%S%z", &tm);
    read_command(f->command, sizeof(f->command));
    f->pid = (long)getpid();
}

struct scope_run_info scope_run_info_from(const struct scope_run_facts *f, int mpi_size,
                                          int64_t run_start_time)
{
    const char *omp = getenv("OMP_NUM_THREADS");
    return (struct scope_run_info){
        .version = SCOPE_VERSION,
        .hostname = f->hostname,
        .platform = f->platform,
        .user = f->user,
        .working_directory = f->cwd,
        .timestamp = f->timestamp,
        .command = f->command,
        .config = scope_rt.config.path ? scope_rt.config.path : "",
        .clock = scope_clock_name(),
        .mode = scope_rt.config.profile_mode ? "profile" : "trace",
        .mpi_size = mpi_size,
        .omp_num_threads = omp && atoi(omp) > 0 ? atoi(omp) : 1,
        .total_cores = sysconf(_SC_NPROCESSORS_ONLN),
        .run_start_time = run_start_time,
        .hook_cost_ns = scope_rt.hook_cost_ns,
        .min_duration_ns = scope_rt.config.profile_mode ? 0 : scope_rt.config.min_duration_ns,
        .trace_limit_bytes = scope_rt.config.profile_mode ? 0 : scope_rt.config.trace_limit_bytes,
    };
}

long scope_peak_memory_mib(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib < 0 ? -1 : kib / 1024;
}
