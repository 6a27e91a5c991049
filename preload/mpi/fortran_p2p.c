/* fortran_p2p.c: the Fortran entry points of the point-to-point functions
 * scope records with their payload (fortran_call.h): the sends and their
 * modes, MPI_Recv, MPI_Irecv, MPI_Sendrecv(_replace), and Wait/Test of
 * one, any, all or some requests, which record the receives they complete
 * as the C wrappers do (request_table.h: a Fortran request is known by its
 * C handle, MPI_Request_f2c). Where the caller ignores a status
 * (MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE) a receive's status is kept
 * here for the binding to fill. The receives a completion may finish are
 * taken out of the table before the binding runs (a binding that reaches
 * the C wrapper, MPICH's, would consume them there unrecorded) and the
 * ones still pending put back after it. */
#include "fortran_call.h"
#include "request_table.h"

/* ---- sends, receives, Sendrecv ---- */

enum p2p_kind { SEND, RECV, IRECV, SENDRECV };

/* Argument positions (1-based, 0: none); `status` is Irecv's request. */
struct p2p_desc {
    enum scope_wrapped_function f;
    enum p2p_kind kind;
    int count, type, dest, sendtag, source, recvtag, comm, status, ierr;
};

static void add_sent(struct wrapped_call *w, const struct p2p_desc *d, void *const *a,
                     const struct scope_comm *c)
{
    int dest = fint(a, d->dest), tag = fint(a, d->sendtag);
    if (dest == MPI_PROC_NULL)
        add_item(w, SCOPE_ITEM_CALL, 0, -1, tag, c);
    else
        add_item(w, SCOPE_ITEM_SENT, fortran_bytes(a, d->count, d->type),
                 scope_comm_world_rank(c, dest), tag, c);
}

static void add_fortran_received(struct wrapped_call *w, const MPI_Fint *status,
                                 const struct scope_comm *c)
{
    MPI_Status st;
    if (PMPI_Status_f2c(status, &st) == MPI_SUCCESS)
        add_received(w, &st, c);
}

/* Irecv: its receive pending for the completion; the call itself moves
 * nothing (peer and tag the ones asked for). */
static void add_irecv(struct wrapped_call *w, int recorded, const struct p2p_desc *d,
                      void *const *a, const struct scope_comm *c)
{
    if (!c)
        return;
    MPI_Request request = PMPI_Request_f2c(fint(a, d->status));
    if (completions_recorded())
        scope_handle_put(&scope_pending_recvs, SCOPE_HANDLE_KEY(request),
                         &(struct scope_handle_info){.comm = c});
    int tag = fint(a, d->recvtag);
    if (recorded)
        add_item(w, SCOPE_ITEM_CALL, 0, scope_comm_world_rank(c, fint(a, d->source)),
                 tag == MPI_ANY_TAG ? -1 : tag, c);
}

static void p2p_call(const struct p2p_desc *d, fortran_fn real, void *caller, void **a)
{
    struct wrapped_call w;
    int recorded = fortran_call_begins(&w, d->f);
    if (!recorded && !(d->kind == IRECV && completions_recorded())) {
        fortran_forward(real, a);
        return;
    }
    MPI_Fint own[FORTRAN_STATUS_INTS];
    if (d->kind != SEND && d->kind != IRECV && scope_fortran_status_ignored(fortran_arg(a, d->status), 0))
        a[d->status - 1] = own;
    fortran_forward(real, a);
    if (recorded)
        call_returned(&w);
    if (fortran_succeeded(a, d->ierr)) {
        const struct scope_comm *c = fortran_comm(a, d->comm);
        if (d->kind == SEND || d->kind == SENDRECV)
            add_sent(&w, d, a, c);
        if (d->kind == RECV || d->kind == SENDRECV)
            add_fortran_received(&w, fortran_arg(a, d->status), c);
        if (d->kind == IRECV)
            add_irecv(&w, recorded, d, a, c);
    }
    if (recorded)
        call_ends(&w, caller);
}

#define P2P(lower, upper, ...)                                                                \
    FORTRAN_COUNTS(lower, upper, p2p_call, struct p2p_desc, __VA_ARGS__)
/* A send's positions (Sendrecv's send part too); its kind and the rest. */
#define SENDS(F, KIND, ...) .f = SCOPE_WRAPPED_##F, .kind = KIND, .count = 2, .type = 3,        \
                            .dest = 4, .sendtag = 5, __VA_ARGS__

/* (buf, count, datatype, dest, tag, comm, [request,] ierror) */
P2P(mpi_send, MPI_SEND, SENDS(SEND, SEND, .comm = 6, .ierr = 7))
P2P(mpi_ssend, MPI_SSEND, SENDS(SSEND, SEND, .comm = 6, .ierr = 7))
P2P(mpi_bsend, MPI_BSEND, SENDS(BSEND, SEND, .comm = 6, .ierr = 7))
P2P(mpi_rsend, MPI_RSEND, SENDS(RSEND, SEND, .comm = 6, .ierr = 7))
P2P(mpi_isend, MPI_ISEND, SENDS(ISEND, SEND, .comm = 6, .ierr = 8))
P2P(mpi_issend, MPI_ISSEND, SENDS(ISSEND, SEND, .comm = 6, .ierr = 8))
P2P(mpi_ibsend, MPI_IBSEND, SENDS(IBSEND, SEND, .comm = 6, .ierr = 8))
P2P(mpi_irsend, MPI_IRSEND, SENDS(IRSEND, SEND, .comm = 6, .ierr = 8))
/* (buf, count, datatype, source, tag, comm, status or request, ierror) */
P2P(mpi_recv, MPI_RECV, .f = SCOPE_WRAPPED_RECV, .kind = RECV, .source = 4, .recvtag = 5,
    .comm = 6, .status = 7, .ierr = 8)
P2P(mpi_irecv, MPI_IRECV, .f = SCOPE_WRAPPED_IRECV, .kind = IRECV, .source = 4, .recvtag = 5,
    .comm = 6, .status = 7, .ierr = 8)
/* (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
 *  comm, status, ierror) */
P2P(mpi_sendrecv, MPI_SENDRECV, SENDS(SENDRECV, SENDRECV, .source = 9, .recvtag = 10,
                                      .comm = 11, .status = 12, .ierr = 13))
/* (buf, count, datatype, dest, sendtag, source, recvtag, comm, status, ierror) */
P2P(mpi_sendrecv_replace, MPI_SENDRECV_REPLACE,
    SENDS(SENDRECV_REPLACE, SENDRECV, .source = 6, .recvtag = 7, .comm = 8, .status = 9,
          .ierr = 10))

/* ---- completions: Wait and Test, of one, any, all or some requests ---- */

enum completion_kind { ONE, ANY, ALL, SOME };

/* Argument positions (1-based, 0: none; no count: one request). */
struct completion_desc {
    enum scope_wrapped_function f;
    enum completion_kind kind;
    int count, requests, index, flag, statuses, ierr;
};

/* A request given to the completion, and the receive it stands for. */
struct followed {
    uint64_t key;
    int pending;
    struct scope_handle_info info;
};

/* How many requests completed, once the call succeeded. */
static int completed(const struct completion_desc *d, void *const *a, int n)
{
    if (d->flag && !fint(a, d->flag))
        return 0;
    switch (d->kind) {
    case ONE:
        return 1;
    case ANY:
        return fint(a, d->index) != MPI_UNDEFINED;
    case ALL:
        return n;
    case SOME:
        return fint(a, d->index) != MPI_UNDEFINED ? fint(a, d->index) : 0;
    }
    return 0;
}

/* The request the i-th completion finished (Fortran indices count from 1). */
static int completed_request(const struct completion_desc *d, void *const *a, int i)
{
    if (d->kind == ANY)
        return fint(a, d->index) - 1;
    if (d->kind == SOME)
        return ((const MPI_Fint *)fortran_arg(a, d->index + 1))[i] - 1;
    return i;
}

/* Takes the pending receives among the n requests out of the table:
 * how many there were. */
static int take_pending(struct followed *r, const MPI_Fint *requests, int n)
{
    int found = 0;
    for (int i = 0; i < n; i++) {
        MPI_Request request = PMPI_Request_f2c(requests[i]);
        r[i].key = SCOPE_HANDLE_KEY(request);
        r[i].pending = scope_handle_get(&scope_pending_recvs, r[i].key, &r[i].info, 1);
        found += r[i].pending;
    }
    return found;
}

static void completion_call(const struct completion_desc *d, fortran_fn real, void *caller,
                            void **a)
{
    struct wrapped_call w;
    int recorded = call_begins(&w, d->f);
    int n = d->count ? fint(a, d->count) : 1;
    struct followed small[SMALL], *r = small;
    MPI_Fint own_small[SMALL * FORTRAN_STATUS_INTS], *own = own_small;
    if (scope_handle_count(&scope_pending_recvs) == 0 || n <= 0 ||
        (n > SMALL && !(r = malloc((size_t)n * (sizeof *r + sizeof own_small / SMALL)))))
        n = 0;
    else if (n > SMALL)
        own = (MPI_Fint *)(r + n);
    if (n && !take_pending(r, fortran_arg(a, d->requests), n))
        n = 0;
    if (!recorded && !n) {
        fortran_forward(real, a);
        if (r != small)
            free(r);
        return;
    }
    const void *statuses = fortran_arg(a, d->statuses);
    if (n && scope_fortran_status_ignored(statuses, d->count && d->kind != ANY))
        a[d->statuses - 1] = own;
    fortran_forward(real, a);
    if (recorded)
        call_returned(&w);
    const MPI_Fint *status = fortran_arg(a, d->statuses);
    int done = n && fortran_succeeded(a, d->ierr) ? completed(d, a, n) : 0;
    for (int i = 0; i < done; i++) {
        int k = completed_request(d, a, i);
        if (k < 0 || k >= n || !r[k].pending)
            continue;
        r[k].pending = 0;
        if (recorded)
            add_fortran_received(&w, status + (d->kind == ANY ? 0 : i) * FORTRAN_STATUS_INTS,
                                 r[k].info.comm);
    }
    for (int k = 0; k < n; k++)
        if (r[k].pending)
            scope_handle_put(&scope_pending_recvs, r[k].key, &r[k].info);
    if (r != small)
        free(r);
    if (recorded)
        call_ends(&w, caller);
}

#define COMPLETION(lower, upper, ...)                                                         \
    FORTRAN(lower, upper, completion_call, struct completion_desc, __VA_ARGS__)

/* (request, [flag,] status, ierror) */
COMPLETION(mpi_wait, MPI_WAIT, .f = SCOPE_WRAPPED_WAIT, .kind = ONE, .requests = 1,
           .statuses = 2, .ierr = 3)
COMPLETION(mpi_test, MPI_TEST, .f = SCOPE_WRAPPED_TEST, .kind = ONE, .requests = 1, .flag = 2,
           .statuses = 3, .ierr = 4)
/* (count, requests, index, [flag,] status, ierror) */
COMPLETION(mpi_waitany, MPI_WAITANY, .f = SCOPE_WRAPPED_WAITANY, .kind = ANY, .count = 1,
           .requests = 2, .index = 3, .statuses = 4, .ierr = 5)
COMPLETION(mpi_testany, MPI_TESTANY, .f = SCOPE_WRAPPED_TESTANY, .kind = ANY, .count = 1,
           .requests = 2, .index = 3, .flag = 4, .statuses = 5, .ierr = 6)
/* (count, requests, [flag,] statuses, ierror) */
COMPLETION(mpi_waitall, MPI_WAITALL, .f = SCOPE_WRAPPED_WAITALL, .kind = ALL, .count = 1,
           .requests = 2, .statuses = 3, .ierr = 4)
COMPLETION(mpi_testall, MPI_TESTALL, .f = SCOPE_WRAPPED_TESTALL, .kind = ALL, .count = 1,
           .requests = 2, .flag = 3, .statuses = 4, .ierr = 5)
/* (incount, requests, outcount, indices, statuses, ierror): `index` is
 * outcount, the indices follow it */
COMPLETION(mpi_waitsome, MPI_WAITSOME, .f = SCOPE_WRAPPED_WAITSOME, .kind = SOME, .count = 1,
           .requests = 2, .index = 3, .statuses = 5, .ierr = 6)
COMPLETION(mpi_testsome, MPI_TESTSOME, .f = SCOPE_WRAPPED_TESTSOME, .kind = SOME, .count = 1,
           .requests = 2, .index = 3, .statuses = 5, .ierr = 6)
