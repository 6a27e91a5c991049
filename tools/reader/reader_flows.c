/* Messages matched from send to receive: every message row of the file
 * (both sides), sorted by (sender, receiver, communicator, tag) and, within
 * that, by the time of its call; the k-th send of a key goes with its k-th
 * receive, as MPI's non-overtaking rule has it. */
#include "reader_internal.h"

#include <stdlib.h>

/* One side of a message: the row of a send (on the sender) or of a
 * completed receive (on the receiver). */
typedef struct message_end {
    int sender, receiver, comm, tag;
    int64_t start_ns;  /* of its call */
    size_t region, call, row;
    int64_t bytes;
} message_end;

static int cmp_key(const message_end *x, const message_end *y)
{
    const int a[] = {x->sender, x->receiver, x->comm, x->tag};
    const int b[] = {y->sender, y->receiver, y->comm, y->tag};
    for (int i = 0; i < 4; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static int cmp_end(const void *pa, const void *pb)
{
    const message_end *x = pa, *y = pb;
    int c = cmp_key(x, y);
    if (c)
        return c;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    if (x->region != y->region)
        return x->region < y->region ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

static int cmp_flow(const void *pa, const void *pb)
{
    const scope_message_flow *x = pa, *y = pb;
    if (x->sender != y->sender)
        return x->sender < y->sender ? -1 : 1;
    if (x->send_region != y->send_region) /* then by the send's call, through its order */
        return x->send_region < y->send_region ? -1 : 1;
    return (x->send_call > y->send_call) - (x->send_call < y->send_call);
}

/* Every message row of the series with message rows, into sends and
 * receives (room for all rows in each). */
static void collect(const scope_file *f, message_end *sends, size_t *n_sends,
                    message_end *recvs, size_t *n_recvs)
{
    for (size_t r = 0; r < f->n_regions; r++)
        for (size_t ri = 0; ri < f->n_ranks; ri++) {
            const series *s = reader_series(f, r, ri);
            if (!s || !s->has_messages)
                continue;
            const scope_payload *p = reader_payload_of(s);
            for (size_t i = 0; i < p->n_messages; i++) {
                bool sent = p->msg_kind[i] == 0;
                size_t call = (size_t)p->msg_call[i];
                message_end e = {
                    .sender = sent ? f->ranks[ri] : p->msg_peer[i],
                    .receiver = sent ? p->msg_peer[i] : f->ranks[ri],
                    .comm = p->msg_comm[i], .tag = p->msg_tag[i],
                    .start_ns = s->pub.start_ns[call], .region = r, .call = call, .row = i,
                    .bytes = p->msg_bytes[i],
                };
                if (sent)
                    sends[(*n_sends)++] = e;
                else
                    recvs[(*n_recvs)++] = e;
            }
        }
}

/* The calls and payload of every series with message rows. */
static int load_messages(const scope_file *f, size_t *rows, scope_error *err)
{
    series **list = calloc(f->n_regions * f->n_ranks + 1, sizeof *list);
    if (!list)
        return reader_fail(err, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < f->n_regions * f->n_ranks; i++)
        if (f->table[i] && f->table[i]->has_messages)
            list[n++] = f->table[i];
    int rc = reader_load_list(f, list, n, err);
    if (rc == 0)
        rc = reader_load_payload(f, NULL, NULL, PAYLOAD_MESSAGES, err);
    *rows = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        *rows += reader_payload_of(list[i])->n_messages;
    free(list);
    return rc;
}

scope_message_flow *scope_message_flows(const scope_file *f, size_t *count, size_t *unmatched,
                                        scope_error *err)
{
    size_t rows = 0, n_sends = 0, n_recvs = 0, n = 0;
    int rc = load_messages(f, &rows, err);
    message_end *sends = rc == 0 ? malloc((rows + 1) * sizeof *sends) : NULL;
    message_end *recvs = rc == 0 ? malloc((rows + 1) * sizeof *recvs) : NULL;
    scope_message_flow *out = rc == 0 ? malloc((rows + 1) * sizeof *out) : NULL;
    if (rc == 0 && (!sends || !recvs || !out))
        rc = reader_fail(err, "out of memory");
    if (rc == 0) {
        collect(f, sends, &n_sends, recvs, &n_recvs);
        qsort(sends, n_sends, sizeof *sends, cmp_end);
        qsort(recvs, n_recvs, sizeof *recvs, cmp_end);
    }
    size_t i = 0, k = 0;
    while (rc == 0 && i < n_sends && k < n_recvs) {
        int c = cmp_key(&sends[i], &recvs[k]);
        if (c < 0) {
            i++;
        } else if (c > 0) {
            k++;
        } else {
            const message_end *s = &sends[i++], *r = &recvs[k++];
            out[n++] = (scope_message_flow){
                .sender = s->sender, .receiver = s->receiver, .comm = s->comm, .tag = s->tag,
                .bytes = s->bytes, .send_region = s->region, .send_call = s->call,
                .recv_region = r->region, .recv_call = r->call,
            };
        }
    }
    free(sends);
    free(recvs);
    if (rc < 0) {
        free(out);
        return NULL;
    }
    qsort(out, n, sizeof *out, cmp_flow);
    *count = n;
    *unmatched = n_sends + n_recvs - 2 * n;
    return out;
}
