/* fault_stack.h: the alternate signal stack scope's fault handler runs on
 * (fault_signals.h), so that a stack overflow still gets its backtrace. */
#ifndef SCOPE_FAULT_STACK_H
#define SCOPE_FAULT_STACK_H

/* Gives the calling thread an alternate signal stack for scope's fault
 * handler unless it has one: a stack overflow then still gets its
 * backtrace. At start for the main thread, and for every thread that makes
 * a hooked call. The stack stays when the thread ends (128 KiB of address
 * space, touched only by a fault). */
void scope_fault_stack_for_this_thread(void);

#endif
