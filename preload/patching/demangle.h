/* demangle.h: C++ symbol names as people write them, through the C++
 * runtime's own demangler (__cxa_demangle) when the process has one. */
#ifndef SCOPE_DEMANGLE_H
#define SCOPE_DEMANGLE_H

#include <stddef.h>

/* "Solver::run(long)" for "_ZN6Solver3runEl"; NULL when the name is not a
 * C++ one or no demangler is loaded. The caller frees the result. */
char *scope_demangle(const char *mangled);

/* Lets scope_demangle load libstdc++ itself (the CLI does; the preloaded
 * library only uses one the program already has). */
void scope_demangle_may_load(void);

/* Length of the name without its parameter list and qualifiers:
 * "Solver::run" of "Solver::run(long) const". */
size_t scope_demangled_base_length(const char *demangled);

#endif
