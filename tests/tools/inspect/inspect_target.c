/* inspect_target.c: the program `scope check` and `scope symbols` inspect
 * in tests/tools/inspect: an ordinary function (hookable) and the 3-byte
 * ones of tiny.S (one hookable through the padding after it, one not), and
 * two functions of a library it calls, hookable only through its GOT
 * (../../corpus/short_lib.S). It is never run by the tests. */
#include <stdio.h>
#include <stdlib.h>

int scope_tiny(void);
int scope_padded(void);
int scope_after_tiny(void);
int sh_plt(int x);   /* ../../corpus/short_lib.S */
int sh_branch(int n);

__attribute__((noinline)) int scope_normal(int n)
{
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += i * i;
    printf("scope_normal(%d) = %d\n", n, sum);
    return sum;
}

int main(int argc, char **argv)
{
    return scope_normal(argc > 1 ? atoi(argv[1]) : 3) + scope_tiny() + scope_padded() +
                       scope_after_tiny() + sh_plt(argc) + sh_branch(argc) > 0 ? 0 : 1;
}
