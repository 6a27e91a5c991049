/* exit_status.c: calls one function, then exits with the status given on
 * its command line, so tests can check that scope never changes a
 * program's exit status or output. Uses no MPI. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int work(int x)
{
    __asm__ volatile("");
    return x * 3 + 1;
}

int main(int argc, char **argv)
{
    int status = argc > 1 ? atoi(argv[1]) : 0;
    printf("work=%d\n", work(status));
    return status;
}
