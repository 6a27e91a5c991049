/* tiny.S: functions shorter than the 5-byte jump (3 bytes: xor eax,eax;
 * ret): scope_padded is followed by int3 padding up to the next function,
 * which the jump may borrow; scope_tiny and scope_orphan directly by
 * another function: scope_tiny, which main calls, is hooked at that call;
 * scope_orphan, called by nothing, `scope check` refuses. scope_split has its unlikely part split off
 * as GCC does, scope_split.cold: a fragment jumped into, not a function. */
    .text
    .globl scope_padded
    .type scope_padded, @function
    .p2align 4
scope_padded:
    xorl %eax, %eax
    ret
    .size scope_padded, . - scope_padded
    .p2align 4, 0xcc

    .globl scope_tiny
    .type scope_tiny, @function
scope_tiny:
    xorl %eax, %eax
    ret
    .size scope_tiny, . - scope_tiny

    .globl scope_orphan
    .type scope_orphan, @function
scope_orphan:
    xorl %eax, %eax
    ret
    .size scope_orphan, . - scope_orphan

    .globl scope_after_tiny
    .type scope_after_tiny, @function
scope_after_tiny:
    movl $1, %eax
    ret
    .size scope_after_tiny, . - scope_after_tiny

    .globl scope_split
    .type scope_split, @function
    .p2align 4
scope_split:
    testl %edi, %edi
    jne scope_split.cold
    movl $2, %eax
    ret
    .size scope_split, . - scope_split

    .type scope_split.cold, @function
scope_split.cold:
    movl $3, %eax
    ret
    .size scope_split.cold, . - scope_split.cold
    .section .note.GNU-stack, "", @progbits
