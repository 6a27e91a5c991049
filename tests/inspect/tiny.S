/* tiny.S: a function too short for the 5-byte jump (3 bytes: xor eax,eax;
 * ret), for `scope check` to refuse. */
    .text
    .globl scope_tiny
    .type scope_tiny, @function
scope_tiny:
    xorl %eax, %eax
    ret
    .size scope_tiny, . - scope_tiny
    .section .note.GNU-stack, "", @progbits
