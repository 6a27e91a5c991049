/* stubs.S: the x86-64 entry and exit stubs of every hooked function.
 *
 * A patched function jumps to its trampoline, which pushes the hook id and
 * jumps to scope_entry_common. The stubs save every integer register a
 * function may hold live (IPA-RA callers may rely on more than the ABI says)
 * and call C compiled with -mgeneral-regs-only, so x87, SSE, AVX and AVX-512
 * state is never touched: arguments and return values of any type pass
 * through unchanged. The registers saved below the frame each stub passes
 * are read by the hot path for hooks that record their arguments (rdi, rsi,
 * rdx, rcx, r8, r9) and return value (rax): see saved_argument in
 * hot_path.c. */

        .text

/* The nine integer registers a call may clobber (72 bytes of stack). */
/* Each push and pop moves the CFA rule with it, so that an unwinder stopped
 * at any instruction of a stub (a signal handler's backtrace, a crash)
 * finds the caller. */
        .macro PUSH reg
        pushq   \reg
        .cfi_adjust_cfa_offset 8
        .endm

        .macro POP reg
        popq    \reg
        .cfi_adjust_cfa_offset -8
        .endm

        .macro SAVE_SCRATCH
        PUSH    %rax
        PUSH    %rcx
        PUSH    %rdx
        PUSH    %rsi
        PUSH    %rdi
        PUSH    %r8
        PUSH    %r9
        PUSH    %r10
        PUSH    %r11
        .endm

        .macro RESTORE_SCRATCH
        POP     %r11
        POP     %r10
        POP     %r9
        POP     %r8
        POP     %rdi
        POP     %rsi
        POP     %rdx
        POP     %rcx
        POP     %rax
        .endm

/* Stack on entry: [rsp] = hook id (pushed by the trampoline),
 * [rsp+8] = the caller's return address. scope_on_entry(frame) replaces
 * frame[0] with the address to continue at (the relocated prologue) and,
 * when it records the call, frame[1] with scope_exit_stub, and returns
 * non-zero then.
 *
 * Return prediction: the caller's call pushed its return address on the
 * CPU's return stack buffer. A recorded call enters the function through
 * a call whose return address is scope_exit_stub (scope_enter_recorded),
 * so the function's ret, which goes to scope_exit_stub, is predicted, and
 * the exit stub's own ret, to the caller, takes the caller's entry: both
 * returns predicted, whoever the caller. */
        .globl  scope_entry_common
        .hidden scope_entry_common
        .type   scope_entry_common, @function
scope_entry_common:
        .cfi_startproc
        .cfi_def_cfa_offset 16
        SAVE_SCRATCH
        subq    $8, %rsp                /* 16-byte alignment for the call */
        .cfi_adjust_cfa_offset 8
        leaq    80(%rsp), %rdi
        call    scope_on_entry
        testl   %eax, %eax              /* the pops below keep the flags */
        leaq    8(%rsp), %rsp
        .cfi_adjust_cfa_offset -8
        RESTORE_SCRATCH
        jnz     scope_enter_recorded
        leaq    8(%rsp), %rsp           /* drop the slot */
        .cfi_def_cfa_offset 8
        jmp     *-8(%rsp)               /* below rsp but inside the red zone */
        .cfi_endproc
        .size   scope_entry_common, .-scope_entry_common

/* [rsp] = where the function continues, [rsp+8] = its return-address
 * slot, holding scope_exit_stub. A call to scope_enter_function, encoded by
 * hand so that its return address is scope_exit_stub; its last four bytes
 * (the displacement) belong to the exit stub's unwind entry, so that an
 * unwinder looking up scope_exit_stub - 1 finds that entry. */
        .type   scope_enter_recorded, @function
scope_enter_recorded:
        .cfi_startproc
        .cfi_def_cfa_offset 16
        .byte   0xe8                    /* call rel32 */
        .cfi_endproc
        .size   scope_enter_recorded, .-scope_enter_recorded

/* What an unwinder sees of a hooked call: its return-address slot holds
 * scope_exit_stub, so the caller's frame is looked up at scope_exit_stub - 1,
 * which falls in the displacement below, whose unwind rules belong to this
 * entry:
 *  - CFA = rsp: the caller's stack pointer once the call has returned;
 *  - return address = the slot's content (CFA - 8), unless that is still
 *    scope_exit_stub (the 8 bytes 2 past it are the marker, which the stub
 *    jumps over): then 0, the end of the stack, for unwinders that only look
 *    (backtrace());
 *  - personality scope_exit_personality (exit_unwind.c), which an unwind
 *    that was not warned (pthread_exit, cancellation) calls first: it puts
 *    the real return address into the slot and ends the call.
 * The expression: CFA lit8 minus deref dup lit2 plus deref const8u MARKER
 * ne mul. */
        .set    EXIT_MARKER, 0x54495845504f4353      /* "SCOPEXIT" */
        .macro EXIT_UNWIND_ENTRY
        .cfi_personality 0x1b, scope_exit_personality   /* pcrel sdata4 */
        .cfi_def_cfa rsp, 0
        .cfi_escape 0x16, 0x10, 18, 0x38, 0x1c, 0x06, 0x12, 0x32, 0x22, 0x06, 0x0e
        .cfi_escape 0x53, 0x43, 0x4f, 0x50, 0x45, 0x58, 0x49, 0x54, 0x2e, 0x1e
        .endm

/* A recorded call returns here instead of to its caller. scope_on_exit gets
 * the caller's stack pointer (identifying the frame), records the call and
 * gives back the real return address, which we return to. */
        .globl  scope_exit_stub
        .hidden scope_exit_stub
        .type   scope_exit_stub, @function
        .cfi_startproc
        EXIT_UNWIND_ENTRY
        .long   scope_enter_function - scope_exit_stub
scope_exit_stub:
        .cfi_undefined rip
        jmp     1f
        .quad   EXIT_MARKER
1:      subq    $8, %rsp                /* becomes the real return address */
        .cfi_adjust_cfa_offset 8
        SAVE_SCRATCH
        leaq    80(%rsp), %rdi
        call    scope_on_exit
        movq    %rax, 72(%rsp)
        RESTORE_SCRATCH
        ret
        .cfi_endproc
        .size   scope_exit_stub, .-scope_exit_stub

/* Called from scope_enter_recorded: [rsp] = scope_exit_stub (its return
 * address), [rsp+8] = where the function continues, [rsp+16] = the slot. */
        .type   scope_enter_function, @function
scope_enter_function:
        .cfi_startproc
        .cfi_def_cfa_offset 24
        leaq    16(%rsp), %rsp
        .cfi_def_cfa_offset 8
        jmp     *-8(%rsp)               /* below rsp but inside the red zone */
        .cfi_endproc
        .size   scope_enter_function, .-scope_enter_function

        .section .note.GNU-stack,"",@progbits
