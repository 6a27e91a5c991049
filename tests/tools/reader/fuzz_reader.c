/* Fuzz-style robustness test of libscope-reader: take the tutorial's file
 * (and the threaded one, that one with the statistics scope's writer
 * stores, whose calls are read after scope_open, one with call sites, and
 * one with MPI payload),
 * flip, overwrite and truncate bytes with deterministic seeds, and on every
 * mutated file call scope_open and, when it opens, every analysis, each in
 * a child process.
 *  - data mutations hit only the datasets' stored values (timestamps,
 *    thread ids, call-site ids, the call-site table, bytes, peers,
 *    messages and communicators: unsorted, negative, end before start,
 *    huge, out of range): any crash,
 *    sanitizer report or bad result fails the test;
 *  - anywhere mutations hit any byte, HDF5's own structures included:
 *    libhdf5 1.10 itself can crash on some of those inside H5Fopen/H5Fclose
 *    (not ours to fix), so a child that dies before scope_open returned is
 *    counted and reported, not failed; one that dies in the analyses (which
 *    only touch memory the reader filled) fails the test. The file with
 *    statistics gets data mutations only: its calls are read in the
 *    analyses, where a crash inside libhdf5 could not be told apart; so
 *    do the file with call sites, whose frames' strings libhdf5 could
 *    loop on, and the one with MPI payload (which has them too). A child still running after 30 s is ended and fails.
 * usage: fuzz_reader [MUTATIONS] (per fixture and kind; default 100);
 * FUZZ_KEEP=PATH keeps the first failing file there. */
#include "fixtures.h"
#include "scope_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static uint64_t rng_state;

static uint64_t next_random(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

static unsigned char *read_all(const char *p, size_t *n)
{
    FILE *in = fopen(p, "rb");
    if (!in)
        return NULL;
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    rewind(in);
    unsigned char *buf = malloc((size_t)size + 1);
    if (buf && fread(buf, 1, (size_t)size, in) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    fclose(in);
    *n = (size_t)size;
    return buf;
}

static int failures; /* in the child */

static void expect(bool ok, const char *what, unsigned seed)
{
    if (!ok) {
        fprintf(stderr, "FAIL seed %u: %s\n", seed, what);
        failures++;
    }
}

/* Where the fixture keeps its dataset values: [offset, offset + size). */
typedef struct span {
    size_t offset, size;
} span;

/* The data spans of the fixture's datasets (contiguous storage), ending
 * with {0, 0}: every region of the fixtures, on ranks 0 and 1, and the
 * call-site table's integers (not its frames: their strings are heap
 * references, whose corruption libhdf5 1.10 may loop on). */
static span *data_spans(const char *p)
{
    static const char *const regions[] = {"assemble", "checkpoint", "setup", "solve",
                                          "timestep", "work", "op<T>&\"x\"", "MPI_Allreduce"};
    static const char *const sets[] = {"start_times", "end_times", "thread_ids", "callsite_ids"};
    const size_t per_rank = sizeof regions / sizeof *regions * 4;
    span *spans = calloc(1, sizeof *spans);
    size_t n = 0;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT);
    for (size_t i = 0; spans && i <= 2 * per_rank; i++) {
        char name[128];
        if (i == 2 * per_rank)
            snprintf(name, sizeof name, "metadata/callsites");
        else
            snprintf(name, sizeof name, "rank%zu/regions/%s/%s", i / per_rank,
                     regions[i % per_rank / 4], sets[i % 4]);
        hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
        if (d < 0)
            continue;
        haddr_t at = H5Dget_offset(d);
        hsize_t size = H5Dget_storage_size(d);
        H5Dclose(d);
        if (at == HADDR_UNDEF || size == 0)
            continue;
        span *grown = realloc(spans, (n + 2) * sizeof *grown);
        if (!grown)
            break;
        spans = grown;
        spans[n++] = (span){(size_t)at, (size_t)size};
        spans[n] = (span){0, 0};
    }
    H5Fclose(file);
    return spans;
}

/* Everything a reader of the file might call. */
/* What MPI calls carried: every analysis of it, results in range. */
static void analyse_payload(scope_file *f, unsigned seed)
{
    scope_error err;
    size_t n = 0, unmatched = 0, nr = scope_region_count(f);
    free(scope_comm_matrix(f, NULL, &n, &err));
    free(scope_family_bytes(f, NULL, SCOPE_PAYLOAD_COLLECTIVE, &n, &err));
    scope_size_histogram *h = scope_message_sizes(f, NULL, &n, &err);
    for (size_t i = 0; h && i < n; i++)
        expect(h[i].region < nr && h[i].min_bytes <= h[i].max_bytes, "size histogram", seed);
    free(h);
    scope_message_flow *fl = scope_message_flows(f, &n, &unmatched, &err);
    for (size_t i = 0; fl && i < n; i++)
        expect(fl[i].send_region < nr && fl[i].recv_region < nr &&
               fl[i].send_call < scope_region_calls(f, fl[i].send_region, fl[i].sender) &&
               fl[i].recv_call < scope_region_calls(f, fl[i].recv_region, fl[i].receiver),
               "message flow", seed);
    free(fl);
    for (size_t r = 0; r < nr; r++)
        for (size_t k = 0; k < scope_rank_count(f); k++) {
            int rank = scope_rank_id(f, k);
            const scope_payload *p = scope_region_payload(f, r, rank, &err);
            expect(!p || p->count == scope_region_calls(f, r, rank), "payload calls", seed);
        }
}

static void analyse(scope_file *f, unsigned seed)
{
    scope_error err;
    size_t n = 0, nr = scope_region_count(f);
    for (size_t r = 0; r < nr; r++)
        expect(scope_region_name(f, r) != NULL, "region name", seed);
    free(scope_summary(f, NULL, &n, &err));
    scope_event *ev = scope_events(f, NULL, &n, &err);
    expect(!ev || n <= scope_event_count(f), "event count", seed);
    for (size_t i = 0; ev && i < n; i++)
        expect(ev[i].region < nr && ev[i].parent_id < (long)scope_event_count(f), "event", seed);
    free(ev);
    for (unsigned flags = 0; flags <= SCOPE_FLAME_CALLSITES; flags += SCOPE_FLAME_CALLSITES) {
        scope_flame_node *fl = scope_flame_tree_ex(f, NULL, SCOPE_ALL_RANKS, flags, &n, &err);
        for (size_t i = 0; fl && i < n; i++)
            expect(fl[i].region < nr && fl[i].parent < (long)i, "flame node", seed);
        free(fl);
    }
    scope_callsite_stats *cs = scope_callsites(f, NULL, &n, &err);
    for (size_t i = 0; cs && i < n; i++) {
        char label[256];
        const scope_frame *fr = scope_callsite_frame(f, (size_t)cs[i].callsite, 0);
        expect(cs[i].region < nr && cs[i].callsite < (long)scope_callsite_count(f) &&
               (cs[i].callsite < 0 || (fr && scope_frame_label(fr, label, sizeof label))),
               "call site", seed);
    }
    free(cs);
    int64_t *self = malloc((nr + 1) * sizeof *self);
    for (size_t k = 0; self && k < scope_rank_count(f); k++) {
        int rank = scope_rank_id(f, k);
        scope_call *calls = scope_call_stack(f, rank, &n, &err);
        scope_children ch = {0};
        if (calls && scope_call_stack_children(calls, n, &ch, &err) == 0)
            scope_children_free(&ch);
        size_t n_roots = 0;
        free(calls ? scope_call_stack_roots(calls, n, &n_roots) : NULL);
        free(calls);
        scope_self_times_ns(f, rank, self, &err);
        free(scope_flame_tree(f, NULL, rank, &n, &err));
    }
    free(self);
    for (size_t r = 0; r < nr; r++) {
        scope_imbalance im;
        scope_region_imbalance(f, r, NULL, &im, &err);
    }
    analyse_payload(f, seed);
    (void)scope_time_span(f);
    (void)scope_startup_time(f);
    for (size_t i = 0; i < scope_metadata_count(f); i++)
        expect(scope_metadata(f, i)->text != NULL, "metadata text", seed);
}

/* A byte offset to mutate: anywhere, or inside one of the data spans. */
static size_t pick(size_t size, const span *spans)
{
    if (!spans)
        return (size_t)(next_random() % size);
    size_t n = 0;
    while (spans[n].size)
        n++;
    const span *sp = &spans[next_random() % n];
    return sp->offset + (size_t)(next_random() % sp->size);
}

static void mutate(unsigned char *buf, size_t size, size_t *len, const span *spans)
{
    unsigned edits = 1 + (unsigned)(next_random() % 8);
    for (unsigned e = 0; e < edits; e++) {
        size_t at = pick(size, spans);
        switch (next_random() % 4) {
        case 0: /* flip one bit */
            buf[at] ^= (unsigned char)(1u << (next_random() % 8));
            break;
        case 1: /* a random byte */
            buf[at] = (unsigned char)next_random();
            break;
        case 2: /* all zeros or all ones over a few bytes */
            for (size_t k = 0; k < 8 && at + k < size; k++)
                buf[at + k] = (next_random() & 1) ? 0xff : 0x00;
            break;
        default: /* truncate, now and then (only anywhere: it fails early) */
            if (!spans && next_random() % 4 == 0)
                *len = at;
            break;
        }
    }
}

enum { CHILD_OK = 0, CHILD_FAILED = 3, CHILD_SECONDS = 30 };

/* In the child: open, analyse; the byte on fd says scope_open returned. */
static int child(const char *mutant, unsigned seed, int fd)
{
    alarm(CHILD_SECONDS);   /* a hang ends the child (SIGALRM), never the test */
    scope_error err = {{0}};
    scope_file *f = scope_open(mutant, &err);
    if (write(fd, "o", 1) != 1)
        return CHILD_FAILED;
    if (f) {
        analyse(f, seed);
        scope_close(f);
    } else {
        expect(err.message[0] != '\0' && strchr(err.message, '\n') == NULL,
               "one-line message", seed);
        if (failures)
            fprintf(stderr, "  message: '%s'\n", err.message);
    }
    return failures ? CHILD_FAILED : CHILD_OK;
}

typedef struct tally {
    unsigned runs, opened, hdf5_crashes, failed;
} tally;

static int fuzz(const char *fixture, const char *mutant, unsigned mutations, unsigned base,
                bool anywhere, tally *t)
{
    size_t size = 0;
    unsigned char *orig = read_all(fixture, &size), *buf = malloc(size + 1);
    span *spans = anywhere ? NULL : data_spans(fixture);
    if (!orig || !buf || size == 0 || (!anywhere && (!spans || !spans[0].size))) {
        fprintf(stderr, "cannot read %s\n", fixture);
        return -1;
    }
    for (unsigned seed = base; seed < base + mutations; seed++) {
        rng_state = 0x9e3779b97f4a7c15ULL * (seed + 1);
        memcpy(buf, orig, size);
        size_t len = size;
        mutate(buf, size, &len, spans);
        FILE *out = fopen(mutant, "wb");
        if (!out || fwrite(buf, 1, len, out) != len || fclose(out) != 0) {
            fprintf(stderr, "cannot write %s\n", mutant);
            return -1;
        }
        int fds[2];
        if (pipe(fds) != 0)
            return -1;
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            _exit(child(mutant, seed, fds[1]));
        }
        close(fds[1]);
        char mark = 0;
        bool returned = read(fds[0], &mark, 1) == 1;
        close(fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        bool ok = WIFEXITED(status) && WEXITSTATUS(status) == CHILD_OK;
        t->runs++;
        if (ok)
            continue;
        if (anywhere && !returned && !(WIFEXITED(status) && WEXITSTATUS(status) == CHILD_FAILED)) {
            t->hdf5_crashes++;
            continue;
        }
        fprintf(stderr, "FAIL %s seed %u (%s mutation): %s %d\n", fixture, seed,
                anywhere ? "anywhere" : "data", WIFSIGNALED(status) ? "signal" : "exit",
                WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        t->failed++;
        const char *keep = getenv("FUZZ_KEEP"); /* keep the first failing file */
        if (keep && t->failed == 1)
            rename(mutant, keep);
    }
    free(spans);
    free(orig);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned mutations = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 100;
    char fixture[256], mutant[256];
    snprintf(fixture, sizeof fixture, "/tmp/scope-fuzz-%d.h5", (int)getpid());
    snprintf(mutant, sizeof mutant, "/tmp/scope-fuzz-%d-mutant.h5", (int)getpid());
    tally t = {0};
    int rc = 0;
    for (int fx = 0; rc == 0 && fx < 5; fx++) {
        if (fx == 0)
            fx_tutorial(fixture, true);
        else if (fx == 3)
            fx_callsites(fixture, FX_SITE_OK);
        else if (fx == 4)
            fx_payload(fixture, FX_PAYLOAD_OK);
        else
            fx_threads(fixture);
        if (fx == 2)
            fx_add_stats(fixture);
        for (int anywhere = 0; rc == 0 && anywhere < (fx >= 2 ? 1 : 2); anywhere++)
            rc = fuzz(fixture, mutant, mutations, (unsigned)(fx * 100000 + anywhere * 50000),
                      anywhere, &t);
    }
    unlink(fixture);
    unlink(mutant);
    printf("%u mutated files: %u failed, %u crashed inside libhdf5's open/close "
           "(anywhere mutations; not counted)\n", t.runs, t.failed, t.hdf5_crashes);
    return rc == 0 && t.failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
