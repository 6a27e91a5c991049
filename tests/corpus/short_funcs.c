/* short_funcs.c: calls the functions of short_lib.S from the executable
 * (through its PLT), each 1000 times, and checks every result: the one
 * hooked through the padding after it and the two hooked through GOTs. */
#define CORPUS_MAIN
#include "corpus.h"

int sh_padded(int x);
int sh_plt(int x);
int sh_branch(int n);

int main(void)
{
    for (int i = 0; i < 1000; i++) {
        int x = SEED + i, n = x % 50;
        CHECK(sh_padded(x) == x + 1, "sh_padded(%d)", x);
        CHECK(sh_plt(x) == x + 2, "sh_plt(%d)", x);
        CHECK(sh_branch(n) == n * (n + 1) / 2, "sh_branch(%d)", n);
    }
    puts("short_funcs: ok");
    return 0;
}
