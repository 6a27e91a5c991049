/* recv_requests.h: the receives a thread started (MPI_Irecv) and has not
 * seen complete, by request handle, each with its communicator: the
 * Wait or Test that completes one records what it received from the
 * status. Per thread (a request completed on another thread than the one
 * that started it is not counted). */
#ifndef SCOPE_RECV_REQUESTS_H
#define SCOPE_RECV_REQUESTS_H

#include <mpi.h>

#include "comm_table.h"

/* Remembers receive request r on c (out of memory: forgotten). */
void scope_recv_started(MPI_Request r, const struct scope_comm *c);
/* The communicator of receive request r, which completed (forgotten now);
 * NULL when r is not one (a send, or not seen). */
const struct scope_comm *scope_recv_completed(MPI_Request r);
/* Whether any receive of this thread is pending (most Waits complete
 * only sends when none is). */
int scope_recvs_pending(void);

#endif
