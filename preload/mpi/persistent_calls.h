/* persistent_calls.h: what persistent requests and matched probes
 * remember by handle (request_table.h) and record, for the C wrappers
 * (persistent_wrappers.c) and the Fortran ones (fortran_persistent.c)
 * alike: a persistent send's message, kept for every MPI_Start of it; a
 * persistent receive, pending once started; the message a probe found
 * (source and tag from the status, 0 bytes) and the communicator of a
 * matched one, for the MPI_Mrecv or MPI_Imrecv that takes it. */
#ifndef SCOPE_PERSISTENT_CALLS_H
#define SCOPE_PERSISTENT_CALLS_H

#include "request_table.h"
#include "wrapped_call.h"

/* Scope's own MPI calls, not recorded (wrapped_call.h): around working out
 * what a handle stands for when the call itself is not recorded. */
static inline void own_calls_begin(int recorded)
{
    if (!recorded)
        scope_tls.busy++;
}

static inline void own_calls_end(int recorded)
{
    if (!recorded)
        scope_tls.busy--;
}

/* A persistent send of count x type to dest, remembered by its request. */
static inline void remember_send(MPI_Request request, int64_t count, MPI_Datatype type, int dest,
                                 int tag, const struct scope_comm *c)
{
    int none = dest == MPI_PROC_NULL;
    struct scope_handle_info send = {.comm = c, .send = 1,
                                     .bytes = none ? 0 : type_bytes(count, type),
                                     .peer = scope_comm_world_rank(c, dest), .tag = tag};
    scope_handle_put(&scope_persistent_requests, SCOPE_HANDLE_KEY(request), &send);
}

/* A persistent receive from source on c, remembered by its request (the
 * peer asked for, -1: any, is what each MPI_Start of it records). */
static inline void remember_recv(MPI_Request request, int source, const struct scope_comm *c)
{
    scope_handle_put(&scope_persistent_requests, SCOPE_HANDLE_KEY(request),
                     &(struct scope_handle_info){.comm = c,
                                                 .peer = scope_comm_world_rank(c, source)});
}

/* What an init call records: the peer and tag asked for, nothing moved. */
static inline void add_init(struct wrapped_call *w, int peer, int tag, const struct scope_comm *c)
{
    add_item(w, SCOPE_ITEM_CALL, 0, scope_comm_world_rank(c, peer), tag == MPI_ANY_TAG ? -1 : tag,
             c);
}

/* Persistent request r started: its send recorded in w, or its receive
 * now pending. */
static inline void started(struct wrapped_call *w, int recorded, MPI_Request r)
{
    struct scope_handle_info info;
    if (!scope_handle_get(&scope_persistent_requests, SCOPE_HANDLE_KEY(r), &info, 0))
        return;
    if (!info.send)
        scope_handle_put(&scope_pending_recvs, SCOPE_HANDLE_KEY(r), &info);
    if (!recorded)
        return;
    if (info.send && info.peer >= 0)
        add_item(w, SCOPE_ITEM_SENT, info.bytes, info.peer, info.tag, info.comm);
    else
        add_item(w, SCOPE_ITEM_CALL, 0, info.send ? -1 : info.peer, info.send ? info.tag : -1,
                 info.comm);
}

/* A request freed: forgotten. */
static inline void request_freed(MPI_Request request)
{
    struct scope_handle_info forgotten;
    scope_handle_get(&scope_persistent_requests, SCOPE_HANDLE_KEY(request), &forgotten, 1);
    scope_handle_get(&scope_pending_recvs, SCOPE_HANDLE_KEY(request), &forgotten, 1);
}

/* The message a probe found (flag set), on comm; its handle remembered for
 * the MPI_Mrecv or MPI_Imrecv that takes it (message NULL: none). */
static inline void probed(struct wrapped_call *w, int recorded, const MPI_Status *st,
                          MPI_Comm comm, const MPI_Message *message)
{
    const struct scope_comm *c = scope_comm_of(comm);
    if (message && c && *message != MPI_MESSAGE_NO_PROC)
        scope_handle_put(&scope_matched_messages, SCOPE_HANDLE_KEY(*message),
                         &(struct scope_handle_info){.comm = c});
    if (recorded)
        add_item(w, SCOPE_ITEM_CALL, 0, scope_comm_world_rank(c, st->MPI_SOURCE),
                 st->MPI_SOURCE == MPI_PROC_NULL ? -1 : st->MPI_TAG, c);
}

/* The communicator of a matched message, forgotten (NULL: not known). */
static inline const struct scope_comm *matched_comm(MPI_Message message)
{
    struct scope_handle_info info;
    return scope_handle_get(&scope_matched_messages, SCOPE_HANDLE_KEY(message), &info, 1)
               ? info.comm : NULL;
}

/* An MPI_Imrecv of a message matched on c: its receive now pending. */
static inline void imrecv_started(struct wrapped_call *w, int recorded, MPI_Request request,
                                  const struct scope_comm *c)
{
    if (!c)
        return;
    scope_handle_put(&scope_pending_recvs, SCOPE_HANDLE_KEY(request),
                     &(struct scope_handle_info){.comm = c});
    if (recorded)
        add_item(w, SCOPE_ITEM_CALL, 0, -1, -1, c);
}

#endif
