/* process_alive.c: tells a running process from a gone, zombie or exiting
 * one through /proc/PID/stat (see process_alive.h). */
#include "process_alive.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PF_EXITING 0x4u   /* the kernel's flag of a process in exit() */

int scope_process_alive(int pid)
{
    if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM))
        return 0;
    char path[64], stat[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t got = fd >= 0 ? read(fd, stat, sizeof(stat) - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (got <= 0)
        return fd >= 0 || errno != ENOENT;   /* no /proc: trust kill() */
    stat[got] = '\0';
    /* "pid (comm) state ppid pgrp session tty_nr tpgid flags ...": comm may
     * hold spaces and parentheses, the last ')' ends it */
    const char *after = strrchr(stat, ')');
    char state;
    unsigned flags;
    if (!after || sscanf(after + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) != 2)
        return 1;
    return state != 'Z' && state != 'X' && state != 'x' && !(flags & PF_EXITING);
}
