/* What the subcommands that read MPI payload (comm, sizes, plot --kind
 * comm) share: the one line for a file whose run recorded none. */
#include "cli.h"

#include <stdio.h>

int cli_no_payload(scope_error *err)
{
    snprintf(err->message, sizeof err->message,
             "the run recorded no MPI payload (bytes, peers); profile it with an MPI config, "
             "e.g. 'scope run -c configs/mpi-all.conf -- ./app'");
    return -1;
}
