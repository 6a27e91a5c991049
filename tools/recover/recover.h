/* recover.h: rebuilds the HDF5 file of runs that never wrote one (killed,
 * aborted, or ended without MPI_Finalize) from what their processes left
 * in shared memory: meta segments, per-thread buffers and spill files. */
#ifndef SCOPE_RECOVER_H
#define SCOPE_RECOVER_H

#include <stddef.h>
#include <stdio.h>

struct scope_recover_options {
    const char *dir;          /* where the segments are; NULL: where processes leave them */
    const char *output;       /* file name, NULL: the run's configured output */
    int run;                  /* only the run whose rank 0 had this pid (0: all) */
    int keep;                 /* leave the segments in place after writing */
    int force;                /* take processes that still run; overwrite */
    int list_only;            /* say what would be recovered, write nothing */
    const char *gather;       /* copy this node's records into gather/HOSTNAME instead */
};

/* Recovers every run found, each on its own: one that fails is said on out
 * and the others still go. Returns the number of runs written (0 when none
 * were found) or -1 with a message in err (also when some failed); progress
 * lines go to out. */
int scope_recover(const struct scope_recover_options *o, FILE *out, char *err, size_t errlen);

/* For a job across nodes, run on each node: copies the records of this
 * node's processes (meta segments closed on this node's clock, buffer
 * segments, spill files) into o->gather/HOSTNAME, then removes them unless
 * o->keep. `scope recover --dir o->gather` then reads every node's
 * directory. Returns the number of processes copied or -1 with err. */
int scope_recover_gather(const struct scope_recover_options *o, FILE *out, char *err,
                         size_t errlen);

#endif
