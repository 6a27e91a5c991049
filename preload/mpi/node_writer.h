/* node_writer.h: the first rank of each node writes: its own calls, then
 * every other rank of its node as it asks for them in turn (their windows
 * placed with direct chunk writes). Rank 0 writes the run's file; on
 * several nodes, every other node writes its part (FILE.d/nodeN.h5) and
 * rank 0's file links their ranks once every part is complete. */
#ifndef SCOPE_NODE_WRITER_H
#define SCOPE_NODE_WRITER_H

#include <limits.h>
#include <stdint.h>

#include "event_groups.h"
#include "merge_comms.h"
#include "scope_writer.h"
#include "site_table.h"

/* What a node's writer takes in, and where. */
struct scope_node_intake {
    const struct scope_merge_comms *c;
    int next;              /* first rank of the node not yet received */
    int node_size;
    int *world_rank;       /* of each rank of the node */
    int *node_of;          /* rank 0: each world rank's node */
    char file[PATH_MAX];   /* the run's file as rank 0 names it (node writers) */
    char part[PATH_MAX];   /* a node writer other than rank 0: its part */
    int parts_collected;
    char *buf;             /* SCOPE_WIRE_MESSAGE_BYTES */
    int64_t began;         /* for the progress line */
    /* what the steps cost (said with SCOPE_VERBOSE, for the scale model) */
    int64_t write_began, own_ns, others_ns, callsites_ns;
    uint64_t others_bytes;
};

/* Who is where, and the run's file name (collective). */
void scope_node_intake_init(struct scope_node_intake *s, const struct scope_merge_comms *c,
                            char *buf, int64_t began);
void scope_node_intake_free(struct scope_node_intake *s);

/* Rank 0: the run's call sites, its file, its node's ranks and the links to
 * the other nodes' parts; the run's communicators (NULL: none). 0, or -1 after saying why (every rank drained). */
int scope_write_as_root(struct scope_node_intake *s, struct scope_event_groups *le,
                        const struct scope_site_table *sites, int64_t run_start,
                        const struct scope_comm_table *comms);

/* The first rank of another node: its node's part (s->part), then whether
 * it is complete, to rank 0. 0, or -1 after saying why. */
int scope_write_as_node(struct scope_node_intake *s, struct scope_event_groups *le,
                        const int32_t *own_ids, int64_t my_start, int64_t offset);

#endif
