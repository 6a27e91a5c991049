/* record_files.c: names and exclusive creation of the files a process
 * records into (see record_files.h). */
#include "record_files.h"
#include "temp_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t stem_lock = PTHREAD_MUTEX_INITIALIZER;
static char stem[64];
static pid_t stem_pid;

static unsigned random_tag(void)
{
    unsigned tag;
    if (getrandom(&tag, sizeof(tag), GRND_NONBLOCK) == (ssize_t)sizeof(tag))
        return tag;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (unsigned)now.tv_nsec ^ (unsigned)now.tv_sec ^ ((unsigned)getpid() << 16);
}

const char *scope_record_stem(void)
{
    pthread_mutex_lock(&stem_lock);
    if (stem_pid != getpid()) {
        stem_pid = getpid();
        snprintf(stem, sizeof(stem), "scope-%d-%d-%08x", (int)getuid(), (int)stem_pid,
                 random_tag());
    }
    pthread_mutex_unlock(&stem_lock);
    return stem;
}

void scope_record_shm_name(char *out, size_t len, const char *suffix)
{
    snprintf(out, len, "/%s-%s", scope_record_stem(), suffix);
}

void scope_record_buffer_shm_name(char *out, size_t len, int buffer)
{
    char number[16];
    snprintf(number, sizeof(number), "%d", buffer);
    scope_record_shm_name(out, len, number);
}

void *scope_record_shm_create(const char *name, size_t bytes)
{
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return NULL;
    void *map = ftruncate(fd, (off_t)bytes) == 0
                    ? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                    : MAP_FAILED;
    int saved = errno;
    close(fd);
    if (map == MAP_FAILED) {
        shm_unlink(name);
        errno = saved;
        return NULL;
    }
    return map;
}

int scope_record_shm_rename(const char *from, const char *to)
{
    char from_path[256], to_path[256];
    snprintf(from_path, sizeof from_path, "%s%s", SCOPE_SHM_DIR, from);
    snprintf(to_path, sizeof to_path, "%s%s", SCOPE_SHM_DIR, to);
    return rename(from_path, to_path);
}

void scope_record_spill_path(char *out, size_t len, int buffer)
{
    snprintf(out, len, "%s/scope-%d/%s-%d.spill", scope_temp_dir(), (int)getuid(),
             scope_record_stem(), buffer);
}

/* Opens the directory of the spill files, made 0700 if missing, and checks
 * that it is a directory of ours that nobody else can enter (not a symlink
 * someone planted). */
static int private_directory(const char *dir, char *err, size_t errlen)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: %s", dir,
                 errno == ELOOP || errno == ENOTDIR ? "not a directory (a symlink?), not used"
                                                    : strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
        snprintf(err, errlen, "%s belongs to uid %d with mode %03o: not a private directory, "
                 "not used", dir, (int)st.st_uid, (unsigned)(st.st_mode & 0777));
        close(fd);
        return -1;
    }
    return fd;
}

int scope_record_spill_create(const char *path, char *err, size_t errlen)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash || (size_t)(slash - path) >= sizeof(dir)) {
        snprintf(err, errlen, "%s: not a path", path);
        return -1;
    }
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    int dfd = private_directory(dir, err, errlen);
    if (dfd < 0)
        return -1;
    int fd = openat(dfd, slash + 1, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
    close(dfd);
    return fd;
}

int scope_record_parse_meta(const char *entry, int *pid, char *out, size_t len)
{
    int uid, end = 0;
    size_t n = strlen(entry);
    if (sscanf(entry, "scope-%d-%d%n", &uid, pid, &end) != 2 || uid != (int)getuid() ||
        n < 5 || strcmp(entry + n - 5, "-meta") != 0 || (size_t)end > n - 5 ||
        (entry[end] != '-' && (size_t)end != n - 5) || n - 5 >= len)
        return 0;
    memcpy(out, entry, n - 5);
    out[n - 5] = '\0';
    return 1;
}

int scope_record_open_owned(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}
