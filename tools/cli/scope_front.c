/* scope_front.c: the `scope` executable. `scope run` is done here, with
 * nothing loaded that it does not need (no HDF5, no reader: their loading
 * came before every profiled program's start); every other command is
 * scope-tools' (scope.c), exec'd from beside this executable with the
 * same arguments. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], cmd_run.name) == 0)
        return cmd_run.main(argc - 1, argv + 1);
    char tools[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", tools, sizeof tools - 1);
    if (n < 0) {
        fprintf(stderr, "scope: cannot find where it is installed: %s\n", strerror(errno));
        return 2;
    }
    tools[n] = '\0';
    char *slash = strrchr(tools, '/');
    size_t dir = slash ? (size_t)(slash - tools) + 1 : 0;
    if (dir + sizeof "scope-tools" > sizeof tools) {
        fprintf(stderr, "scope: its path is too long\n");
        return 2;
    }
    memcpy(tools + dir, "scope-tools", sizeof "scope-tools");
    execv(tools, argv);
    fprintf(stderr, "scope: cannot run %s: %s\n", tools, strerror(errno));
    return 2;
}
