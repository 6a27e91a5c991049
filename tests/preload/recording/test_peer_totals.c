/* test_peer_totals.c: Check unit tests for the per-thread peer totals in
 * shared memory (peer_totals.h): 3000 keys (grown from 64 slots to 8192 by
 * copies renamed over the old) read back exactly, both by
 * scope_peer_totals_collect and from the segment STEM-m0 as `scope
 * recover` reads it, no STEM-m0-next left; a second thread's table is
 * STEM-m1; removal unlinks both and drops later adds. */
#include <check.h>

#include "check_main.h"
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "peer_totals.h"
#include "record_files.h"

#define HOOKS 3
#define PEERS 500

static void segment_path(char *out, size_t len, const char *suffix)
{
    snprintf(out, len, "%s/%s-%s", SCOPE_SHM_DIR, scope_record_stem(), suffix);
}

/* Key (hook h, peer p, direction d) gets 1 + p % 3 messages of 8 + h bytes. */
static void add_all(void)
{
    for (uint32_t h = 0; h < HOOKS; h++)
        for (int32_t p = 0; p < PEERS; p++)
            for (int d = 0; d < 2; d++)
                for (int m = 0; m <= p % 3; m++)
                    scope_peer_totals_add(h, p, (enum scope_peer_direction)d, 8 + h);
}

#define OTHER_HOOK 7   /* the second thread's one message: 100 bytes to rank 1 */

static void check_total(const struct scope_peer_total *t)
{
    if (t->hook == OTHER_HOOK) {
        ck_assert_int_eq(t->peer, 1);
        ck_assert_uint_eq(t->messages, 1);
        ck_assert_uint_eq(t->bytes, 100);
        return;
    }
    ck_assert_uint_lt(t->hook, HOOKS);
    ck_assert_int_lt(t->peer, PEERS);
    ck_assert_uint_eq(t->messages, 1 + (uint64_t)t->peer % 3);
    ck_assert_uint_eq(t->bytes, t->messages * (8 + t->hook));
}

/* The used slots of segment STEM-SUFFIX, checked; how many. */
static size_t check_segment(const char *suffix)
{
    char path[256];
    segment_path(path, sizeof path, suffix);
    int fd = open(path, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    const struct scope_peer_table_header *h =
        mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    ck_assert_ptr_ne(h, MAP_FAILED);
    ck_assert_mem_eq(h->magic, SCOPE_PEER_TABLE_MAGIC, 8);
    ck_assert_int_eq(h->pid, getpid());
    ck_assert_uint_eq((size_t)st.st_size, scope_peer_table_bytes(h->capacity));
    const struct scope_peer_total *slot = (const void *)(h + 1);
    size_t used = 0;
    for (uint64_t i = 0; i < h->capacity; i++)
        if (slot[i].messages) {
            check_total(&slot[i]);
            used++;
        }
    ck_assert_uint_eq(used, h->used);
    munmap((void *)h, (size_t)st.st_size);
    return used;
}

static void *other_thread(void *arg)
{
    (void)arg;
    scope_peer_totals_add(OTHER_HOOK, 1, SCOPE_PEER_SENT, 100);
    return NULL;
}

START_TEST(totals_survive_in_their_segments)
{
    add_all();
    char path[256];
    ck_assert_uint_eq(check_segment("m0"), HOOKS * PEERS * 2);
    segment_path(path, sizeof path, "m0-next");
    ck_assert_int_ne(access(path, F_OK), 0);

    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, other_thread, NULL), 0);
    pthread_join(t, NULL);
    struct scope_peer_total *all;
    size_t n;
    ck_assert_int_eq(scope_peer_totals_collect(&all, &n), 0);
    ck_assert_uint_eq(n, HOOKS * PEERS * 2 + 1);
    size_t others = 0;
    for (size_t i = 0; i < n; i++) {
        others += all[i].hook == OTHER_HOOK;
        check_total(&all[i]);
    }
    free(all);
    ck_assert_uint_eq(others, 1);
    ck_assert_uint_eq(check_segment("m1"), 1);

    scope_peer_totals_remove();
    segment_path(path, sizeof path, "m0");
    ck_assert_int_ne(access(path, F_OK), 0);
    segment_path(path, sizeof path, "m1");
    ck_assert_int_ne(access(path, F_OK), 0);
    scope_peer_totals_add(0, 0, SCOPE_PEER_SENT, 1);
    ck_assert_int_eq(scope_peer_totals_collect(&all, &n), 0);
    ck_assert_uint_eq(n, 0);
    free(all);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("peer_totals");
    TCase *tc = tcase_create("peer_totals");
    tcase_add_test(tc, totals_survive_in_their_segments);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
