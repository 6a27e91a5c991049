/* partial_file.c: one path, published only once complete, so that a
 * signal handler reading it never sees half a name. */
#include "partial_file.h"

#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static char partial[PATH_MAX];
static volatile sig_atomic_t published;

void scope_partial_file_set(const char *path)
{
    published = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (!path || strlen(path) >= sizeof(partial))
        return;
    memcpy(partial, path, strlen(path) + 1);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    published = 1;
}

void scope_partial_file_remove(void)
{
    if (published)
        unlink(partial);
}
