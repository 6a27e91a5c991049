/* output_path.h: where the HDF5 file goes: SCOPE_OUTPUT, else the
 * config's [output] file, with %p %h %j %t expanded. */
#ifndef SCOPE_OUTPUT_PATH_H
#define SCOPE_OUTPUT_PATH_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* pattern: the configured name; pid and start: rank 0's. */
void scope_expand_output_path(const char *pattern, pid_t pid, time_t start, char *out,
                              size_t outlen);

#endif
