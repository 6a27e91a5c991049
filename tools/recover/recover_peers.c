/* recover_peers.c: a killed process's peer-totals tables (recover_peers.h),
 * mapped read-only; a table that is not whole, not of its pid or not a
 * table at all is left out. A table caught in the middle of an update
 * differs from a whole one by that one message at most. */
#include "recover_peers.h"
#include "grow_array.h"
#include "peer_totals.h"
#include "region_peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Appends the used slots of table `table` to *totals (n of cap); -1 when
 * out of memory (a missing or damaged table adds none). */
static int read_table(const struct recover_process *proc, int table,
                      struct scope_peer_total **totals, size_t *n, size_t *cap)
{
    char path[4096];
    size_t bytes;
    recover_peer_table_path(path, sizeof path, proc->dir, proc->stem, table);
    const struct scope_peer_table_header *h = recover_map_file(path, &bytes);
    if (!h)
        return 0;
    int rc = 0;
    if (bytes >= sizeof *h && memcmp(h->magic, SCOPE_PEER_TABLE_MAGIC, 8) == 0 &&
        h->pid == proc->meta->pid && h->capacity <= bytes / sizeof(struct scope_peer_total) &&
        bytes == scope_peer_table_bytes(h->capacity)) {
        const struct scope_peer_total *slot = (const struct scope_peer_total *)(h + 1);
        for (uint64_t i = 0; rc == 0 && i < h->capacity; i++) {
            if (!slot[i].messages)
                continue;
            rc = scope_grow_array((void **)totals, cap, *n + 1, sizeof **totals);
            if (rc == 0)
                (*totals)[(*n)++] = slot[i];
        }
    }
    munmap((void *)h, bytes);
    return rc;
}

int recover_peers(const struct recover_process *proc, struct scope_event_groups *g,
                  const uint32_t *hook_region, const char *const *hook_symbol, size_t nhooks,
                  size_t nregions, char *err, size_t errlen)
{
    struct scope_peer_total *totals = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (int64_t table = 0; rc == 0 && table < proc->meta->peer_tables; table++)
        rc = read_table(proc, (int)table, &totals, &n, &cap);
    if (rc == 0 && n > 0)
        rc = scope_region_peers_build(&g->peers, totals, n, hook_region, hook_symbol, nhooks,
                                      nregions);
    free(totals);
    if (rc != 0)
        snprintf(err, errlen, "pid %d: out of memory reading its messages per peer",
                 proc->meta->pid);
    return rc;
}
