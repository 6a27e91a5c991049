/* daemon.c: libscope's daemon() (LD_PRELOAD puts it before libc's).
 * glibc's leaves the calling process through its own internal _exit,
 * which no interposer sees: that process's file would never be written.
 * This one does what glibc's does — fork; the parent leaves by _exit
 * (libscope's, which writes its file first); the child starts a session,
 * moves to / unless nochdir, and points 0, 1 and 2 at /dev/null unless
 * noclose — with every step visible. The child records on its own, like
 * any forked child. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static int null_onto_standard_fds(void)
{
    int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode)) {
        close(fd);
        errno = ENODEV;
        return -1;
    }
    for (int target = 0; target <= 2; target++)
        if (fd != target)
            dup2(fd, target);
    if (fd > 2)
        close(fd);
    return 0;
}

EXPORT int daemon(int nochdir, int noclose)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid > 0)
        _exit(0);
    if (setsid() < 0)
        return -1;
    if (!nochdir && chdir("/") != 0) {
        /* as glibc: a failed chdir does not fail daemon() */
    }
    return noclose ? 0 : null_onto_standard_fds();
}
