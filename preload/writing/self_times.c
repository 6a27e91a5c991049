/* self_times.c: self times in one pass over calls in end order (see
 * self_times.h). Calls of zero duration are left out of the waiting calls:
 * their self time is 0, they add nothing to a caller's children and, as
 * the reader finds nesting (a call starting where another ends is not
 * inside it), they contain no call of some duration. Left out, every
 * waiting call starts strictly after the one below it, which is what the
 * binary search needs. */
#include "self_times.h"

#include "temp_dir.h"
#include "varint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((size_t)2 << 20)
#define BLOCK_CALLS 4096   /* waiting calls a block of the file at most */

/* The memory is reserved whole but only touched as deep as it goes: in
 * transparent huge pages where the kernel has them (a page fault every
 * 2 MiB rather than every 4 KiB). */
int scope_self_pass_init(struct scope_self_pass *p, size_t memory_calls)
{
    size_t cap = memory_calls < 2 ? 2 : memory_calls;
    size_t bytes = (cap * sizeof(*p->memory) + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    size_t block = cap / 2 < BLOCK_CALLS ? cap / 2 : BLOCK_CALLS;
    *p = (struct scope_self_pass){.memory_cap = cap, .fd = -1, .block_calls = block,
                                  .bytes = malloc(block * 2 * SCOPE_VARINT_MAX_BYTES),
                                  .seen = calloc(64, 1), .seen_cap = 64, .thread = -1,
                                  .known = 1};
    char *map = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return -1;
    char *aligned = (char *)(((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    madvise(aligned, bytes, MADV_HUGEPAGE);
    p->memory = (struct scope_waiting_call *)aligned;
    p->map = map;
    p->map_bytes = bytes + HUGE_PAGE;
    return p->seen && p->bytes ? 0 : -1;
}

void scope_self_pass_free(struct scope_self_pass *p)
{
    if (p->map)
        munmap(p->map, p->map_bytes);
    if (p->fd >= 0)
        close(p->fd);
    free(p->blocks);
    free(p->bytes);
    free(p->seen);
}

static int new_thread(struct scope_self_pass *p, int32_t thread)
{
    if (thread < 0)
        return 0;
    size_t t = (size_t)thread;
    if (t >= p->seen_cap) {
        unsigned char *more = realloc(p->seen, 2 * t + 1);
        if (!more)
            return 0;
        memset(more + p->seen_cap, 0, 2 * t + 1 - p->seen_cap);
        p->seen = more;
        p->seen_cap = 2 * t + 1;
    }
    if (p->seen[t])
        return 0;
    p->seen[t] = 1;
    p->thread = thread;
    p->in_memory = p->nblocks = 0;
    p->file_bytes = 0;
    p->last_end = INT64_MIN;
    return 1;
}

/* The first of the n calls that starts at or after `start` (n if none),
 * searched from the newest one back in growing steps: a caller usually
 * claims a few of the newest calls, or none. */
static size_t first_from(const struct scope_waiting_call *c, size_t n, int64_t start)
{
    size_t hi = n;   /* c[hi] .. c[n - 1] start at or after `start` */
    for (size_t step = 1; hi > 0 && c[hi - 1].start >= start; step *= 2) {
        size_t lo = hi > step ? hi - step : 0;
        if (c[lo].start >= start) {
            hi = lo;
            continue;
        }
        for (lo++; lo < hi;) {   /* c[lo - 1] starts before, c[hi] not */
            size_t mid = lo + (hi - lo) / 2;
            if (c[mid].start < start)
                lo = mid + 1;
            else
                hi = mid;
        }
        break;
    }
    return hi;
}

/* The first n calls of memory as the file's next block. 0, or -1. */
static int write_block(struct scope_self_pass *p, const struct scope_waiting_call *c, size_t n)
{
    if (p->nblocks == p->blocks_cap) {
        size_t cap = p->blocks_cap ? 2 * p->blocks_cap : 64;
        struct scope_waiting_block *more = realloc(p->blocks, cap * sizeof *more);
        if (!more)
            return -1;
        p->blocks = more;
        p->blocks_cap = cap;
    }
    unsigned char *end = put_varint(p->bytes, c[0].start);
    end = put_varint(end, (int64_t)c[0].sum);
    for (size_t i = 1; i < n; i++) {
        end = put_varint(end, difference(c[i].start, c[i - 1].start));
        end = put_varint(end, difference((int64_t)c[i].sum, (int64_t)c[i - 1].sum));
    }
    size_t len = (size_t)(end - p->bytes);
    if (scope_pwrite_full(p->fd, p->bytes, len, p->file_bytes) != 0)
        return -1;
    p->blocks[p->nblocks++] = (struct scope_waiting_block){c[0].start, c[n - 1], p->file_bytes};
    p->file_bytes += len;
    return 0;
}

/* The older half of memory, in whole blocks, to the file. 0, or -1 (no
 * disk, no memory). */
static int spill(struct scope_self_pass *p)
{
    size_t n = p->memory_cap / 2 / p->block_calls * p->block_calls;
    char err[256];
    if (p->fd < 0 && (p->fd = scope_scratch_file("self times", err, sizeof err)) < 0)
        return -1;
    for (size_t i = 0; i < n; i += p->block_calls)
        if (write_block(p, p->memory + i, p->block_calls) != 0)
            return -1;
    p->in_memory -= n;
    memmove(p->memory, p->memory + n, p->in_memory * sizeof *p->memory);
    return 0;
}

/* Drops the calls in the file that start at or after `start` (the newest
 * one does; memory holds none): the block where they begin comes back to
 * memory, keeping its calls before them. 0, or -1 (unreadable file). */
static int claim_in_file(struct scope_self_pass *p, int64_t start)
{
    size_t after = 0;   /* blocks whose first call starts before `start` */
    for (size_t hi = p->nblocks; after < hi;) {
        size_t mid = after + (hi - after) / 2;
        if (p->blocks[mid].first_start < start)
            after = mid + 1;
        else
            hi = mid;
    }
    if (after == 0) {
        p->nblocks = 0;
        p->file_bytes = 0;
        return 0;
    }
    const struct scope_waiting_block *b = &p->blocks[after - 1];
    uint64_t len = (after < p->nblocks ? b[1].offset : p->file_bytes) - b->offset;
    if (scope_pread_full(p->fd, p->bytes, len, b->offset) != 0)
        return -1;
    const unsigned char *at = p->bytes;
    int64_t value;
    struct scope_waiting_call *c = p->memory;
    at = get_varint(at, &c[0].start);
    at = get_varint(at, &value);
    c[0].sum = (uint64_t)value;
    size_t n = 1;
    for (; at < p->bytes + len; n++) {
        at = get_varint(at, &value);
        c[n].start = sum(c[n - 1].start, value);
        at = get_varint(at, &value);
        c[n].sum = (uint64_t)sum((int64_t)c[n - 1].sum, value);
    }
    p->in_memory = first_from(c, n, start);   /* >= 1: the block's first */
    p->file_bytes = b->offset;
    p->nblocks = after - 1;
    return 0;
}

static uint64_t sum_below(const struct scope_self_pass *p)
{
    if (p->in_memory > 0)
        return p->memory[p->in_memory - 1].sum;
    return p->nblocks > 0 ? p->blocks[p->nblocks - 1].last.sum : 0;
}

/* Takes the waiting calls that start at or after `start`: the sum of their
 * durations. */
static uint64_t claim(struct scope_self_pass *p, int64_t start)
{
    uint64_t top = sum_below(p);
    p->in_memory = first_from(p->memory, p->in_memory, start);
    if (p->in_memory == 0 && p->nblocks > 0 && p->blocks[p->nblocks - 1].last.start >= start &&
        claim_in_file(p, start) != 0)
        p->known = 0;
    return top - sum_below(p);
}

void scope_self_pass_add(struct scope_self_pass *p, const struct scope_event *events, size_t n,
                         const uint32_t *hook_region, int64_t *region_self)
{
    for (size_t i = 0; p->known && i < n; i++) {
        const struct scope_event *e = &events[i];
        if (e->thread != p->thread && !(p->known = new_thread(p, e->thread)))
            break;
        if (e->end < p->last_end) {
            p->known = 0;   /* not end order */
            break;
        }
        p->last_end = e->end;
        uint64_t duration = (uint64_t)e->end - (uint64_t)e->start;
        if (duration == 0)
            continue;
        uint64_t children = claim(p, e->start);
        if (p->in_memory == p->memory_cap && spill(p) != 0)
            p->known = 0;
        if (!p->known)
            break;
        p->memory[p->in_memory] = (struct scope_waiting_call){e->start, sum_below(p) + duration};
        p->in_memory++;
        region_self[hook_region[e->hook]] += (int64_t)(duration - children);
    }
}
