/* tiny.S: functions shorter than the 5-byte jump (3 bytes: xor eax,eax;
 * ret): scope_padded is followed by int3 padding up to the next function,
 * which the jump may borrow; scope_tiny directly by another function, so
 * `scope check` refuses it. */
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

    .globl scope_after_tiny
    .type scope_after_tiny, @function
scope_after_tiny:
    movl $1, %eax
    ret
    .size scope_after_tiny, . - scope_after_tiny
    .section .note.GNU-stack, "", @progbits
