/* fault_stack.h: the alternate signal stack scope's fault handler runs on
 * (fault_signals.h), so that a stack overflow still gets its backtrace. */
#ifndef SCOPE_FAULT_STACK_H
#define SCOPE_FAULT_STACK_H

/* Gives the calling thread an alternate signal stack for scope's fault
 * handler unless it has one: at start for the main thread, and for every
 * thread that makes a hooked call. *stack is a stack made here for a
 * thread that has ended (NULL: none yet, one is made when needed); it
 * stays the caller's to hand to the next thread (128 KiB of address
 * space, touched only by a fault). */
void scope_fault_stack_install(void **stack);

/* The calling thread, about to end, stops using `stack` (from
 * scope_fault_stack_install), which may then serve another thread. */
void scope_fault_stack_release(void *stack);

#endif
