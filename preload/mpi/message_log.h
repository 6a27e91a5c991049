/* message_log.h: the messages a rank will send rank 0 at MPI_Finalize,
 * prepared (encoded) before rank 0 is ready for them: kept in memory up to
 * a bound, then in an unlinked file under scope_temp_dir(), and replayed
 * in order. So every rank encodes its calls at once, in parallel, in
 * bounded memory whatever their number. */
#ifndef SCOPE_MESSAGE_LOG_H
#define SCOPE_MESSAGE_LOG_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of messages held in memory; beyond, they go to the file. */
#define SCOPE_MESSAGE_LOG_MEMORY ((size_t)16 << 20)

struct scope_message_log {
    char *mem;
    size_t mem_len, mem_cap;
    int fd;                  /* -1 until the memory is full */
    uint64_t file_len;
    size_t largest;          /* the longest message */
};

void scope_message_log_init(struct scope_message_log *log);
void scope_message_log_free(struct scope_message_log *log);

/* Appends a message (tag, len bytes). 0, or -1 with err. */
int scope_message_log_append(struct scope_message_log *log, int tag, const void *data, size_t len,
                             char *err, size_t errlen);

/* Hands every message, in order, to send (buf: room for the longest). 0,
 * or -1 with err when the file cannot be read back or send fails. */
typedef int (*scope_message_send_fn)(void *ctx, int tag, const void *data, size_t len);
int scope_message_log_replay(struct scope_message_log *log, scope_message_send_fn send, void *ctx,
                             char *buf, char *err, size_t errlen);

#endif
