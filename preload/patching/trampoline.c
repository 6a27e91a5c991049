/* trampoline.c: pools of trampoline memory mapped near the code they serve
 * (MAP_FIXED_NOREPLACE probing outward from the module) and sealed W^X. */
#include "trampoline.h"

#include <stdlib.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define POOL_BYTES (256u * 1024)
#define REACH ((uintptr_t)1 << 31)
#define MARGIN ((uintptr_t)64 << 20)   /* keep clear of the edge of rel32 reach */
#define PROBE_STEP ((uintptr_t)1 << 20)
#define USER_SPACE_END ((uintptr_t)1 << 47)   /* x86-64 user addresses lie below */

struct pool {
    struct pool *next;
    uint8_t *base;
    size_t used;
    int sealed;
};

static struct pool *pools;

static int pool_reaches(const struct pool *p, uintptr_t near)
{
    uintptr_t lo = (uintptr_t)p->base, hi = lo + POOL_BYTES;
    uintptr_t far = near > lo ? near - lo : hi - near;
    return far < REACH - MARGIN;
}

static uint8_t *map_at(uintptr_t addr)
{
    void *p = mmap((void *)addr, POOL_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if ((uintptr_t)p != addr) {   /* an old kernel took the hint as a hint */
        munmap(p, POOL_BYTES);
        return NULL;
    }
    return p;
}

static struct pool *pool_create(uintptr_t near)
{
    uintptr_t start = near & ~(PROBE_STEP - 1);
    uint8_t *base = NULL;
    for (uintptr_t off = PROBE_STEP; !base && off < REACH - MARGIN; off += PROBE_STEP) {
        if (start > off + PROBE_STEP)
            base = map_at(start - off);
        if (!base && start + off < USER_SPACE_END)
            base = map_at(start + off);
    }
    if (!base)
        return NULL;
    struct pool *p = calloc(1, sizeof(*p));
    if (!p) {
        munmap(base, POOL_BYTES);
        return NULL;
    }
    p->base = base;
    p->next = pools;
    pools = p;
    return p;
}

static struct pool *last_pool;
static size_t last_offset;

uint8_t *scope_trampoline_reserve(uintptr_t near, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    struct pool *p = pools;
    while (p && (p->sealed || p->used + size > POOL_BYTES || !pool_reaches(p, near)))
        p = p->next;
    if (!p && !(p = pool_create(near)))
        return NULL;
    last_pool = p;
    last_offset = p->used;
    p->used += size;
    return p->base + last_offset;
}

void scope_trampoline_commit(uint8_t *ptr, size_t used)
{
    if (last_pool && ptr == last_pool->base + last_offset)
        last_pool->used = last_offset + ((used + 15) & ~(size_t)15);
}

int scope_trampoline_seal(void)
{
    int rc = 0;
    for (struct pool *p = pools; p; p = p->next) {
        if (p->sealed)
            continue;
        if (mprotect(p->base, POOL_BYTES, PROT_READ | PROT_EXEC) != 0)
            rc = -1;
        p->sealed = 1;
    }
    return rc;
}
