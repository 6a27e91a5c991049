/* call_via.S: calls a function so that the return address it sees is a
 * given `ret` instruction (in another module), which then returns here.
 * For dlopen and dlmopen, which pick the caller's RUNPATH and namespace by
 * their return address: they must see an address in the caller's module,
 * not in libscope.
 *
 * void *scope_call_via(uintptr_t a0, uintptr_t a1, uintptr_t a2,
 *                      void *fn, const void *ret_instruction);
 * calls fn(a0, a1, a2) and returns what it returns. */

        .text
        .globl  scope_call_via
        .hidden scope_call_via
        .type   scope_call_via, @function
scope_call_via:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register rbp
        subq    $8, %rsp                /* fn is entered as after a call: rsp = 8 mod 16 */
        leaq    1f(%rip), %rax
        pushq   %rax                    /* where the ret instruction returns to */
        pushq   %r8                     /* fn's return address: the ret instruction */
        jmp     *%rcx
1:      leave
        .cfi_def_cfa rsp, 8
        ret
        .cfi_endproc
        .size   scope_call_via, .-scope_call_via

        .section .note.GNU-stack, "", @progbits
