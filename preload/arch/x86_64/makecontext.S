/* makecontext.S: libscope's makecontext (LD_PRELOAD puts it before
 * libc's). It notes the new context's stack (context_stacks.c), then jumps
 * to libc's makecontext with the registers and stack as they came: the
 * variadic arguments pass through untouched, however many there are. */

        .text
        .globl  makecontext
        .type   makecontext, @function
makecontext:
        .cfi_startproc
        pushq   %rdi
        .cfi_adjust_cfa_offset 8
        pushq   %rsi
        .cfi_adjust_cfa_offset 8
        pushq   %rdx
        .cfi_adjust_cfa_offset 8
        pushq   %rcx
        .cfi_adjust_cfa_offset 8
        pushq   %r8
        .cfi_adjust_cfa_offset 8
        pushq   %r9
        .cfi_adjust_cfa_offset 8
        pushq   %rax                    /* al: vector registers used (varargs) */
        .cfi_adjust_cfa_offset 8
        call    scope_note_context_stack        /* rdi: the ucontext */
        movq    %rax, %r11
        popq    %rax
        .cfi_adjust_cfa_offset -8
        popq    %r9
        .cfi_adjust_cfa_offset -8
        popq    %r8
        .cfi_adjust_cfa_offset -8
        popq    %rcx
        .cfi_adjust_cfa_offset -8
        popq    %rdx
        .cfi_adjust_cfa_offset -8
        popq    %rsi
        .cfi_adjust_cfa_offset -8
        popq    %rdi
        .cfi_adjust_cfa_offset -8
        jmp     *%r11
        .cfi_endproc
        .size   makecontext, .-makecontext

        .section .note.GNU-stack, "", @progbits
