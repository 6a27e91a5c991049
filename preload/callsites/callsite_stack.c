/* callsite_stack.c: unwinds a new call's stack and numbers it for its
 * thread (callsite_stack.h). The thread's table is one mapping taken on
 * first use (mmap, safe in a signal handler); when it is full it starts
 * again from number 0, and the numbers are defined anew as stacks recur
 * (unless the numbers must be kept: then a new stack gets none). */
#include "callsite_stack.h"
#include "libunwind_local.h"
#include "thread_state.h"

#include <string.h>
#include <sys/mman.h>

#define STACKS SCOPE_THREAD_STACKS
#define INDEX_SLOTS (2 * STACKS)   /* open addressing, a power of two */

struct stack_entry {
    uint32_t n;
    uint64_t addrs[SCOPE_CALLSITE_MAX_DEPTH];
};

struct scope_stack_table {
    uint32_t count;
    uint16_t index[INDEX_SLOTS];   /* 1 + number, 0 empty */
    struct stack_entry stacks[STACKS];
};

static uint64_t hash_stack(const uint64_t *addrs, uint32_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ addrs[i]) * 0xff51afd7ed558ccdu;
    return h ^ (h >> 29);
}

static struct scope_stack_table *table_of(struct scope_thread *t)
{
    if (!t->stacks) {
        void *m = mmap(NULL, sizeof(struct scope_stack_table), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        t->stacks = m == MAP_FAILED ? NULL : m;
    }
    return t->stacks;
}

/* The stack's number in the table, added (is_new) if it is not there;
 * none (n = 0) when it is new and the full table's numbers are kept. */
static void number_stack(struct scope_stack_table *s, struct scope_stack_capture *c)
{
    if (s->count == STACKS && !c->keep_numbers) {
        memset(s->index, 0, sizeof(s->index));
        s->count = 0;
    }
    size_t bytes = c->n * sizeof(c->addrs[0]);
    for (uint64_t i = hash_stack(c->addrs, c->n);; i++) {
        uint16_t *slot = &s->index[i & (INDEX_SLOTS - 1)];
        if (*slot == 0 && s->count == STACKS) {
            c->n = 0;
            return;
        }
        if (*slot == 0) {
            struct stack_entry *e = &s->stacks[s->count];
            e->n = c->n;
            memcpy(e->addrs, c->addrs, bytes);
            *slot = (uint16_t)(1 + s->count);
            c->number = s->count++;
            c->is_new = 1;
            return;
        }
        const struct stack_entry *e = &s->stacks[*slot - 1];
        if (e->n == c->n && memcmp(e->addrs, c->addrs, bytes) == 0) {
            c->number = *slot - 1u;
            c->is_new = 0;
            return;
        }
    }
}

void scope_callsite_capture(void *arg)
{
    struct scope_stack_capture *c = arg;
    c->n = 0;
    c->met_exit_stub = 0;
    struct scope_stack_table *table = table_of(c->thread);
    if (!scope_unw.backtrace || !table)
        return;
    void *ips[SCOPE_CALLSITE_OWN_FRAMES + SCOPE_CALLSITE_MAX_DEPTH];
    int got = scope_unw.backtrace(ips, (int)(SCOPE_CALLSITE_OWN_FRAMES + c->depth));
    for (int i = 0; i < got; i++)
        if ((uintptr_t)ips[i] == scope_exit_stub_address) {
            c->met_exit_stub = 1;
            return;
        }
    uint64_t caller = *c->slot;
    int first = 0;
    while (first < got && (uint64_t)(uintptr_t)ips[first] != caller)
        first++;
    if (first > SCOPE_CALLSITE_OWN_FRAMES)
        return;   /* the unwind lost its way in scope's own frames */
    for (int i = first; i < got && c->n < c->depth; i++)
        c->addrs[c->n++] = (uint64_t)(uintptr_t)ips[i];
    if (c->n > 0)
        number_stack(table, c);
}
