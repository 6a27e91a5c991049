/* persistent_calls.h: what persistent requests and matched probes
 * remember by handle (request_table.h) and record, for the C wrappers
 * (persistent_wrappers.c) and the Fortran ones (fortran_persistent.c)
 * alike: a persistent send's message, kept for every MPI_Start of it; a
 * persistent receive, pending once started; a persistent collective's
 * bytes, root and communicator (and, its init recorded, a v or w form's
 * bytes per peer), kept for every start of it; the message a probe found
 * (source and tag from the status, 0 bytes) and the communicator of a
 * matched one, for the MPI_Mrecv or MPI_Imrecv that takes it. */
#ifndef SCOPE_PERSISTENT_CALLS_H
#define SCOPE_PERSISTENT_CALLS_H

#include "collective_peers.h"
#include "request_table.h"

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

/* A persistent collective made by an init on c (its wrapper's sink s:
 * the init's hook, and what it keeps per peer when the init is recorded),
 * remembered by its request: what one start of it moves, `bytes` (as its
 * blocking form's call records them), to or from rank `root` of c (-1:
 * none). */
static inline void remember_collective(MPI_Request request, int64_t bytes, int root,
                                       const struct scope_comm *c, const struct peer_sink *s)
{
    struct scope_handle_info coll = {.comm = c, .collective = 1, .bytes = bytes,
                                     .peer = scope_comm_world_rank(c, root), .tag = -1,
                                     .hook = s->hook, .n_shares = (uint32_t)s->n,
                                     .shares = s->kept};
    scope_handle_put(&scope_persistent_requests, SCOPE_HANDLE_KEY(request), &coll);
}

/* A persistent collective started: its bytes recorded in w as its
 * blocking form's call records them, and its bytes per peer added to the
 * peer totals under its init's hook (a collective's region: never part of
 * the point-to-point matrix), whether or not the start itself is recorded. */
static inline void collective_started(struct wrapped_call *w, int recorded,
                                      const struct scope_handle_info *info)
{
    for (uint32_t i = 0; i < info->n_shares; i++)
        scope_peer_totals_add(info->hook, info->shares[i].peer,
                              (enum scope_peer_direction)info->shares[i].direction,
                              info->shares[i].bytes);
    if (recorded)
        add_item(w, SCOPE_ITEM_CALL, info->bytes, info->peer, -1, info->comm);
}

/* Persistent request r started: its send or collective recorded in w, or
 * its receive now pending. */
static inline void started(struct wrapped_call *w, int recorded, MPI_Request r)
{
    struct scope_handle_info info;
    if (!scope_handle_get(&scope_persistent_requests, SCOPE_HANDLE_KEY(r), &info, 0))
        return;
    if (info.collective) {
        collective_started(w, recorded, &info);
        return;
    }
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
    if (scope_handle_get(&scope_persistent_requests, SCOPE_HANDLE_KEY(request), &forgotten, 1))
        free(forgotten.shares);
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
