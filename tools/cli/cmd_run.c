/* cmd_run.c: `scope run`: profile a program. Sets LD_PRELOAD to the
 * libscope matching the program's MPI (keeping what LD_PRELOAD held), the
 * SCOPE_* variables from the options, and execs the program in place, so
 * that under mpirun every rank is profiled. */
#include "cli.h"
#include "libscope_locate.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char run_help[] =
    "usage: scope run [-c CONFIG] [-f FUNCTIONS] [-o FILE] [--mode trace|profile]\n"
    "                 [--mpi openmpi|mpich] [-v] [--] PROGRAM [ARGS...]\n"
    "\n"
    "Run PROGRAM with scope preloaded. Under MPI, put it after mpirun so every\n"
    "rank is profiled; rank 0 writes one HDF5 file at MPI_Finalize (a program\n"
    "without MPI writes it at exit). The program's output and exit status are\n"
    "its own; scope's messages start with 'scope:'.\n"
    "\n"
    "options:\n"
    "  -c, --config FILE     functions to hook and output settings (SCOPE_CONFIG)\n"
    "  -f, --functions LIST  comma-separated functions, added to the config (SCOPE_FUNCTIONS)\n"
    "  -o, --output FILE     the HDF5 file (SCOPE_OUTPUT; default profiling_data.h5)\n"
    "      --mode MODE       trace: every call (default); profile: per-region and call-path\n"
    "                        statistics only, a file that does not grow with the run\n"
    "                        (SCOPE_MODE, overrides the config's [output] mode)\n"
    "      --mpi FLAVOUR     the libscope to use (default: the MPI PROGRAM links)\n"
    "  -v, --verbose         say what is hooked (SCOPE_VERBOSE)\n"
    "  -h, --help            this help\n"
    "\n"
    "examples:\n"
    "  mpirun -n 4 scope run -c scope.conf -- ./app input.dat\n"
    "  scope run -f solve,assemble -- ./serial_app\n";

static int usage_error(const char *what)
{
    fprintf(stderr, "scope run: %s\n(see 'scope run --help')\n", what);
    return 2;
}

/* Absolute, so that a program that changes directory still finds it. */
static int set_path_var(const char *name, const char *path)
{
    char abs[PATH_MAX];
    const char *value = realpath(path, abs) ? abs : path;
    return setenv(name, value, 1);
}

static int prepend_preload(const char *lib)
{
    const char *old = getenv("LD_PRELOAD");
    if (!old || !*old)
        return setenv("LD_PRELOAD", lib, 1);
    size_t len = strlen(lib) + strlen(old) + 2;
    char *both = malloc(len);
    if (!both)
        return -1;
    snprintf(both, len, "%s:%s", lib, old);
    int rc = setenv("LD_PRELOAD", both, 1);
    free(both);
    return rc;
}

static int add_functions(const char *list)
{
    const char *old = getenv("SCOPE_FUNCTIONS");
    if (!old || !*old)
        return setenv("SCOPE_FUNCTIONS", list, 1);
    size_t len = strlen(list) + strlen(old) + 2;
    char *both = malloc(len);
    if (!both)
        return -1;
    snprintf(both, len, "%s,%s", old, list);
    int rc = setenv("SCOPE_FUNCTIONS", both, 1);
    free(both);
    return rc;
}

static int run_main(int argc, char **argv)
{
    const char *mpi = NULL;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = 0;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(run_help, stdout);
            return 0;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            rc = setenv("SCOPE_VERBOSE", "1", 1);
            continue;
        } else if (a[0] != '-') {
            break;
        } else if (!value) {
            return usage_error("an option lacks its value");
        } else if (strcmp(a, "-c") == 0 || strcmp(a, "--config") == 0) {
            rc = set_path_var("SCOPE_CONFIG", value);
        } else if (strcmp(a, "-f") == 0 || strcmp(a, "--functions") == 0) {
            rc = add_functions(value);
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            rc = setenv("SCOPE_OUTPUT", value, 1);
        } else if (strcmp(a, "--mode") == 0) {
            if (strcmp(value, "trace") != 0 && strcmp(value, "profile") != 0)
                return usage_error("--mode is trace or profile");
            rc = setenv("SCOPE_MODE", value, 1);
        } else if (strcmp(a, "--mpi") == 0) {
            mpi = value;
        } else {
            fprintf(stderr, "scope run: unknown option '%s'\n", a);
            return 2;
        }
        if (rc != 0)
            return usage_error("cannot set the environment");
        i++;
    }
    if (i >= argc)
        return usage_error("no program to run");
    char lib[PATH_MAX], err[512], pid[32];
    if (!mpi)
        mpi = scope_detect_mpi(argv[i]);
    if (scope_locate_libscope(mpi, lib, sizeof(lib), err, sizeof(err)) != 0) {
        fprintf(stderr, "scope run: %s\n", err);
        return 2;
    }
    snprintf(pid, sizeof(pid), "%ld", (long)getpid());
    if (prepend_preload(lib) != 0 || setenv("SCOPE_MAIN_PID", pid, 1) != 0)
        return usage_error("cannot set the environment");
    execvp(argv[i], argv + i);
    fprintf(stderr, "scope run: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}

const cli_command cmd_run = {
    .name = "run",
    .summary = "run a program with scope preloaded (put it after mpirun)",
    .main = run_main,
};
