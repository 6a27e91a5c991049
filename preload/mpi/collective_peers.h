/* collective_peers.h: what a v or w collective (MPI_Alltoallv/w,
 * Gatherv, Scatterv, Allgatherv, Reduce_scatter and their nonblocking
 * forms), C or Fortran, moved to and from each peer, added to the peer
 * totals (peer_totals.h) under the call's hook as one message per peer
 * and direction, the rank itself included; its row keeps the total
 * (collective_bytes.h). Counts are read only where MPI defines them (the
 * root's of a rooted collective), as the world ranks of c's ranks (an
 * intercommunicator's remote group: there the root, MPI_ROOT, adds what it
 * moves to or from each of them, the other ranks of its group,
 * MPI_PROC_NULL, nothing). */
#ifndef SCOPE_COLLECTIVE_PEERS_H
#define SCOPE_COLLECTIVE_PEERS_H

#include "collective_bytes.h"

/* One side's counts: `count` values of `type`, or per rank i counts[i]
 * values of types[i] (C), ftypes[i] (Fortran) or else `type`. */
struct peer_counts {
    int64_t count;
    struct count_array counts;
    MPI_Datatype type;
    const MPI_Datatype *types;
    const MPI_Fint *ftypes;
};

enum v_shape { V_ALLTOALL, V_ALLGATHER, V_GATHER, V_SCATTER, V_REDUCE_SCATTER };

/* Bytes to or from rank i (count arrays), or of the scalar count (i < 0). */
static inline int64_t peer_bytes(const struct peer_counts *p, int i)
{
    if (i < 0 || !has_counts(p->counts))
        return type_bytes(p->count, p->type);
    MPI_Datatype type = p->types ? p->types[i] : p->ftypes ? PMPI_Type_f2c(p->ftypes[i]) : p->type;
    return type_bytes(count_at(p->counts, i), type);
}

static inline void peer_add(const struct wrapped_call *w, enum scope_peer_direction d,
                            const struct scope_comm *c, int r, int64_t bytes)
{
    scope_peer_totals_add(w->hook, scope_comm_world_rank(c, r), d, bytes);
}

/* The call of w, which succeeded, on communicator c: `send` and `recv` as
 * its arguments give them (recv's counts: the receive counts, of
 * Reduce_scatter too); in_place: its send buffer is MPI_IN_PLACE. */
static inline void collective_peers(const struct wrapped_call *w, enum v_shape shape,
                                    int in_place, const struct peer_counts *send,
                                    const struct peer_counts *recv, int root,
                                    const struct scope_comm *c)
{
    int n = comm_size(c), me = c ? c->rank : -1;
    int64_t own = in_place ? peer_bytes(recv, me) : peer_bytes(send, -1);
    switch (shape) {
    case V_ALLTOALL:
        for (int i = 0; i < n; i++) {
            peer_add(w, SCOPE_PEER_SENT, c, i, peer_bytes(in_place ? recv : send, i));
            peer_add(w, SCOPE_PEER_RECEIVED, c, i, peer_bytes(recv, i));
        }
        return;
    case V_ALLGATHER:
        for (int i = 0; i < n; i++) {
            peer_add(w, SCOPE_PEER_SENT, c, i, own);
            peer_add(w, SCOPE_PEER_RECEIVED, c, i, peer_bytes(recv, i));
        }
        return;
    case V_GATHER:
        peer_add(w, SCOPE_PEER_SENT, c, root, own);
        for (int i = 0; is_root(c, root) && i < n; i++)
            peer_add(w, SCOPE_PEER_RECEIVED, c, i, peer_bytes(recv, i));
        return;
    case V_SCATTER:
        for (int i = 0; is_root(c, root) && i < n; i++)
            peer_add(w, SCOPE_PEER_SENT, c, i, peer_bytes(send, i));
        peer_add(w, SCOPE_PEER_RECEIVED, c, root,
                 is_root(c, root) ? peer_bytes(send, me) : peer_bytes(recv, -1));
        return;
    case V_REDUCE_SCATTER:
        for (int i = 0; i < n; i++) {
            peer_add(w, SCOPE_PEER_SENT, c, i, peer_bytes(recv, i));
            peer_add(w, SCOPE_PEER_RECEIVED, c, i, peer_bytes(recv, me));
        }
        return;
    }
}

#endif
