/* persistent_wrappers.c: persistent requests and matched probes, recorded
 * with what they carried (wrapped_call.h; what both C and Fortran
 * remember and record: persistent_calls.h). MPI_Send_init and its modes
 * remember their message by request (request_table.h), which every
 * MPI_Start of it records as sent; MPI_Recv_init's request, once started,
 * is a pending receive that the Wait or Test completing it records; a
 * persistent collective's (its init: collective_wrappers.c), started, is
 * recorded as one call of the collective and adds a v or w form's bytes
 * per peer under its init's hook. The
 * init calls themselves move nothing (their peer and tag are recorded).
 * MPI_Probe and MPI_Iprobe record the message they found (source and tag
 * from the status, 0 bytes); MPI_Mprobe and MPI_Improbe also remember its
 * communicator by message handle, for the MPI_Mrecv (records it received)
 * or MPI_Imrecv (a pending receive) that takes it. Handles are followed
 * whenever the config selects any wrapped function, so that a selected
 * MPI_Start or MPI_Mrecv knows them. The inits and matched receives also
 * in their MPI-4 large-count forms (MPI_Send_init_c ..., MPI_Mrecv_c)
 * when the MPI library has them. */
#include "large_count.h"
#include "persistent_calls.h"

/* Each init is described once with its count type COUNT: int, or
 * MPI_Count for its large-count form (large_count.h). */
#define SEND_INIT(F, NAME, COUNT)                                                            \
    EXPORT int MPI_##NAME(const void *buf, COUNT count, MPI_Datatype type, int dest, int tag, \
                          MPI_Comm comm, MPI_Request *request)                               \
    {                                                                                        \
        HANDLE_CALL(F, PMPI_##NAME(buf, count, type, dest, tag, comm, request),              \
                    scope_wrapped_any(), comm, add_init(&w, dest, tag, c);,                  \
                    if (c) remember_send(*request, count, type, dest, tag, c);)              \
    }

#define RECV_INIT(F, NAME, COUNT)                                                            \
    EXPORT int MPI_##NAME(void *buf, COUNT count, MPI_Datatype type, int source, int tag,    \
                          MPI_Comm comm, MPI_Request *request)                               \
    {                                                                                        \
        HANDLE_CALL(F, PMPI_##NAME(buf, count, type, source, tag, comm, request),            \
                    scope_wrapped_any(), comm, add_init(&w, source, tag, c);,                \
                    if (c) remember_recv(*request, source, c);)                              \
    }

/* Every init, of count type COUNT, its enum and name ending in SUFFIX_F and
 * SUFFIX. */
#define INITS(SUFFIX_F, SUFFIX, COUNT)                                                       \
    SEND_INIT(SEND_INIT##SUFFIX_F, Send_init##SUFFIX, COUNT)                                 \
    SEND_INIT(SSEND_INIT##SUFFIX_F, Ssend_init##SUFFIX, COUNT)                               \
    SEND_INIT(BSEND_INIT##SUFFIX_F, Bsend_init##SUFFIX, COUNT)                               \
    SEND_INIT(RSEND_INIT##SUFFIX_F, Rsend_init##SUFFIX, COUNT)                               \
    RECV_INIT(RECV_INIT##SUFFIX_F, Recv_init##SUFFIX, COUNT)

INITS(, , int)
#ifdef SCOPE_MPI_LARGE_COUNT
INITS(_C, _c, MPI_Count)
#endif

EXPORT int MPI_Start(MPI_Request *request)
{
    struct wrapped_call w;
    int recorded = call_begins(&w, SCOPE_WRAPPED_START);
    MPI_Request r = *request;
    int rc = PMPI_Start(request);
    if (recorded)
        call_returned(&w);
    if (rc == MPI_SUCCESS)
        started(&w, recorded, r);
    if (recorded)
        call_ends(&w, __builtin_return_address(0));
    return rc;
}

EXPORT int MPI_Startall(int count, MPI_Request requests[])
{
    struct wrapped_call w;
    int recorded = call_begins(&w, SCOPE_WRAPPED_STARTALL);
    int rc = PMPI_Startall(count, requests);
    if (recorded)
        call_returned(&w);
    for (int i = 0; rc == MPI_SUCCESS && i < count; i++)
        started(&w, recorded, requests[i]);   /* persistent: still the same handles */
    if (recorded)
        call_ends(&w, __builtin_return_address(0));
    return rc;
}

EXPORT int MPI_Request_free(MPI_Request *request)
{
    request_freed(*request);
    return PMPI_Request_free(request);
}

/* ---- probes ---- */

/* One description per probe: parameters, arguments, whether it found a
 * message (FOUND, once it returned MPI_SUCCESS), its message handle. */
#define PROBE(F, NAME, PARAMS, ARGS, FOUND, MESSAGE)                                         \
    EXPORT int MPI_##NAME PARAMS                                                             \
    {                                                                                        \
        struct wrapped_call w;                                                               \
        int recorded = call_begins(&w, SCOPE_WRAPPED_##F);                                   \
        if (!recorded && (!(MESSAGE) || !scope_wrapped_any()))                               \
            return PMPI_##NAME ARGS;                                                         \
        MPI_Status own;                                                                      \
        if (status == MPI_STATUS_IGNORE)                                                     \
            status = &own;                                                                   \
        int rc = PMPI_##NAME ARGS;                                                           \
        if (recorded)                                                                        \
            call_returned(&w);                                                               \
        own_calls_begin(recorded);                                                           \
        if (rc == MPI_SUCCESS && (FOUND))                                                    \
            probed(&w, recorded, status, comm, MESSAGE);                                     \
        own_calls_end(recorded);                                                             \
        if (recorded)                                                                        \
            call_ends(&w, __builtin_return_address(0));                                      \
        return rc;                                                                           \
    }

PROBE(PROBE, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status),
      (source, tag, comm, status), 1, (MPI_Message *)NULL)
PROBE(IPROBE, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status),
      (source, tag, comm, flag, status), *flag, (MPI_Message *)NULL)
PROBE(MPROBE, Mprobe,
      (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status),
      (source, tag, comm, message, status), 1, message)
PROBE(IMPROBE, Improbe,
      (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status),
      (source, tag, comm, flag, message, status), *flag, message)

/* The matched receives, of count type COUNT (int, or MPI_Count for their
 * large-count forms), enums and names ending in SUFFIX_F and SUFFIX. */
#define MATCHED_RECEIVES(SUFFIX_F, SUFFIX, COUNT)                                            \
    EXPORT int MPI_Mrecv##SUFFIX(void *buf, COUNT count, MPI_Datatype type,                 \
                                 MPI_Message *message, MPI_Status *status)                   \
    {                                                                                        \
        struct wrapped_call w;                                                               \
        MPI_Message m = *message;                                                            \
        if (!call_begins(&w, SCOPE_WRAPPED_MRECV##SUFFIX_F)) {                               \
            matched_comm(m);                                                                 \
            return PMPI_Mrecv##SUFFIX(buf, count, type, message, status);                    \
        }                                                                                    \
        MPI_Status own;                                                                      \
        MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;                        \
        int rc = PMPI_Mrecv##SUFFIX(buf, count, type, message, st);                          \
        call_returned(&w);                                                                   \
        const struct scope_comm *c = matched_comm(m);                                        \
        if (rc == MPI_SUCCESS)                                                               \
            add_received(&w, st, c);                                                         \
        call_ends(&w, __builtin_return_address(0));                                          \
        return rc;                                                                           \
    }                                                                                        \
                                                                                             \
    EXPORT int MPI_Imrecv##SUFFIX(void *buf, COUNT count, MPI_Datatype type,                \
                                  MPI_Message *message, MPI_Request *request)                \
    {                                                                                        \
        struct wrapped_call w;                                                               \
        int recorded = call_begins(&w, SCOPE_WRAPPED_IMRECV##SUFFIX_F);                      \
        const struct scope_comm *c = matched_comm(*message);                                 \
        int rc = PMPI_Imrecv##SUFFIX(buf, count, type, message, request);                    \
        if (recorded)                                                                        \
            call_returned(&w);                                                               \
        if (rc == MPI_SUCCESS)                                                               \
            imrecv_started(&w, recorded, *request, c);                                       \
        if (recorded)                                                                        \
            call_ends(&w, __builtin_return_address(0));                                      \
        return rc;                                                                           \
    }

MATCHED_RECEIVES(, , int)
#ifdef SCOPE_MPI_LARGE_COUNT
MATCHED_RECEIVES(_C, _c, MPI_Count)
#endif
