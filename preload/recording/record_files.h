/* record_files.h: the one place that names and creates the files a
 * profiled process records into, which outlive it for `scope recover`:
 *   /dev/shm/scope-UID-PID-TAG-meta   its meta segment (process_meta.h)
 *   /dev/shm/scope-UID-PID-TAG-maps   its copy of /proc/PID/maps
 *   /dev/shm/scope-UID-PID-TAG-N      its recording buffer N (segment.h)
 *   /dev/shm/scope-UID-PID-TAG-pN     buffer N's profile table (profile_table.h)
 *   /dev/shm/scope-UID-PID-TAG-mN     its peer-totals table N (peer_totals.h)
 *   $TMPDIR/scope-UID/scope-UID-PID-TAG-N.spill   that buffer's spill file
 * TAG is random, drawn once per process: a leftover of an earlier process
 * with the same pid is never reused, and a name cannot be planted in
 * advance. Everything is created exclusively (O_EXCL, never through a
 * symlink, mode 0600; the spill directory 0700, checked to be ours): a name
 * that is taken is an error, never truncated nor followed. Readers open
 * only regular files of their own user. */
#ifndef SCOPE_RECORD_FILES_H
#define SCOPE_RECORD_FILES_H

#include <stddef.h>

#define SCOPE_SHM_DIR "/dev/shm"

/* This process's name stem, "scope-UID-PID-TAG" (drawn again after a fork). */
const char *scope_record_stem(void);

/* The shm_open() name "/STEM-SUFFIX" of this process's segment (SUFFIX:
 * "meta", "maps" or a buffer number). */
void scope_record_shm_name(char *out, size_t len, const char *suffix);
void scope_record_buffer_shm_name(char *out, size_t len, int buffer);

/* Creates the segment `name` (from scope_record_shm_name) of `bytes`,
 * exclusively, and maps it shared; NULL with errno when it cannot (EEXIST:
 * the name is taken), nothing left behind. */
void *scope_record_shm_create(const char *name, size_t bytes);

/* Gives the segment `from` the name `to` (both from scope_record_shm_name),
 * replacing what had it, in one step; -1 with errno when it cannot. */
int scope_record_shm_rename(const char *from, const char *to);

/* Where buffer `buffer`'s spill file goes ($TMPDIR or /tmp). */
void scope_record_spill_path(char *out, size_t len, int buffer);

/* Creates the spill file at `path` (from scope_record_spill_path),
 * read-write, its directory made if missing; -1 with the reason in err when
 * the directory is not a private one of ours or the name is taken. */
int scope_record_spill_create(const char *path, char *err, size_t errlen);

/* For readers of a directory of segments: whether `entry` is the meta
 * segment of a process of this user; if so its pid and stem (the entry
 * without "-meta"). */
int scope_record_parse_meta(const char *entry, int *pid, char *stem, size_t len);

/* Opens `path` read-only if it is a regular file owned by this user (not a
 * symlink); -1 otherwise (errno EPERM for someone else's). */
int scope_record_open_owned(const char *path);

#endif
