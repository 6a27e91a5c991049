/* What the subcommands that read MPI payload (comm, sizes, plot --kind
 * comm) share: the one line for a file whose run recorded none (a profile
 * keeps its messages per peer only, for the matrix), and their filter. */
#include "cli.h"

#include <stdio.h>

int cli_no_payload(const scope_file *f, scope_error *err)
{
    if (scope_is_profile(f))
        snprintf(err->message, sizeof err->message,
                 "a profile (mode = profile): it keeps MPI messages per peer only (scope comm), "
                 "no payload per call; record with mode = trace and an MPI config");
    else
        snprintf(err->message, sizeof err->message,
                 "the run recorded no MPI payload (bytes, peers); profile it with an MPI "
                 "config, e.g. 'scope run -c configs/mpi-all.conf -- ./app'");
    return -1;
}

int cli_payload_filter(const scope_file *f, const cli_options *opt, scope_filter *flt,
                       scope_error *err)
{
    if (!scope_has_payload(f))
        return cli_no_payload(f, err);
    return cli_filter(f, opt, flt, err);
}

bool cli_has_matrix(const scope_file *f)
{
    return scope_has_payload(f) || scope_has_peer_totals(f);
}

int cli_matrix_filter(const scope_file *f, const cli_options *opt, scope_filter *flt,
                      scope_error *err)
{
    if (!cli_has_matrix(f))
        return cli_no_payload(f, err);
    return cli_filter(f, opt, flt, err);
}
