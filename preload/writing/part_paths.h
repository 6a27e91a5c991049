/* part_paths.h: where a run written on several nodes puts its parts, one
 * home for the layout's names: FILE.d/nodeN.h5 beside the run's FILE (N =
 * 1, 2, ... the node's order; node 0's ranks are in FILE itself). The live
 * library (node writers) and `scope recover` both name parts here. */
#ifndef SCOPE_PART_PATHS_H
#define SCOPE_PART_PATHS_H

#include <stddef.h>

/* The part of node `node` ("FILE.d/nodeN.h5"), and the same relative to the
 * file's directory, as the file links to it. */
void scope_part_paths(const char *file, int node, char *part, char *link, size_t len);

/* Creates the directory a part goes in (FILE.d) if it is not there. 0, or
 * -1 with why in err. */
int scope_part_dir_make(const char *part, char *err, size_t errlen);

#endif
