/* libscope_locate.h: finds the libscope build that matches a program's MPI
 * (for `scope run` and `scope lib`). */
#ifndef SCOPE_LIBSCOPE_LOCATE_H
#define SCOPE_LIBSCOPE_LOCATE_H

#include <stddef.h>

/* "openmpi" or "mpich" when the program (or a library it loads) links that
 * MPI; NULL when it links none or cannot be inspected. */
const char *scope_detect_mpi(const char *program);

/* Path of libscope-<flavour>.so; flavour NULL takes the first one found.
 * Looks in $SCOPE_LIBDIR, the build tree next to this executable, then the
 * installed library directory. Returns 0, or -1 with a message in err. */
int scope_locate_libscope(const char *flavour, char *out, size_t outlen, char *err,
                          size_t errlen);

#endif
