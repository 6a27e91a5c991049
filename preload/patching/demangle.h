/* demangle.h: C++ symbol names as people write them, through the C++
 * runtime's own demangler (__cxa_demangle): the process's, or one loaded
 * where the program does not see it. */
#ifndef SCOPE_DEMANGLE_H
#define SCOPE_DEMANGLE_H

#include <stddef.h>

/* "Solver::run(long)" for "_ZN6Solver3runEl"; NULL when the name is not a
 * C++ one or no libstdc++ is installed. The caller frees the result. */
char *scope_demangle(const char *mangled);

/* Lets scope_demangle load libstdc++ into the process itself when it has
 * none (the CLI does). The preloaded library, when the program has none (a
 * C++ program that uses nothing of its library, a C program whose C++
 * plugin is not loaded yet), loads one into a namespace of its own, where
 * the program never meets it. */
void scope_demangle_may_load(void);

/* Length of the name without its parameter list and qualifiers:
 * "Solver::run" of "Solver::run(long) const". */
size_t scope_demangled_base_length(const char *demangled);

#endif
