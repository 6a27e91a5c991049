/* cmd_lib.c: `scope lib`: print the path of libscope, for LD_PRELOAD by
 * hand (mpirun -x LD_PRELOAD=$(scope lib ./app) ...). */
#include "cli.h"
#include "libscope_locate.h"

#include <limits.h>
#include <string.h>

static const char lib_help[] =
    "usage: scope lib [--mpi openmpi|mpich] [PROGRAM]\n"
    "\n"
    "Print the path of the libscope to preload: the one for the MPI that\n"
    "PROGRAM links when it is given, else the one for FLAVOUR, else the first\n"
    "one installed.\n"
    "\n"
    "example:\n"
    "  mpirun -n 4 -x LD_PRELOAD=$(scope lib ./app) -x SCOPE_CONFIG=scope.conf ./app\n";

static int lib_main(int argc, char **argv)
{
    const char *mpi = NULL, *program = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(lib_help, stdout);
            return 0;
        } else if (strcmp(argv[i], "--mpi") == 0 && i + 1 < argc) {
            mpi = argv[++i];
        } else if (argv[i][0] != '-' && !program) {
            program = argv[i];
        } else {
            fprintf(stderr, "scope lib: unexpected '%s' (see 'scope lib --help')\n", argv[i]);
            return 2;
        }
    }
    if (!mpi && program)
        mpi = scope_detect_mpi(program);
    char lib[PATH_MAX], err[512];
    if (scope_locate_libscope(mpi, lib, sizeof(lib), err, sizeof(err)) != 0) {
        fprintf(stderr, "scope lib: %s\n", err);
        return 2;
    }
    puts(lib);
    return 0;
}

const cli_command cmd_lib = {
    .name = "lib",
    .summary = "print the path of libscope for LD_PRELOAD",
    .main = lib_main,
};
