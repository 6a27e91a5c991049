/* log.h: scope's one-line messages on stderr (log.c). */
#ifndef SCOPE_LOG_H
#define SCOPE_LOG_H

#include <stddef.h>
#include <stdint.h>

/* Prints "scope: <message>" on stderr (one line). */
void scope_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, for what every rank of a job would say alike (config problems,
 * unmatched patterns, functions that cannot be hooked): only the process
 * its launcher calls rank 0 (or one started without a launcher) says it. */
void scope_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, only with SCOPE_VERBOSE. */
void scope_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* From hold to release, the calling thread's messages are kept and written
 * together (in 64 KiB writes) instead of one write each: thousands of
 * lines, one per hooked function, then cost a few system calls. One thread
 * at a time may hold (the caller's lock sees to it). */
void scope_log_hold(void);
void scope_log_release(void);
/* The lines held so far, written at once with write(2) (async-signal-safe:
 * a fault or signal while hooks are installed still shows them). */
void scope_log_write_held(void);

/* A progress line of a long step, on a terminal only: "\rscope: <msg>"
 * rewritten in place, once the step has taken (elapsed_ns) more than a
 * second; scope_progress_end ends the line if one was shown. */
void scope_progress(int64_t elapsed_ns, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void scope_progress_end(void);

/* bytes for a message: "812 B", "15.5 KiB", "3.2 MiB", "1.4 GiB". */
void scope_size_text(uint64_t bytes, char *out, size_t len);

#endif
