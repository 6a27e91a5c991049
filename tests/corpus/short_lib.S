/* short_lib.S: a shared library of functions the inline patch cannot take
 * as they are, called from the corpus programs short_funcs.c and
 * dlopen_runpath.c (x in edi, result in eax):
 *   sh_padded(x) = x + 1   4 bytes, then int3 padding: the jump borrows it
 *   sh_plt(x)    = x + 2   4 bytes, directly followed by another function:
 *                          exported, so hooked through the callers' GOTs
 *   sh_branch(n) = 1 + 2 + ... + n (n itself when n <= 0), a loop whose
 *                          back branch lands inside the first 5 bytes:
 *                          through the GOTs as well */
    .text
    .globl sh_padded
    .type sh_padded, @function
    .p2align 4
sh_padded:
    leal 1(%rdi), %eax
    ret
    .size sh_padded, . - sh_padded
    .p2align 4, 0xcc

    .globl sh_plt
    .type sh_plt, @function
sh_plt:
    leal 2(%rdi), %eax
    ret
    .size sh_plt, . - sh_plt

    .globl sh_plt_next
    .type sh_plt_next, @function
sh_plt_next:
    movl %edi, %eax
    addl $3, %eax
    ret
    .size sh_plt_next, . - sh_plt_next

    .globl sh_branch
    .type sh_branch, @function
    .p2align 4
sh_branch:
    xorl %eax, %eax
1:  addl %edi, %eax
    decl %edi
    jg 1b
    ret
    .size sh_branch, . - sh_branch
    .section .note.GNU-stack, "", @progbits
