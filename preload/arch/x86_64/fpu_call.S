/* fpu_call.S: how the hot path (hot_path.c), which must not touch vector or
 * x87 registers, calls ordinary C: with the whole FPU state saved around
 * the call. */

        .text
/* void scope_call_saving_fpu(void (*fn)(void *), void *arg)
 * Calls fn(arg) with the whole x87/SSE/AVX/AVX-512 state saved around it
 * (xsave with the size from scope_xsave_size, or fxsave when that is 0). */
        .globl  scope_call_saving_fpu
        .hidden scope_call_saving_fpu
        .type   scope_call_saving_fpu, @function
scope_call_saving_fpu:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register rbp
        pushq   %rbx
        pushq   %r12
        .cfi_offset rbx, -24
        .cfi_offset r12, -32
        movq    %rdi, %r12
        movq    %rsi, %rbx
        movq    scope_xsave_size(%rip), %rax
        testq   %rax, %rax
        jz      1f
        subq    %rax, %rsp
        andq    $-64, %rsp
        xorl    %eax, %eax              /* the xsave header must start zeroed */
        movq    %rax, 512(%rsp)
        movq    %rax, 520(%rsp)
        movq    %rax, 528(%rsp)
        movq    %rax, 536(%rsp)
        movq    %rax, 544(%rsp)
        movq    %rax, 552(%rsp)
        movq    %rax, 560(%rsp)
        movq    %rax, 568(%rsp)
        movl    $-1, %eax
        movl    $-1, %edx
        xsave64 (%rsp)
        movq    %rbx, %rdi
        call    *%r12
        movl    $-1, %eax
        movl    $-1, %edx
        xrstor64 (%rsp)
        jmp     2f
1:      subq    $512, %rsp
        andq    $-16, %rsp
        fxsave64 (%rsp)
        movq    %rbx, %rdi
        call    *%r12
        fxrstor64 (%rsp)
2:      leaq    -16(%rbp), %rsp
        popq    %r12
        popq    %rbx
        popq    %rbp
        .cfi_def_cfa rsp, 8
        ret
        .cfi_endproc
        .size   scope_call_saving_fpu, .-scope_call_saving_fpu

        .section .note.GNU-stack,"",@progbits
