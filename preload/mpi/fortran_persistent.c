/* fortran_persistent.c: the Fortran entry points of the persistent
 * requests, probes and matched receives scope records with their payload
 * (fortran_call.h), as the C wrappers do (persistent_calls.h): the init
 * calls remember their request (MPI_Request_f2c) until MPI_Request_free,
 * MPI_Start and MPI_Startall record the sends they start and leave their
 * receives pending for the completion (fortran_p2p.c); MPI_Probe and
 * MPI_Iprobe record the
 * message they found, MPI_Mprobe and MPI_Improbe also remember its
 * communicator by message handle (MPI_Message_f2c) for the MPI_Mrecv that
 * records it received or the MPI_Imrecv that leaves its receive pending
 * for the completion (fortran_p2p.c). A matched message is taken out of
 * the table before the binding runs (one that reaches the C wrapper,
 * MPICH's, would consume it there); a status the caller ignores is kept
 * here for the binding to fill. */
#include "fortran_call.h"
#include "persistent_calls.h"

static void keep_status(void **a, int pos, MPI_Fint *own)
{
    if (scope_fortran_status_ignored(fortran_arg(a, pos), 0))
        a[pos - 1] = own;
}

/* ---- persistent requests ---- */

/* (buf, count, datatype, dest or source, tag, comm, request, ierror);
 * `send`: a send's. */
struct init_desc {
    enum scope_wrapped_function f;
    int send;
};

static void init_call(const struct init_desc *d, fortran_fn real, void *caller, void **a)
{
    struct wrapped_call w;
    int recorded = fortran_call_begins(&w, d->f);
    fortran_forward(real, a);
    if (!recorded && !scope_wrapped_any())
        return;
    if (recorded)
        call_returned(&w);
    own_calls_begin(recorded);
    const struct scope_comm *c = fortran_succeeded(a, 8) ? fortran_comm(a, 6) : NULL;
    MPI_Request request = c ? PMPI_Request_f2c(fint(a, 7)) : MPI_REQUEST_NULL;
    if (c && d->send)
        remember_send(request, fortran_count(a, 2), fortran_type(a, 3), fint(a, 4), fint(a, 5), c);
    else if (c)
        remember_recv(request, fint(a, 4), c);
    own_calls_end(recorded);
    if (recorded) {
        if (c)
            add_init(&w, fint(a, 4), fint(a, 5), c);
        call_ends(&w, caller);
    }
}

#define INIT(lower, upper, ...)                                                               \
    FORTRAN_COUNTS(lower, upper, init_call, struct init_desc, __VA_ARGS__)

INIT(mpi_send_init, MPI_SEND_INIT, .f = SCOPE_WRAPPED_SEND_INIT, .send = 1)
INIT(mpi_ssend_init, MPI_SSEND_INIT, .f = SCOPE_WRAPPED_SSEND_INIT, .send = 1)
INIT(mpi_bsend_init, MPI_BSEND_INIT, .f = SCOPE_WRAPPED_BSEND_INIT, .send = 1)
INIT(mpi_rsend_init, MPI_RSEND_INIT, .f = SCOPE_WRAPPED_RSEND_INIT, .send = 1)
INIT(mpi_recv_init, MPI_RECV_INIT, .f = SCOPE_WRAPPED_RECV_INIT)

/* Argument positions (1-based, 0: none; no count: one request). */
struct start_desc {
    enum scope_wrapped_function f;
    int count, requests, ierr;
};

static void start_call(const struct start_desc *d, fortran_fn real, void *caller, void **a)
{
    struct wrapped_call w;
    int recorded = call_begins(&w, d->f);
    if (!recorded && scope_handle_count(&scope_persistent_requests) == 0) {
        fortran_forward(real, a);
        return;
    }
    fortran_forward(real, a);
    if (recorded)
        call_returned(&w);
    int n = d->count ? fint(a, d->count) : 1;
    const MPI_Fint *requests = fortran_arg(a, d->requests);
    own_calls_begin(recorded);
    for (int i = 0; fortran_succeeded(a, d->ierr) && i < n; i++)
        started(&w, recorded, PMPI_Request_f2c(requests[i]));   /* persistent: the same */
    own_calls_end(recorded);
    if (recorded)
        call_ends(&w, caller);
}

#define START(lower, upper, ...) FORTRAN(lower, upper, start_call, struct start_desc, __VA_ARGS__)

/* (request, ierror) */
START(mpi_start, MPI_START, .f = SCOPE_WRAPPED_START, .requests = 1, .ierr = 2)
/* (count, requests, ierror) */
START(mpi_startall, MPI_STARTALL, .f = SCOPE_WRAPPED_STARTALL, .count = 1, .requests = 2,
      .ierr = 3)

/* (request, ierror): forgotten before the binding frees it. */
struct free_desc {
    int request;
};

static void free_call(const struct free_desc *d, fortran_fn real, void *caller, void **a)
{
    (void)caller;
    if (scope_handle_count(&scope_persistent_requests) ||
        scope_handle_count(&scope_pending_recvs)) {
        scope_tls.busy++;
        request_freed(PMPI_Request_f2c(fint(a, d->request)));
        scope_tls.busy--;
    }
    fortran_forward(real, a);
}

FORTRAN(mpi_request_free, MPI_REQUEST_FREE, free_call, struct free_desc, .request = 1)

/* ---- probes ---- */

/* Argument positions (1-based, 0: none). */
struct probe_desc {
    enum scope_wrapped_function f;
    int comm, flag, message, status, ierr;
};

static void probe_call(const struct probe_desc *d, fortran_fn real, void *caller, void **a)
{
    struct wrapped_call w;
    int recorded = call_begins(&w, d->f);
    if (!recorded && (!d->message || !scope_wrapped_any())) {
        fortran_forward(real, a);
        return;
    }
    MPI_Fint own[FORTRAN_STATUS_INTS];
    keep_status(a, d->status, own);
    fortran_forward(real, a);
    if (recorded)
        call_returned(&w);
    own_calls_begin(recorded);
    MPI_Status st;
    if (fortran_succeeded(a, d->ierr) && (!d->flag || fint(a, d->flag)) &&
        PMPI_Status_f2c(fortran_arg(a, d->status), &st) == MPI_SUCCESS) {
        MPI_Message m = d->message ? PMPI_Message_f2c(fint(a, d->message)) : MPI_MESSAGE_NULL;
        probed(&w, recorded, &st, PMPI_Comm_f2c(fint(a, d->comm)), d->message ? &m : NULL);
    }
    own_calls_end(recorded);
    if (recorded)
        call_ends(&w, caller);
}

#define PROBE(lower, upper, ...) FORTRAN(lower, upper, probe_call, struct probe_desc, __VA_ARGS__)

/* (source, tag, comm, [flag,] [message,] status, ierror) */
PROBE(mpi_probe, MPI_PROBE, .f = SCOPE_WRAPPED_PROBE, .comm = 3, .status = 4, .ierr = 5)
PROBE(mpi_iprobe, MPI_IPROBE, .f = SCOPE_WRAPPED_IPROBE, .comm = 3, .flag = 4, .status = 5,
      .ierr = 6)
PROBE(mpi_mprobe, MPI_MPROBE, .f = SCOPE_WRAPPED_MPROBE, .comm = 3, .message = 4, .status = 5,
      .ierr = 6)
PROBE(mpi_improbe, MPI_IMPROBE, .f = SCOPE_WRAPPED_IMPROBE, .comm = 3, .flag = 4, .message = 5,
      .status = 6, .ierr = 7)

/* ---- matched receives ---- */

/* Argument positions: (buf, count, datatype, message, status or request,
 * ierror); `pending`: MPI_Imrecv. */
struct mrecv_desc {
    enum scope_wrapped_function f;
    int pending;
};

static void mrecv_call(const struct mrecv_desc *d, fortran_fn real, void *caller, void **a)
{
    struct wrapped_call w;
    int recorded = fortran_call_begins(&w, d->f);
    if (scope_handle_count(&scope_matched_messages) == 0 && !recorded) {
        fortran_forward(real, a);
        return;
    }
    own_calls_begin(recorded);
    const struct scope_comm *c = matched_comm(PMPI_Message_f2c(fint(a, 4)));
    own_calls_end(recorded);
    MPI_Fint own[FORTRAN_STATUS_INTS];
    if (!d->pending)
        keep_status(a, 5, own);
    fortran_forward(real, a);
    if (recorded)
        call_returned(&w);
    own_calls_begin(recorded);
    MPI_Status st;
    if (fortran_succeeded(a, 6) && d->pending)
        imrecv_started(&w, recorded, PMPI_Request_f2c(fint(a, 5)), c);
    else if (fortran_succeeded(a, 6) && recorded &&
             PMPI_Status_f2c(fortran_arg(a, 5), &st) == MPI_SUCCESS)
        add_received(&w, &st, c);
    own_calls_end(recorded);
    if (recorded)
        call_ends(&w, caller);
}

FORTRAN_COUNTS(mpi_mrecv, MPI_MRECV, mrecv_call, struct mrecv_desc, .f = SCOPE_WRAPPED_MRECV)
FORTRAN_COUNTS(mpi_imrecv, MPI_IMRECV, mrecv_call, struct mrecv_desc,
                .f = SCOPE_WRAPPED_IMRECV, .pending = 1)
