/* quick_exit.c: libscope's _exit and _Exit (LD_PRELOAD puts them before
 * libc's). A process that leaves without running its exit handlers (dash
 * ends every `sh -c` so, as does the parent in daemon(), and programs that
 * skip their destructors) still writes its file, as at exit(); then it
 * leaves as libc's _exit does, by the exit_group system call. */
#include "constructor.h"

#include <sys/syscall.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default"), noreturn))

EXPORT void _exit(int status)
{
    scope_process_leaving();
    for (;;)
        syscall(SYS_exit_group, status);
}

EXPORT void _Exit(int status) __attribute__((alias("_exit")));
