/* write_local.h: the end of a run without MPI (write_local.c). */
#ifndef SCOPE_WRITE_LOCAL_H
#define SCOPE_WRITE_LOCAL_H

/* Writes this process alone as a 1-rank file. */
void scope_write_single_process(void);

#endif
