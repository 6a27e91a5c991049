/* tiny_funcs.c: functions of 2, 3 and 4 bytes in the program itself, one
 * right after the other (no padding for the jump to borrow), not exported:
 * hooked at their call sites. They are called directly, reached by a tail
 * jump from a function that is not hooked, and once through a pointer
 * (the one call no call site shows, so not counted). Every result is
 * checked. */
#define CORPUS_MAIN
#include "corpus.h"

/* tiny_nop: rep ret (2 bytes); tiny_same(x) = x (3 bytes); tiny_next(x) =
 * x + 1 (4 bytes); 512 bytes of int3 on either side, so that every jump to
 * them has a 32-bit displacement (a short jump, within 128 bytes, cannot
 * be pointed elsewhere and is not seen). */
__asm__(".text\n"
        ".p2align 4\n"
        ".skip 512, 0xcc\n"
        ".globl tiny_nop\n.hidden tiny_nop\n.type tiny_nop, @function\n"
        "tiny_nop:\n\trep ret\n.size tiny_nop, . - tiny_nop\n"
        ".globl tiny_same\n.hidden tiny_same\n.type tiny_same, @function\n"
        "tiny_same:\n\tmovl %edi, %eax\n\tret\n.size tiny_same, . - tiny_same\n"
        ".globl tiny_next\n.hidden tiny_next\n.type tiny_next, @function\n"
        "tiny_next:\n\tleal 1(%rdi), %eax\n\tret\n.size tiny_next, . - tiny_next\n"
        ".globl tiny_after\n.hidden tiny_after\n.type tiny_after, @function\n"
        "tiny_after:\n\tmovl %edi, %eax\n\tret\n.size tiny_after, . - tiny_after\n"
        ".skip 512, 0xcc\n");

void tiny_nop(void);
int tiny_same(int x);
int tiny_next(int x);

/* Not hooked: its call to tiny_next is a tail jump at -O2. */
__attribute__((noinline)) int forward_next(int x)
{
    return tiny_next(x);
}

int (*volatile through_pointer)(int) = tiny_same;

int main(void)
{
    for (int i = 0; i < 1000; i++) {
        int x = SEED + i;
        tiny_nop();
        CHECK(tiny_same(x) == x, "tiny_same(%d)", x);
        CHECK(tiny_next(x) == x + 1, "tiny_next(%d)", x);
        CHECK(forward_next(x) == x + 1, "forward_next(%d)", x);
    }
    CHECK(through_pointer(SEED) == SEED, "through_pointer");
    puts("tiny_funcs: ok");
    return 0;
}
