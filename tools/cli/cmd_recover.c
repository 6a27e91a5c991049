/* cmd_recover.c: `scope recover`: write the file of runs that were killed
 * or aborted, from the records they left in shared memory. */
#include "cli.h"
#include "recover.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char recover_help[] =
    "usage: scope recover [-o FILE] [--run PID] [--dir DIR] [--keep] [--force] [--list]\n"
    "       scope recover --gather DIR [--run PID] [--keep] [--force] [--list]\n"
    "\n"
    "A run that never reached MPI_Finalize (killed, MPI_Abort, SIGTERM from the\n"
    "scheduler, exit without finalize) leaves its records in shared memory\n"
    "(/dev/shm/scope-UID-PID-*) and spill files. recover groups them into runs\n"
    "and writes each run's file where the run would have written it (in the\n"
    "current directory when that one is gone or not writable), then removes\n"
    "what it used. Calls still open when a process died are lost. Processes\n"
    "that still run are left alone; killed ones not yet reaped (zombies) are\n"
    "dead. A run that cannot be written is named and the others still are.\n"
    "\n"
    "exit status: 0 every run found written (or listed), 1 nothing found, 2 bad\n"
    "usage or some run not written.\n"
    "\n"
    "A job across nodes left its records in each node's /dev/shm: run\n"
    "'scope recover --gather DIR' on every node (DIR on a shared filesystem;\n"
    "each node's records go to DIR/HOSTNAME), then 'scope recover --dir DIR'\n"
    "once, anywhere, to write the file from all nodes.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE  the file to write (one run only: see --run)\n"
    "      --run PID      only the run whose rank 0 had this pid\n"
    "      --dir DIR      where the segments are (default /dev/shm)\n"
    "      --keep         leave the segments and spill files in place\n"
    "      --force        also take running processes; overwrite the output\n"
    "      --list         say what would be recovered, write nothing\n"
    "      --gather DIR   copy this node's records into DIR/HOSTNAME, write no file\n"
    "\n"
    "example:\n"
    "  scope recover -o crashed_run.h5 && scope summary crashed_run.h5\n";

static int recover_main(int argc, char **argv)
{
    struct scope_recover_options o = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(recover_help, stdout);
            return 0;
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && i + 1 < argc) {
            o.output = argv[++i];
        } else if (strcmp(a, "--run") == 0 && i + 1 < argc) {
            char *end;
            long pid = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || pid <= 0 || pid > INT_MAX) {
                fprintf(stderr, "scope recover: --run wants a pid, got '%s'\n", argv[i]);
                return 2;
            }
            o.run = (int)pid;
        } else if (strcmp(a, "--dir") == 0 && i + 1 < argc) {
            o.dir = argv[++i];
        } else if (strcmp(a, "--gather") == 0 && i + 1 < argc) {
            o.gather = argv[++i];
        } else if (strcmp(a, "--keep") == 0) {
            o.keep = 1;
        } else if (strcmp(a, "--force") == 0) {
            o.force = 1;
        } else if (strcmp(a, "--list") == 0) {
            o.list_only = 1;
        } else {
            fprintf(stderr, "scope recover: unexpected '%s' (see 'scope recover --help')\n", a);
            return 2;
        }
    }
    if (o.gather && o.output) {
        fprintf(stderr, "scope recover: --gather writes no file: -o goes with --dir DIR later\n");
        return 2;
    }
    char err[1024];
    int found = o.gather ? scope_recover_gather(&o, stderr, err, sizeof(err))
                         : scope_recover(&o, stderr, err, sizeof(err));
    if (found < 0) {
        fprintf(stderr, "scope recover: %s\n", err);
        return 2;
    }
    if (found == 0)
        fprintf(stderr, "scope recover: nothing to %s in %s\n", o.gather ? "gather" : "recover",
                o.dir);
    return found == 0 ? 1 : 0;
}

const cli_command cmd_recover = {
    .name = "recover",
    .summary = "write the file of a killed or aborted run from what it left in memory",
    .main = recover_main,
};
