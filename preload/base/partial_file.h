/* partial_file.h: the file this process is writing now (the writer's
 * temporary file), which a termination signal's handler removes: a
 * finalize cut short leaves its records for `scope recover` and no
 * half-written file beside them. */
#ifndef SCOPE_PARTIAL_FILE_H
#define SCOPE_PARTIAL_FILE_H

/* path: the file being written from now on; NULL: none any more. */
void scope_partial_file_set(const char *path);
/* Removes it, if any (async-signal-safe). */
void scope_partial_file_remove(void);

#endif
