/* message_log.c: prepared messages in memory, then in a file, replayed in
 * order (see message_log.h). Each message is stored as its tag and length
 * (two uint32) and its bytes. */
#include "message_log.h"

#include "grow_array.h"
#include "temp_dir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct message_head {
    uint32_t tag, len;
};

void scope_message_log_init(struct scope_message_log *log)
{
    *log = (struct scope_message_log){.fd = -1};
}

void scope_message_log_free(struct scope_message_log *log)
{
    free(log->mem);
    if (log->fd >= 0)
        close(log->fd);
    scope_message_log_init(log);
}

int scope_message_log_append(struct scope_message_log *log, int tag, const void *data, size_t len,
                             char *err, size_t errlen)
{
    struct message_head h = {(uint32_t)tag, (uint32_t)len};
    size_t need = sizeof h + len;
    if (len > log->largest)
        log->largest = len;
    if (log->fd < 0 && log->mem_len + need <= SCOPE_MESSAGE_LOG_MEMORY) {
        if (scope_grow_array((void **)&log->mem, &log->mem_cap, log->mem_len + need, 1) != 0) {
            snprintf(err, errlen, "out of memory preparing the merge");
            return -1;
        }
        memcpy(log->mem + log->mem_len, &h, sizeof h);
        memcpy(log->mem + log->mem_len + sizeof h, data, len);
        log->mem_len += need;
        return 0;
    }
    if (log->fd < 0 && (log->fd = scope_scratch_file("the merge", err, errlen)) < 0)
        return -1;
    if (scope_write_full(log->fd, &h, sizeof h) != 0 || scope_write_full(log->fd, data, len) != 0) {
        snprintf(err, errlen, "cannot write the merge's messages in %s: %s", scope_temp_dir(),
                 strerror(errno));
        return -1;
    }
    log->file_len += need;
    return 0;
}

int scope_message_log_replay(struct scope_message_log *log, scope_message_send_fn send, void *ctx,
                             char *buf, char *err, size_t errlen)
{
    struct message_head h;
    for (size_t at = 0; at < log->mem_len; at += sizeof h + h.len) {
        memcpy(&h, log->mem + at, sizeof h);
        if (send(ctx, (int)h.tag, log->mem + at + sizeof h, h.len) != 0)
            goto sent;
    }
    for (uint64_t at = 0; at < log->file_len; at += sizeof h + h.len) {
        errno = 0;
        if (scope_pread_full(log->fd, &h, sizeof h, at) != 0 || h.len > log->largest ||
            scope_pread_full(log->fd, buf, h.len, at + sizeof h) != 0) {
            snprintf(err, errlen, "cannot read back the merge's messages: %s",
                     errno ? strerror(errno) : "short file");
            return -1;
        }
        if (send(ctx, (int)h.tag, buf, h.len) != 0)
            goto sent;
    }
    return 0;
sent:
    snprintf(err, errlen, "a message to rank 0 failed");
    return -1;
}
