/* constructor.h: what libscope's start offers the rest (constructor.c). */
#ifndef SCOPE_CONSTRUCTOR_H
#define SCOPE_CONSTRUCTOR_H

/* Starts recording once hooks are installed (at start, or after the first
 * dlopen that brought hooked functions); later calls publish the hooks
 * added since for `scope recover`. */
void scope_enable_recording(void);

#endif
