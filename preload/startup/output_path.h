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

/* The pattern for a program started by a profiled process: `pattern` with
 * ".%p" before the file name's extension (profile.h5 -> profile.%p.h5), so
 * that it never writes over its parent's file. Returns a malloc'd string,
 * or NULL when out of memory. */
char *scope_child_output_pattern(const char *pattern);

#endif
