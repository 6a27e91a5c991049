/* collective_peers.h: what a v or w collective (MPI_Alltoallv/w,
 * Gatherv, Scatterv, Allgatherv, Reduce_scatter and their nonblocking
 * forms, and their MPI-4 persistent forms), C or Fortran, moved to and
 * from each peer, added to the peer totals (peer_totals.h) under the
 * call's hook as one message per peer and direction, the rank itself
 * included (a persistent one's kept by its init, added at each start,
 * under the init's hook); its row keeps the total
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

/* What one call (or one start of a persistent one) moved to or from a
 * peer (world rank). */
struct peer_share {
    int32_t peer;
    int32_t direction;               /* enum scope_peer_direction */
    int64_t bytes;
};

/* Where a collective's bytes per peer go: into the peer totals under
 * `hook` now (a blocking or nonblocking call), or, `keep` set, into the
 * malloc'd `kept` (n of cap) that a persistent collective's init
 * remembers for every start of it (persistent_calls.h); out of memory: the
 * shares that do not fit are dropped. */
struct peer_sink {
    uint32_t hook;
    int keep;
    struct peer_share *kept;
    size_t n, cap;
};

static inline void peer_add(struct peer_sink *s, enum scope_peer_direction d,
                            const struct scope_comm *c, int r, int64_t bytes)
{
    int32_t peer = scope_comm_world_rank(c, r);
    if (!s->keep) {
        scope_peer_totals_add(s->hook, peer, d, bytes);
        return;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        struct peer_share *more = realloc(s->kept, cap * sizeof *more);
        if (!more)
            return;
        s->kept = more;
        s->cap = cap;
    }
    s->kept[s->n++] = (struct peer_share){peer, (int32_t)d, bytes};
}

/* A call on communicator c, which succeeded, into sink s: `send` and
 * `recv` as its arguments give them (recv's counts: the receive counts, of
 * Reduce_scatter too); in_place: its send buffer is MPI_IN_PLACE. */
static inline void collective_peers(struct peer_sink *s, enum v_shape shape,
                                    int in_place, const struct peer_counts *send,
                                    const struct peer_counts *recv, int root,
                                    const struct scope_comm *c)
{
    int n = comm_size(c), me = c ? c->rank : -1;
    int64_t own = in_place ? peer_bytes(recv, me) : peer_bytes(send, -1);
    switch (shape) {
    case V_ALLTOALL:
        for (int i = 0; i < n; i++) {
            peer_add(s, SCOPE_PEER_SENT, c, i, peer_bytes(in_place ? recv : send, i));
            peer_add(s, SCOPE_PEER_RECEIVED, c, i, peer_bytes(recv, i));
        }
        return;
    case V_ALLGATHER:
        for (int i = 0; i < n; i++) {
            peer_add(s, SCOPE_PEER_SENT, c, i, own);
            peer_add(s, SCOPE_PEER_RECEIVED, c, i, peer_bytes(recv, i));
        }
        return;
    case V_GATHER:
        peer_add(s, SCOPE_PEER_SENT, c, root, own);
        for (int i = 0; is_root(c, root) && i < n; i++)
            peer_add(s, SCOPE_PEER_RECEIVED, c, i, peer_bytes(recv, i));
        return;
    case V_SCATTER:
        for (int i = 0; is_root(c, root) && i < n; i++)
            peer_add(s, SCOPE_PEER_SENT, c, i, peer_bytes(send, i));
        peer_add(s, SCOPE_PEER_RECEIVED, c, root,
                 is_root(c, root) ? peer_bytes(send, me) : peer_bytes(recv, -1));
        return;
    case V_REDUCE_SCATTER:
        for (int i = 0; i < n; i++) {
            peer_add(s, SCOPE_PEER_SENT, c, i, peer_bytes(recv, i));
            peer_add(s, SCOPE_PEER_RECEIVED, c, i, peer_bytes(recv, me));
        }
        return;
    }
}

#endif
