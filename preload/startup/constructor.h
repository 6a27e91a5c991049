/* constructor.h: what libscope's start offers the rest (constructor.c). */
#ifndef SCOPE_CONSTRUCTOR_H
#define SCOPE_CONSTRUCTOR_H

/* Starts recording once hooks are installed (at start, or after the first
 * dlopen that brought hooked functions); later calls publish the hooks
 * added since for `scope recover`. */
void scope_enable_recording(void);

/* Whether this process records and has not written its file: not a
 * forked child, nor a vfork child (it shares its parent's memory: told
 * apart by its pid). */
int scope_process_recording(void);

/* The process is leaving (exit, _exit without exit handlers, exec): if it
 * records, without MPI its file is written; an MPI rank that did not reach
 * MPI_Finalize keeps its records for `scope recover`. */
void scope_process_leaving(void);

#endif
