/* fault_stack.c: one alternate signal stack per thread that runs hooked
 * code, for scope's fault handler (fault_stack.h). */
#include "fault_stack.h"

#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

/* Room for the handler, libunwind's unwinding of the faulting thread and
 * the write(2)s, above a guard page. */
#define FAULT_STACK_BYTES ((size_t)128 << 10)

void scope_fault_stack_for_this_thread(void)
{
    stack_t now;
    if (sigaltstack(NULL, &now) != 0 || !(now.ss_flags & SS_DISABLE))
        return;   /* the program has one: its choice */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *low = mmap(NULL, FAULT_STACK_BYTES + page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (low == MAP_FAILED)
        return;
    mprotect(low, page, PROT_NONE);
    stack_t ss = {.ss_sp = low + page, .ss_size = FAULT_STACK_BYTES, .ss_flags = 0};
    if (sigaltstack(&ss, NULL) != 0)
        munmap(low, FAULT_STACK_BYTES + page);
}
