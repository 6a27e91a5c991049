/* constructor.c: libscope's start and end. The constructor takes the run's
 * start time, reads the config, measures what a hooked call costs, installs
 * the hooks and starts recording; the exit handler writes the file of a
 * process that never used MPI. Any failure is one line on stderr and a
 * program that runs unprofiled. */
#include "constructor.h"
#include "fault_signals.h"
#include "fold.h"
#include "hook_cost.h"
#include "install.h"
#include "log.h"
#include "output_path.h"
#include "process_meta.h"
#include "profile_table.h"
#include "run_info.h"
#include "runtime.h"
#include "spill_writer.h"
#include "stale_runs.h"
#include "thread_buffer.h"
#include "thread_end.h"
#include "thread_state.h"
#include "write_local.h"

#include <cpuid.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* MPI launchers and daemons inherit LD_PRELOAD: they are never profiled. */
static int is_launcher(void)
{
    static const char *const names[] = {"mpirun", "mpiexec", "orterun", "orted", "prterun",
                                        "prted", "prte", "hydra_pmi_proxy", "hydra_nameserver",
                                        "srun", "scope"};
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        size_t l = strlen(names[i]);
        if (strncmp(base, names[i], l) == 0 && (base[l] == '\0' || base[l] == '.'))
            return 1;
    }
    return 0;
}

/* Size of the XSAVE area for the state the OS enabled (0: use fxsave). */
static uint64_t xsave_area_size(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE))
        return 0;
    __cpuid_count(0xd, 0, a, b, c, d);
    return ((uint64_t)b + 63) & ~(uint64_t)63;
}

/* SCOPE_MIN_DURATION and SCOPE_TRACE_LIMIT, over the config's [output]
 * min_duration and trace_limit. */
static int output_limits_from_env(void)
{
    const char *min = getenv("SCOPE_MIN_DURATION"), *limit = getenv("SCOPE_TRACE_LIMIT");
    if (min && *min && (scope_rt.config.min_duration_ns = scope_parse_duration(min)) < 0) {
        scope_warn("SCOPE_MIN_DURATION: bad duration '%s' (expected e.g. 500ns, 2us, 1ms); "
                   "profiling disabled", min);
        return -1;
    }
    if (limit && *limit && (scope_rt.config.trace_limit_bytes = scope_parse_size(limit)) < 0) {
        scope_warn("SCOPE_TRACE_LIMIT: bad size '%s' (expected e.g. 64M, 1G); profiling disabled",
                   limit);
        return -1;
    }
    return 0;
}

static int load_config(void)
{
    char err[1024];
    const char *path = getenv("SCOPE_CONFIG");
    scope_config_init(&scope_rt.config);
    if (path && *path) {
        if (scope_config_load_file(&scope_rt.config, path, err, sizeof(err)) != 0) {
            scope_warn("%s; profiling disabled", err);
            return -1;
        }
    } else if (access("scope.conf", R_OK) == 0 &&
               scope_config_load_file(&scope_rt.config, "scope.conf", err, sizeof(err)) != 0) {
        scope_warn("%s; profiling disabled", err);
        return -1;
    }
    const char *list = getenv("SCOPE_FUNCTIONS");
    if (list && scope_config_add_functions(&scope_rt.config, list, err, sizeof(err)) != 0) {
        scope_warn("SCOPE_FUNCTIONS: %s; profiling disabled", err);
        return -1;
    }
    const char *mode = getenv("SCOPE_MODE");
    if (mode && *mode) {
        scope_rt.config.profile_mode = scope_parse_mode(mode);
        if (scope_rt.config.profile_mode < 0) {
            scope_warn("SCOPE_MODE: bad mode '%s' (expected trace or profile); profiling "
                       "disabled", mode);
            return -1;
        }
    }
    if (output_limits_from_env() != 0)
        return -1;
    const char *out = getenv("SCOPE_OUTPUT");
    if (out && *out) {
        char *copy = strdup(out);
        if (copy)
            scope_rt.config.output_file = copy;   /* lives as long as the process */
    }
    if (scope_rt.config.npatterns == 0) {
        if (scope_rt.main_target)
            scope_warn("no functions to profile: give a config (-c, SCOPE_CONFIG or ./scope.conf) "
                      "or SCOPE_FUNCTIONS");
        return -1;
    }
    return 0;
}

/* A program started by a profiled process (exec after fork or vfork,
 * posix_spawn, system, popen) inherits its environment, SCOPE_OUTPUT
 * included: it records on its own, into a file named after its parent's
 * with its pid added. The first profiled process marks the environment. */
static void claim_output_file(void)
{
    const char *owner = getenv("SCOPE_OUTPUT_OWNER");
    char pid[24];
    snprintf(pid, sizeof(pid), "%ld", (long)getpid());
    if (!owner || !*owner) {
        setenv("SCOPE_OUTPUT_OWNER", pid, 1);
        return;
    }
    static int derived;   /* forked from a process that derived it: already a child's */
    if (strcmp(owner, pid) == 0 || derived)
        return;
    char *child = scope_child_output_pattern(scope_rt.config.output_file);
    if (child) {
        scope_rt.config.output_file = child;   /* lives as long as the process */
        derived = 1;
    }
}

/* A forked child that goes on recording (a worker, daemon()'s child) is a
 * run of its own, without MPI, whose file is named like that of a program
 * a profiled process starts; one that execs or leaves before its first
 * hooked call writes nothing. */
static void fork_child_reset(void)
{
    scope_meta_forget();
    scope_buffers_after_fork_child();
    if (!scope_recording || scope_rt.written) {
        scope_recording = 0;
        scope_rt.enabled = 0;
        return;
    }
    scope_facts.pid = getpid();
    scope_rt.mpi_initialized = scope_rt.mpi_finalized = 0;
    claim_output_file();
    scope_meta_publish();
}

/* Runs marked busy: hooked functions scope's own code calls here (all of
 * libc under `*`) pass through instead of recording into the parent's
 * buffer or taking locks the fork left held. */
static void at_fork_child(void)
{
    scope_tls.busy++;
    fork_child_reset();
    scope_tls.busy--;
}

int scope_process_recording(void)
{
    return scope_rt.enabled && !scope_rt.written && getpid() == (pid_t)scope_facts.pid;
}

void scope_process_leaving(void)
{
    if (!scope_process_recording())
        return;
    if (!scope_rt.mpi_initialized) {
        scope_write_single_process();
        return;
    }
    if (!scope_rt.mpi_finalized)
        scope_keep_records_for_recover("exit without MPI_Finalize");
}

void scope_enable_recording(void)
{
    if (scope_rt.enabled) {
        scope_meta_publish();   /* with the hooks added since */
        return;
    }
    if (scope_rt.written || scope_rt.mpi_finalized)
        return;
    claim_output_file();
    scope_warn_stale_runs();
    scope_meta_publish();
    scope_install_signal_handlers();
    pthread_atfork(NULL, NULL, at_fork_child);
    atexit(scope_process_leaving);
    scope_spill_writer_start();
    scope_rt.enabled = 1;
    scope_recording = 1;
}

__attribute__((constructor)) static void scope_start(void)
{
    scope_rt.run_start_ns = scope_clock_start(&scope_rt.clock);
    scope_rt.start_wall = time(NULL);
    if (env_flag("SCOPE_DISABLE") || is_launcher())
        return;
    int saved_errno = errno;
    scope_rt.verbose = env_flag("SCOPE_VERBOSE");
    const char *payload = getenv("SCOPE_MPI_PAYLOAD");
    scope_rt.mpi_payload_off = payload && strcmp(payload, "0") == 0;
    const char *main_pid = getenv("SCOPE_MAIN_PID");
    scope_rt.main_target = main_pid && atol(main_pid) == (long)getpid();
    scope_tls.busy++;
    if (load_config() == 0) {
        scope_xsave_size = xsave_area_size();
        scope_exit_stub_address = (uintptr_t)scope_exit_stub;
        scope_run_facts_collect(&scope_facts);
        /* profile mode counts calls in its tables: its buffers stay unused;
         * trace mode folds its short calls into them (min_duration), and
         * every call past trace_limit */
        int profile = scope_rt.config.profile_mode;
        long long fold_below = profile ? 0 : scope_rt.config.min_duration_ns;
        long long limit = profile ? 0 : scope_rt.config.trace_limit_bytes;
        scope_profile_configure(profile, profile || fold_below > 0 || limit > 0);
        scope_fold_configure(fold_below, limit);
        scope_buffers_configure(scope_rt.config.profile_mode ? 0 : scope_rt.config.buffer_bytes,
                                scope_rt.clock.raw0, scope_thread_end);
        scope_rt.hook_cost_ns = scope_measure_hook_cost();
        if (scope_install_hooks() > 0)
            scope_enable_recording();
    }
    scope_tls.busy--;
    errno = saved_errno;
}
