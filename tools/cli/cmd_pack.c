/* cmd_pack.c: `scope pack`: one self-contained file from a run written on
 * several nodes. */
#include "cli.h"
#include "pack.h"

#include <string.h>

static const char pack_help[] =
    "usage: scope pack FILE -o OUT\n"
    "\n"
    "A run on several nodes is written as FILE, holding /metadata and a link\n"
    "for every rank, and one file per node in FILE.d/ holding its ranks (each\n"
    "node writes its own). HDF5, h5py and scope read FILE as one file while\n"
    "FILE.d/ sits beside it. pack copies everything into OUT, one file that\n"
    "can travel alone. A file that links nothing is copied as it is.\n"
    "\n"
    "example:\n"
    "  scope pack profiling_data.h5 -o run.h5 && scope summary run.h5\n";

static int pack_main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(pack_help, stdout);
            return 0;
        } else if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) &&
                   i + 1 < argc) {
            out = argv[++i];
        } else if (argv[i][0] != '-' && !in) {
            in = argv[i];
        } else {
            fprintf(stderr, "scope pack: unexpected '%s' (see 'scope pack --help')\n", argv[i]);
            return 2;
        }
    }
    if (!in || !out) {
        fprintf(stderr, "scope pack: needs FILE and -o OUT (see 'scope pack --help')\n");
        return 2;
    }
    char err[1024];
    size_t linked = 0;
    if (scope_pack(in, out, &linked, err, sizeof err) != 0) {
        fprintf(stderr, "scope pack: %s\n", err);
        return 1;
    }
    fprintf(stderr, "scope pack: wrote %s (%zu rank%s joined from node files)\n", out, linked,
            linked == 1 ? "" : "s");
    return 0;
}

const cli_command cmd_pack = {
    .name = "pack",
    .summary = "join a run written on several nodes (FILE + FILE.d/) into one file",
    .main = pack_main,
};
