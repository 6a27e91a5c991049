/* mpi_merge.c: the collective end of an MPI run, in the order it happens.
 * At MPI_Init: the merge's communicators (node_comms.c) and each node's
 * clock offset to rank 0 (clock_sync.c). At MPI_Finalize: the offsets
 * again; every rank reads its records back on rank 0's clock, names its
 * call sites and learns their ids in the file (callsite_exchange.c) and
 * the run's ids of its communicators (comm_exchange.c), and encodes its
 * calls as the file stores them, all ranks at once, with a few threads
 * where the node has idle cores (encode_threads.c)
 * (rank_messages.c); the first rank of each node writes its node's ranks
 * (node_writer.c): rank 0 the run's file, the others their parts. No
 * process touches every call of the run. */
#include <mpi.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "callsite_exchange.h"
#include "clock_sync.h"
#include "comm_exchange.h"
#include "encode_threads.h"
#include "fault_signals.h"
#include "fold.h"
#include "local_events.h"
#include "log.h"
#include "merge_comms.h"
#include "merge_wire.h"
#include "mpi_merge.h"
#include "node_writer.h"
#include "process_meta.h"
#include "rank_messages.h"
#include "request_table.h"
#include "recording_stop.h"
#include "run_info.h"
#include "runtime.h"
#include "thread_buffer.h"
#include "thread_state.h"

static struct scope_merge_comms comms = {.world = MPI_COMM_NULL, .node = MPI_COMM_NULL,
                                         .leaders = MPI_COMM_NULL};
static struct scope_clock_offsets to_root;   /* this clock vs rank 0's */
static int64_t init_error;                   /* of to_root.offset0 */

/* Idempotent: a Fortran binding may reach the C wrapper too. Measures the
 * clock offsets once now, so that even a run that never finalizes can be
 * put on one timeline by `scope recover`. */
void scope_mpi_after_init(void)
{
    if (comms.world != MPI_COMM_NULL)
        return;
    scope_tls.busy++;
    scope_rt.mpi_initialized = 1;
    scope_handles_after_init();
    scope_take_fault_signals();
    scope_merge_comms_open(&comms);
    int64_t began = scope_monotonic_ns();
    struct scope_measured_offset at_init = scope_sync_clocks(&comms);
    if (comms.rank == 0) {
        int nodes;
        PMPI_Comm_size(comms.leaders, &nodes);
        scope_debug("MPI_Init: clock offsets of %d node(s) measured in %.3f ms", nodes,
                    (double)(scope_monotonic_ns() - began) / 1e6);
    }
    to_root.offset0 = at_init.offset;
    init_error = at_init.error;
    to_root.t0 = scope_monotonic_ns();
    int64_t root[2] = {scope_facts.pid, scope_rt.run_start_ns};
    PMPI_Bcast(root, 2, MPI_INT64_T, 0, comms.world);
    struct scope_meta_rank me = {comms.rank, comms.size, comms.node_index, comms.nodes,
                                 (int)root[0], root[1], to_root.offset0};
    scope_meta_set_rank(&me);
    scope_tls.busy--;
}

/* This rank's calls on rank 0's clock, grouped by region (none when it
 * recorded nothing or they cannot be read: said in one line). */
static void own_events(int enabled, struct scope_event_groups *le, struct scope_site_table *sites)
{
    char err[512];
    *le = (struct scope_event_groups){.runs = {.fd = -1}};
    scope_site_table_init(sites);
    if (enabled && scope_local_events_build(le, sites, &to_root, err, sizeof(err)) == 0) {
        scope_fold_say_limit(comms.rank);
        return;
    }
    if (enabled)
        scope_log("rank %d: %s", comms.rank, err);
    scope_event_groups_free(le);   /* none: an empty rank */
    le->region_begin = calloc(1, sizeof(size_t));
}

/* Writes (a node's first rank) or sends this rank's calls. 1 when the
 * run's file was written, and *kept when this rank must keep its records
 * all the same. */
static int write_or_send(struct scope_event_groups *le, const struct scope_site_table *sites,
                         int64_t my_start, int64_t run_start, int64_t began, int *kept)
{
    struct scope_prepared p = {.buf = malloc(SCOPE_WIRE_MESSAGE_BYTES)};
    if (!p.buf || !le->region_begin) {
        scope_log("rank %d: out of memory for the merge", comms.rank);
        abort();   /* the other ranks would wait forever otherwise */
    }
    scope_message_log_init(&p.log);
    struct scope_node_intake s;
    scope_node_intake_init(&s, &comms, p.buf, began);
    int written = 0, node_writer = comms.leaders != MPI_COMM_NULL;
    struct scope_comm_merge run_comms;
    scope_exchange_comms(&comms, le, &run_comms);
    if (comms.rank == 0) {
        struct scope_comm_table table = scope_comm_merge_table(&run_comms);
        written = scope_write_as_root(&s, le, sites, run_start,
                                      run_comms.defined ? &table : NULL) == 0;
    } else {
        int32_t *file_ids = scope_send_callsites(&comms, sites);
        if (node_writer) {
            scope_write_as_node(&s, le, file_ids, my_start, to_root.offset1);
        } else {
            scope_prepare_rank(&comms, &p, le, file_ids, my_start, to_root.offset1);
            *kept = p.err[0] != '\0';
            scope_send_prepared(&comms, &p);
        }
        free(file_ids);
    }
    PMPI_Bcast(&written, 1, MPI_INT, 0, comms.world);
    if (comms.rank != 0 && node_writer && !written)
        unlink(s.part);   /* the run's file does not link it */
    scope_node_intake_free(&s);
    scope_comm_merge_free(&run_comms);
    scope_message_log_free(&p.log);
    free(p.buf);
    return written;
}

/* Threads to encode this rank's calls on the node's idle cores: the
 * node's ranks say which CPUs they are bound to, the helpers take others. */
static void start_encode_threads(void)
{
    cpu_set_t mine, used;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine) != 0)
        CPU_ZERO(&mine);
    PMPI_Allreduce(&mine, &used, (int)sizeof mine, MPI_BYTE, MPI_BOR, comms.node);
    int ranks_on_node;
    PMPI_Comm_size(comms.node, &ranks_on_node);
    int n = scope_encode_threads_begin(ranks_on_node, CPU_COUNT(&used) > 0 ? &used : NULL);
    if (comms.rank == 0)
        scope_debug("finalize: %d thread(s) besides rank 0's own encode its calls (%d rank(s) on "
                    "its node)", n, ranks_on_node);
}

void scope_mpi_before_finalize(void)
{
    if (comms.world == MPI_COMM_NULL)
        return;   /* never initialised, or already finalised */
    scope_tls.busy++;
    scope_rt.mpi_finalized = 1;
    int64_t began = scope_monotonic_ns();
    int enabled = scope_rt.enabled, any;
    PMPI_Allreduce(&enabled, &any, 1, MPI_INT, MPI_MAX, comms.world);
    if (any) {
        scope_stop_recording();
        struct scope_measured_offset at_end = scope_sync_clocks(&comms);
        to_root.offset1 = at_end.offset;
        to_root.t1 = scope_monotonic_ns();
        scope_settle_drift(&to_root, init_error, at_end.error);
        struct scope_event_groups le;
        struct scope_site_table sites;
        int64_t sorting = scope_monotonic_ns();
        own_events(enabled, &le, &sites);
        sorting = scope_monotonic_ns() - sorting;
        int64_t my_start =
            scope_rt.run_start_ns - scope_clock_offset_at(&to_root, scope_rt.run_start_ns);
        int64_t run_start;
        PMPI_Reduce(&my_start, &run_start, 1, MPI_INT64_T, MPI_MIN, 0, comms.world);
        int kept = 0;
        start_encode_threads();
        int written = write_or_send(&le, &sites, my_start, run_start, began, &kept);
        scope_encode_threads_end();
        if (comms.rank == 0)
            scope_debug("finalize: clock sync, merge and write took %.3f s (rank 0's own calls "
                        "read back and sorted in %.3f s of it); peak memory %ld MiB",
                        (double)(scope_monotonic_ns() - began) / 1e9, (double)sorting / 1e9,
                        scope_peak_memory_mib());
        if (written && !kept) {
            scope_rt.written = 1;
            scope_buffers_remove();
        }
        scope_event_groups_free(&le);
        scope_site_table_free(&sites);
    }
    scope_merge_comms_close(&comms);
    scope_tls.busy--;
}
