/* payload_wrappers.c: the point-to-point MPI functions whose calls scope
 * records with what they carried (wrapped_call.h): sends (bytes = count x
 * type size, the destination as a world rank), receives (from the
 * status), and Wait/Test, which record the receives they complete (started
 * by MPI_Irecv: request_table.h); each also in its MPI-4 large-count form
 * (MPI_Send_c ...) when the MPI library has them (large_count.h). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "large_count.h"
#include "request_table.h"
#include "wrapped_call.h"

/* A message of count x type sent to dest (MPI_PROC_NULL: none). */
static void add_send(struct wrapped_call *w, int64_t count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm)
{
    const struct scope_comm *c = scope_comm_of(comm);
    if (dest == MPI_PROC_NULL) {
        add_item(w, SCOPE_ITEM_CALL, 0, -1, tag, c);
        return;
    }
    add_item(w, SCOPE_ITEM_SENT, type_bytes(count, type), scope_comm_world_rank(c, dest), tag, c);
}

/* Each function below is described once with its count type COUNT: int,
 * or MPI_Count for its large-count form (large_count.h). */

/* ---- sends: one description per family ---- */

#define BLOCKING_SEND(F, NAME, COUNT)                                                        \
    WRAPPED(F, NAME,                                                                         \
            (const void *buf, COUNT count, MPI_Datatype type, int dest, int tag, MPI_Comm comm), \
            (buf, count, type, dest, tag, comm), add_send(&w, count, type, dest, tag, comm);)

#define NONBLOCKING_SEND(F, NAME, COUNT)                                                     \
    WRAPPED(F, NAME,                                                                         \
            (const void *buf, COUNT count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
             MPI_Request *request),                                                          \
            (buf, count, type, dest, tag, comm, request),                                    \
            add_send(&w, count, type, dest, tag, comm);)

/* ---- receives ---- */

#define RECEIVE(F, NAME, COUNT)                                                              \
    EXPORT int MPI_##NAME(void *buf, COUNT count, MPI_Datatype type, int source, int tag,    \
                          MPI_Comm comm, MPI_Status *status)                                 \
    {                                                                                        \
        struct wrapped_call w;                                                               \
        if (!call_begins(&w, SCOPE_WRAPPED_##F))                                             \
            return PMPI_##NAME(buf, count, type, source, tag, comm, status);                 \
        MPI_Status own;                                                                      \
        MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;                        \
        int rc = PMPI_##NAME(buf, count, type, source, tag, comm, st);                       \
        call_returned(&w);                                                                   \
        if (rc == MPI_SUCCESS)                                                               \
            add_received(&w, st, scope_comm_of(comm));                                       \
        call_ends(&w, __builtin_return_address(0));                                          \
        return rc;                                                                           \
    }

/* Irecv itself moves nothing: its peer and tag are the ones asked for (-1
 * for any); the Wait or Test that completes it records the message. */
#define NONBLOCKING_RECEIVE(F, NAME, COUNT)                                                  \
    EXPORT int MPI_##NAME(void *buf, COUNT count, MPI_Datatype type, int source, int tag,    \
                          MPI_Comm comm, MPI_Request *request)                               \
    {                                                                                        \
        HANDLE_CALL(F, PMPI_##NAME(buf, count, type, source, tag, comm, request),            \
                    completions_recorded(), comm,                                            \
                    add_item(&w, SCOPE_ITEM_CALL, 0, scope_comm_world_rank(c, source),       \
                             tag == MPI_ANY_TAG ? -1 : tag, c);,                             \
                    if (c && completions_recorded())                                         \
                        scope_handle_put(&scope_pending_recvs, SCOPE_HANDLE_KEY(*request),   \
                                         &(struct scope_handle_info){.comm = c});)           \
    }

/* Sendrecv and Sendrecv_replace: the message sent, then the one received
 * (from the status). */
#define SEND_RECEIVE(F, NAME, PARAMS, ARGS, SENT)                                            \
    EXPORT int MPI_##NAME PARAMS                                                             \
    {                                                                                        \
        struct wrapped_call w;                                                               \
        if (!call_begins(&w, SCOPE_WRAPPED_##F))                                             \
            return PMPI_##NAME ARGS;                                                         \
        MPI_Status own;                                                                      \
        if (status == MPI_STATUS_IGNORE)                                                     \
            status = &own;                                                                   \
        int rc = PMPI_##NAME ARGS;                                                           \
        call_returned(&w);                                                                   \
        if (rc == MPI_SUCCESS) {                                                             \
            add_send(&w, UNPAREN SENT, comm);                                                \
            add_received(&w, status, scope_comm_of(comm));                                   \
        }                                                                                    \
        call_ends(&w, __builtin_return_address(0));                                          \
        return rc;                                                                           \
    }

#define SENDRECV(F, NAME, COUNT)                                                             \
    SEND_RECEIVE(F, NAME,                                                                    \
                 (const void *sendbuf, COUNT sendcount, MPI_Datatype sendtype, int dest,     \
                  int sendtag, void *recvbuf, COUNT recvcount, MPI_Datatype recvtype,        \
                  int source, int recvtag, MPI_Comm comm, MPI_Status *status),               \
                 (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, \
                  source, recvtag, comm, status),                                            \
                 (sendcount, sendtype, dest, sendtag))
#define SENDRECV_REPLACE(F, NAME, COUNT)                                                     \
    SEND_RECEIVE(F, NAME,                                                                    \
                 (void *buf, COUNT count, MPI_Datatype type, int dest, int sendtag,          \
                  int source, int recvtag, MPI_Comm comm, MPI_Status *status),               \
                 (buf, count, type, dest, sendtag, source, recvtag, comm, status),           \
                 (count, type, dest, sendtag))

/* Every function above, of count type COUNT, its enum and name ending in
 * SUFFIX_F and SUFFIX. */
#define POINT_TO_POINT(SUFFIX_F, SUFFIX, COUNT)                                              \
    BLOCKING_SEND(SEND##SUFFIX_F, Send##SUFFIX, COUNT)                                       \
    BLOCKING_SEND(SSEND##SUFFIX_F, Ssend##SUFFIX, COUNT)                                     \
    BLOCKING_SEND(BSEND##SUFFIX_F, Bsend##SUFFIX, COUNT)                                     \
    BLOCKING_SEND(RSEND##SUFFIX_F, Rsend##SUFFIX, COUNT)                                     \
    NONBLOCKING_SEND(ISEND##SUFFIX_F, Isend##SUFFIX, COUNT)                                  \
    NONBLOCKING_SEND(ISSEND##SUFFIX_F, Issend##SUFFIX, COUNT)                                \
    NONBLOCKING_SEND(IBSEND##SUFFIX_F, Ibsend##SUFFIX, COUNT)                                \
    NONBLOCKING_SEND(IRSEND##SUFFIX_F, Irsend##SUFFIX, COUNT)                                \
    RECEIVE(RECV##SUFFIX_F, Recv##SUFFIX, COUNT)                                             \
    NONBLOCKING_RECEIVE(IRECV##SUFFIX_F, Irecv##SUFFIX, COUNT)                               \
    SENDRECV(SENDRECV##SUFFIX_F, Sendrecv##SUFFIX, COUNT)                                    \
    SENDRECV_REPLACE(SENDRECV_REPLACE##SUFFIX_F, Sendrecv_replace##SUFFIX, COUNT)

POINT_TO_POINT(, , int)
#ifdef SCOPE_MPI_LARGE_COUNT
POINT_TO_POINT(_C, _c, MPI_Count)
#endif

/* ---- completions: Wait and Test, of one, any, all or some requests ----
 * The requests are copied before the call (completed ones become
 * MPI_REQUEST_NULL), and statuses the caller ignores are kept here, but
 * only while a receive this thread started is pending. */

struct completion {
    int following;                 /* receives are pending: look at them */
    int n;
    MPI_Request *before;
    MPI_Status *statuses;          /* the i-th completed request's is statuses[i] */
    int statuses_allocated;
    MPI_Request small_requests[SMALL];
    MPI_Status small_statuses[SMALL];
};

/* Prepares the completion of requests[0..n) whose statuses the caller
 * wants in `statuses` (one status when `single`; either may be ignored);
 * returns the statuses to give MPI. */
static MPI_Status *completion_begins(struct completion *k, int n, const MPI_Request *requests,
                                     MPI_Status *statuses, int single, MPI_Status *own)
{
    k->following = 0;
    k->statuses_allocated = 0;
    k->statuses = statuses;
    if (single && statuses == MPI_STATUS_IGNORE)
        k->statuses = own;
    if (scope_handle_count(&scope_pending_recvs) == 0 || n <= 0)
        return k->statuses;
    k->n = n;
    k->before = n <= SMALL ? k->small_requests : malloc((size_t)n * sizeof *k->before);
    if (!single && statuses == MPI_STATUSES_IGNORE) {
        k->statuses_allocated = n > SMALL;
        k->statuses = n <= SMALL ? k->small_statuses : malloc((size_t)n * sizeof *k->statuses);
    }
    if (!k->before || !k->statuses) {
        if (k->before != k->small_requests)
            free(k->before);
        if (k->statuses_allocated)
            free(k->statuses);
        k->statuses_allocated = 0;
        k->statuses = single && statuses == MPI_STATUS_IGNORE ? own : statuses;
        return k->statuses;
    }
    memcpy(k->before, requests, (size_t)n * sizeof *k->before);
    k->following = 1;
    return k->statuses;
}

/* The `count` requests that completed, request index[i] (index NULL: i)
 * with status statuses[i]: the receives among them recorded in w. */
static void completion_ends(struct wrapped_call *w, struct completion *k, int recorded,
                            const int *index, int count)
{
    if (!k->following)
        return;
    for (int i = 0; i < count; i++) {
        int r = index ? index[i] : i;
        struct scope_handle_info recv;
        if (r >= 0 && r < k->n &&
            scope_handle_get(&scope_pending_recvs, SCOPE_HANDLE_KEY(k->before[r]), &recv, 1) &&
            recorded)
            add_received(w, &k->statuses[i], recv.comm);
    }
    if (k->before != k->small_requests)
        free(k->before);
    if (k->statuses_allocated)
        free(k->statuses);
}

/* One description per completion function: its parameters and arguments,
 * its requests (n, array), its statuses parameter (one status when
 * SINGLE), the indices of the completed ones (NULL: the first DONE) and
 * how many completed once it returned MPI_SUCCESS. */
#define COMPLETION(F, NAME, PARAMS, ARGS, NREQ, REQS, STATUS, SINGLE, INDEX, DONE)          \
    EXPORT int MPI_##NAME PARAMS                                                             \
    {                                                                                        \
        struct wrapped_call w;                                                               \
        int recorded = call_begins(&w, SCOPE_WRAPPED_##F);                                   \
        if (!recorded && scope_handle_count(&scope_pending_recvs) == 0)                     \
            return PMPI_##NAME ARGS;                                                         \
        MPI_Status own;                                                                      \
        struct completion k;                                                                 \
        STATUS = completion_begins(&k, NREQ, REQS, STATUS, SINGLE, &own);                    \
        int rc = PMPI_##NAME ARGS;                                                           \
        if (recorded)                                                                        \
            call_returned(&w);                                                               \
        completion_ends(&w, &k, recorded, INDEX, rc == MPI_SUCCESS ? (DONE) : 0);            \
        if (recorded)                                                                        \
            call_ends(&w, __builtin_return_address(0));                                      \
        return rc;                                                                           \
    }

COMPLETION(WAIT, Wait, (MPI_Request *request, MPI_Status *status), (request, status),
           1, request, status, 1, NULL, 1)
COMPLETION(TEST, Test, (MPI_Request *request, int *flag, MPI_Status *status),
           (request, flag, status), 1, request, status, 1, NULL, *flag)
COMPLETION(WAITANY, Waitany, (int count, MPI_Request requests[], int *index, MPI_Status *status),
           (count, requests, index, status), count, requests, status, 1, index,
           *index != MPI_UNDEFINED)
COMPLETION(TESTANY, Testany,
           (int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status),
           (count, requests, index, flag, status), count, requests, status, 1, index,
           *flag && *index != MPI_UNDEFINED)
COMPLETION(WAITALL, Waitall, (int count, MPI_Request requests[], MPI_Status statuses[]),
           (count, requests, statuses), count, requests, statuses, 0, NULL, count)
COMPLETION(TESTALL, Testall,
           (int count, MPI_Request requests[], int *flag, MPI_Status statuses[]),
           (count, requests, flag, statuses), count, requests, statuses, 0, NULL,
           *flag ? count : 0)
COMPLETION(WAITSOME, Waitsome,
           (int incount, MPI_Request requests[], int *outcount, int indices[],
            MPI_Status statuses[]),
           (incount, requests, outcount, indices, statuses), incount, requests, statuses, 0,
           indices, *outcount != MPI_UNDEFINED ? *outcount : 0)
COMPLETION(TESTSOME, Testsome,
           (int incount, MPI_Request requests[], int *outcount, int indices[],
            MPI_Status statuses[]),
           (incount, requests, outcount, indices, statuses), incount, requests, statuses, 0,
           indices, *outcount != MPI_UNDEFINED ? *outcount : 0)
