/* profile_table.c: profile mode's process-wide settings and the making and
 * removal of a buffer's profile table (profile_table.h). */
#include "profile_table.h"
#include "clock.h"
#include "record_files.h"
#include "runtime.h"
#include "thread_state.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int scope_profile_mode;
int scope_profile_tables;
uint64_t scope_profile_ns_mult = UINT64_C(1) << 32;

/* ns per raw tick as a 32-bit fraction, over 2 ms: the histogram's bins
 * are then off only for durations within 1e-5 of a power of two. */
static uint64_t measure_ns_mult(void)
{
    if (!scope_clock_uses_tsc)
        return UINT64_C(1) << 32;
    uint64_t raw0 = scope_clock_raw();
    int64_t ns0 = scope_monotonic_ns(), ns1;
    while ((ns1 = scope_monotonic_ns()) - ns0 < 2000000)
        ;
    uint64_t raw1 = scope_clock_raw();
    return raw1 > raw0 ? (uint64_t)((((unsigned __int128)(ns1 - ns0)) << 32) / (raw1 - raw0))
                       : UINT64_C(1) << 32;
}

void scope_profile_configure(int profile, int tables)
{
    scope_profile_mode = profile;
    scope_profile_tables = tables;
    if (tables)
        scope_profile_ns_mult = measure_ns_mult();
}

static void table_name(char *out, size_t len, int number)
{
    char suffix[16];
    snprintf(suffix, sizeof suffix, "p%d", number);
    scope_record_shm_name(out, len, suffix);
}

/* A first write to a shared page costs microseconds: paid here for the
 * regions of the hooks installed so far and for the paths, rather than in
 * the calls that first reach them (their callers' time). */
static void populate(void *from, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)from & ~(uintptr_t)(page - 1);
    if (madvise((void *)start, bytes + ((uintptr_t)from - start), MADV_POPULATE_WRITE) == 0)
        return;
#endif
    for (size_t off = 0; off < bytes; off += 4096)
        ((volatile char *)from)[off] = 0;
}

struct scope_profile_table *scope_profile_table_create(int number)
{
    char name[96];
    table_name(name, sizeof name, number);
    struct scope_profile_table *p = scope_record_shm_create(name, sizeof(*p));
    if (!p)
        return NULL;
    memcpy(p->header.magic, SCOPE_PROFILE_MAGIC, 8);
    p->header.pid = (int32_t)getpid();
    p->header.folding = !scope_profile_mode;
    populate(p->regions, scope_rt.nhooks * sizeof(p->regions[0]));
    populate(p->paths, sizeof(p->paths) + sizeof(p->index));
    return p;
}

void scope_profile_table_remove(struct scope_profile_table *p, int number)
{
    char name[96];
    table_name(name, sizeof name, number);
    munmap(p, sizeof(*p));
    shm_unlink(name);
}
