/* temp_dir.h: where scope puts temporary files: $TMPDIR when set and not
 * empty, else /tmp (the one place that says so), and the unlinked scratch
 * files it keeps there. */
#ifndef SCOPE_TEMP_DIR_H
#define SCOPE_TEMP_DIR_H

#include <stddef.h>
#include <stdint.h>

const char *scope_temp_dir(void);

/* A new file in scope_temp_dir(), already unlinked (it goes away with its
 * descriptor), for `purpose` ("sorting"); -1 with err. */
int scope_scratch_file(const char *purpose, char *err, size_t errlen);

/* All of len bytes written to / read from fd (at `at`), retried when
 * interrupted; -1 on error or end of file (errno set, 0 at the end). */
int scope_write_full(int fd, const void *p, size_t len);
int scope_pwrite_full(int fd, const void *p, size_t len, uint64_t at);
int scope_pread_full(int fd, void *p, size_t len, uint64_t at);

#endif
