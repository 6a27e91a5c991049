/* fault_stack.c: one alternate signal stack per thread that runs hooked
 * code, for scope's fault handler (fault_stack.h); a thread's stack goes
 * to a later thread once it has ended. */
#include "fault_stack.h"

#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

/* Room for the handler, libunwind's unwinding of the faulting thread and
 * the write(2)s, above a guard page. */
#define FAULT_STACK_BYTES ((size_t)128 << 10)

static void *make_stack(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *low = mmap(NULL, FAULT_STACK_BYTES + page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (low == MAP_FAILED)
        return NULL;
    mprotect(low, page, PROT_NONE);
    return low + page;
}

void scope_fault_stack_install(void **stack)
{
    stack_t now;
    if (sigaltstack(NULL, &now) != 0 || !(now.ss_flags & SS_DISABLE))
        return;   /* the program has one: its choice */
    if (!*stack)
        *stack = make_stack();
    stack_t ss = {.ss_sp = *stack, .ss_size = FAULT_STACK_BYTES, .ss_flags = 0};
    if (*stack)
        sigaltstack(&ss, NULL);
}

void scope_fault_stack_release(void *stack)
{
    stack_t now;
    if (!stack || sigaltstack(NULL, &now) != 0 || now.ss_sp != stack)
        return;   /* not ours in use (the program set its own since) */
    stack_t off = {.ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
}
