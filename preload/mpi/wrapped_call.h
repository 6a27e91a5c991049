/* wrapped_call.h: one recorded call of an MPI function scope wraps
 * (payload_functions.h). When the config selected the function (the
 * patcher gave the wrapper the function's hook), its wrapper times the
 * call to PMPI_*, works out what it moved as payload items (payload.h)
 * and records the call, its caller and its items in one reservation
 * (hot_path.c); otherwise it calls PMPI_* and returns. From the call's
 * start to its record the thread is busy: the function's own patch (it
 * records the calls that do not come through the wrapper, like Open MPI's
 * Fortran bindings') passes through, and what scope asks MPI itself (type
 * sizes, groups, counts) is not recorded either. Payload is worked
 * out only for a call that succeeded: a failed one (its error handler
 * returned) is recorded with none, so that no invalid handle reaches MPI
 * again. */
#ifndef SCOPE_WRAPPED_CALL_H
#define SCOPE_WRAPPED_CALL_H

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comm_table.h"
#include "payload.h"
#include "payload_functions.h"
#include "peer_totals.h"
#include "thread_state.h"

#define EXPORT __attribute__((visibility("default")))
#define SMALL 32   /* items, requests and statuses kept on the stack */

/* One recorded call being made. */
struct wrapped_call {
    uint32_t hook;
    uint64_t start, end;
    size_t n, cap;
    struct scope_payload_item *item;
    struct scope_payload_item small[SMALL];
};

/* Whether function f's call is recorded now (then it starts). */
static inline int call_begins(struct wrapped_call *w, enum scope_wrapped_function f)
{
    uint32_t hook = scope_wrapped_hook[f];
    if (!hook)
        return 0;
    w->hook = hook - 1;
    w->n = 0;
    w->cap = SMALL;
    w->item = w->small;
    if (!scope_wrapped_call_begins(&w->start))
        return 0;
    scope_tls.busy++;
    return 1;
}

static inline void call_returned(struct wrapped_call *w)
{
    w->end = scope_wrapped_clock();
}

/* A message whose peer is no world rank (a cancelled receive's empty
 * status, a peer the communicator table cannot translate) is kept as what
 * the call carried, not as a message of the matrix. */
static inline void add_item(struct wrapped_call *w, enum scope_item_kind kind, int64_t bytes, int32_t peer,
                     int tag, const struct scope_comm *c)
{
    if (peer < 0)
        kind = SCOPE_ITEM_CALL;
    if (w->n == w->cap) {
        struct scope_payload_item *more = malloc(2 * w->cap * sizeof *more);
        if (!more)
            return;
        memcpy(more, w->item, w->n * sizeof *more);
        if (w->item != w->small)
            free(w->item);
        w->item = more;
        w->cap *= 2;
    }
    w->item[w->n++] = (struct scope_payload_item){bytes, peer, tag, c ? c->id : -1, (int32_t)kind};
}

/* The program's return address a Fortran binding stands for, while a
 * Fortran entry point scope passes through (fortran_collectives.c: the
 * persistent collectives' inits) runs the binding that calls the C
 * function: the recorded call's site instead of the binding's. */
extern __thread void *scope_binding_caller __attribute__((tls_model("initial-exec")));

/* Records the call; `caller` is its return address in the application (or
 * scope_binding_caller's, when set). A
 * call that carried nothing (a Test or Iprobe that found nothing, a Wait
 * completing only sends, a failed call) is recorded as a timed call, no
 * payload header: polling loops cost no more than timed only. A call
 * counted without a row (profile mode, folded) adds its messages, and the
 * bytes it moved without a message (a collective's), to the peer totals. */
static inline void call_ends(struct wrapped_call *w, void *caller)
{
    scope_tls.busy--;
    if (scope_binding_caller) {
        caller = scope_binding_caller;
        scope_binding_caller = NULL;
    }
    if (scope_wrapped_call_ends(w->hook, w->start, w->end, (uint64_t)(uintptr_t)caller,
                                w->n ? w->item : NULL, w->n) == SCOPE_CALL_COUNTED)
        for (size_t i = 0; i < w->n; i++)
            if (w->item[i].kind != SCOPE_ITEM_CALL || w->item[i].bytes > 0)
                scope_peer_totals_add(w->hook, w->item[i].peer,
                                      w->item[i].kind == SCOPE_ITEM_SENT       ? SCOPE_PEER_SENT
                                      : w->item[i].kind == SCOPE_ITEM_RECEIVED ? SCOPE_PEER_RECEIVED
                                                                               : SCOPE_PEER_CALLS,
                                      w->item[i].bytes);
    if (w->item != w->small)
        free(w->item);
}

/* The message a completed receive on c got, from its status (an empty
 * one, MPI_ANY_SOURCE: a cancelled receive or an inactive request, got
 * nothing). */
static inline void add_received(struct wrapped_call *w, const MPI_Status *st, const struct scope_comm *c)
{
    MPI_Count bytes = 0;
    if (st->MPI_SOURCE == MPI_PROC_NULL || st->MPI_SOURCE == MPI_ANY_SOURCE ||
        PMPI_Get_elements_x(st, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes == MPI_UNDEFINED) {
        add_item(w, SCOPE_ITEM_CALL, 0, -1, -1, c);
        return;
    }
    add_item(w, SCOPE_ITEM_RECEIVED, (int64_t)bytes, scope_comm_world_rank(c, st->MPI_SOURCE),
             st->MPI_TAG, c);
}

/* count values of type in bytes. No value, or MPI_DATATYPE_NULL (which
 * MPI_Alltoallw takes for the peers it sends nothing), is 0 without asking
 * MPI, whose error handler would abort the program. */
static inline int64_t type_bytes(int64_t count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    return PMPI_Type_size(type, &size) == MPI_SUCCESS ? count * size : 0;
}

/* Scope's own MPI calls, not recorded: around working out what a handle
 * stands for when the call itself is not recorded (a recorded one keeps
 * the thread busy already). */
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

/* The body of a wrapper whose call leaves a handle for later calls to
 * read (a persistent request, a pending receive): CALL, the PMPI call (an
 * expression), made; then, when the call is recorded or its handle is
 * NEEDED, c set to communicator COMM's entry (NULL when the call failed)
 * and the statements after ITEMS run, scope's own MPI calls in them not
 * recorded; then, when recorded, ITEMS (statements adding the call's
 * payload items when c is not NULL) and the call's record. The statements
 * see w, recorded, rc and c. */
#define HANDLE_CALL(F, CALL, NEEDED, COMM, ITEMS, ...)                                       \
    struct wrapped_call w;                                                                   \
    int recorded = call_begins(&w, SCOPE_WRAPPED_##F);                                       \
    int rc = (CALL);                                                                         \
    if (!recorded && !(NEEDED))                                                              \
        return rc;                                                                           \
    if (recorded)                                                                            \
        call_returned(&w);                                                                   \
    own_calls_begin(recorded);                                                               \
    const struct scope_comm *c = rc == MPI_SUCCESS ? scope_comm_of(COMM) : NULL;             \
    __VA_ARGS__                                                                              \
    own_calls_end(recorded);                                                                 \
    if (recorded) {                                                                          \
        if (c) {                                                                             \
            ITEMS                                                                            \
        }                                                                                    \
        call_ends(&w, __builtin_return_address(0));                                          \
    }                                                                                        \
    return rc;

/* Whether a Wait or Test is recorded: receives must then be followed. */
static inline int completions_recorded(void)
{
    static const enum scope_wrapped_function f[] = {
        SCOPE_WRAPPED_WAIT, SCOPE_WRAPPED_WAITALL, SCOPE_WRAPPED_WAITANY, SCOPE_WRAPPED_WAITSOME,
        SCOPE_WRAPPED_TEST, SCOPE_WRAPPED_TESTALL, SCOPE_WRAPPED_TESTANY, SCOPE_WRAPPED_TESTSOME};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (scope_wrapped_hook[f[i]])
            return 1;
    return 0;
}

#define UNPAREN(...) __VA_ARGS__

/* MPI_NAME wrapped: the call timed when scope records it and, when it
 * returns MPI_SUCCESS, described by the statements that follow ARGS (with
 * the call's struct wrapped_call w and the MPI function's parameters). */
#define WRAPPED(F, NAME, PARAMS, ARGS, ...)                                                  \
    EXPORT int MPI_##NAME PARAMS                                                             \
    {                                                                                        \
        struct wrapped_call w;                                                               \
        if (!call_begins(&w, SCOPE_WRAPPED_##F))                                             \
            return PMPI_##NAME ARGS;                                                         \
        int rc = PMPI_##NAME ARGS;                                                           \
        call_returned(&w);                                                                   \
        if (rc == MPI_SUCCESS) {                                                             \
            __VA_ARGS__                                                                      \
        }                                                                                    \
        call_ends(&w, __builtin_return_address(0));                                          \
        return rc;                                                                           \
    }

/* MPI_NAME wrapped: each call recorded as one item carrying BYTES to
 * TARGET, a rank of the communicator entry COMM_ENTRY (-1: none);
 * expressions of the arguments. UNPAREN strips a list's parentheses.
 * CARRIER_THEN runs the statements THEN (with w and c) after the item. */
#define CARRIER_THEN(F, NAME, PARAMS, ARGS, BYTES, TARGET, COMM_ENTRY, THEN)                 \
    WRAPPED(F, NAME, PARAMS, ARGS, const struct scope_comm *c = (COMM_ENTRY);                 \
            add_item(&w, SCOPE_ITEM_CALL, (BYTES), scope_comm_world_rank(c, (TARGET)), -1, c); \
            THEN)
#define CARRIER(F, NAME, PARAMS, ARGS, BYTES, TARGET, COMM_ENTRY)                            \
    CARRIER_THEN(F, NAME, PARAMS, ARGS, BYTES, TARGET, COMM_ENTRY, )

#endif
