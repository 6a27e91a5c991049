/* test_spill_ring.c: Check unit tests of a buffer's ring of slices
 * (segment.h, spill_ring.c, spill_writer.c): read back at any point, also
 * half way through writing a slice out (a crash there), the records come
 * once each and in order; two threads recording through the writer thread
 * with tiny slices lose nothing; a spill file that cannot be written or
 * made stops the ring with the reason, the records so far kept. */
#include <check.h>

#include "check_main.h"
#include "segment_decode.h"
#include "spill_ring.h"
#include "spill_writer.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CAPACITY 64            /* slices of 8 records */
#define RECORDS_MAX 200000     /* read back at most */

/* A segment in ordinary memory, its spill file in a private directory. */
struct segment {
    struct scope_segment_header *header;
    struct scope_spill_ring ring;
    char dir[64];
};

static void segment_make(struct segment *s)
{
    enum { PAGE = 4096 };   /* a segment starts on a page, as mapped */
    size_t used = SCOPE_SEGMENT_HEADER_BYTES + CAPACITY * sizeof(struct scope_record);
    size_t bytes = (used + PAGE - 1) / PAGE * PAGE;   /* aligned_alloc wants whole pages */
    s->header = aligned_alloc(PAGE, bytes);
    ck_assert_ptr_nonnull(s->header);
    memset(s->header, 0, bytes);
    s->header->capacity = CAPACITY;
    s->header->ready = CAPACITY;
    snprintf(s->dir, sizeof s->dir, "/tmp/scope-test-ring-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(s->dir));
    snprintf(s->header->spill_path, sizeof s->header->spill_path, "%s/ring.spill", s->dir);
    scope_spill_ring_init(&s->ring, s->header,
                          (struct scope_record *)((char *)s->header + SCOPE_SEGMENT_HEADER_BYTES));
}

static void segment_free(struct segment *s)
{
    if (s->ring.fd >= 0)
        close(s->ring.fd);
    unlink(s->header->spill_path);
    rmdir(s->dir);
    free(s->header);
}

/* Record number g: a call of hook 1 from g + 1 to g + 2. */
static void put_record(struct segment *s, uint64_t g)
{
    scope_record_encode(&s->ring.records[g % CAPACITY], g + 1, g + 2, 1);
}

/* Reads the segment back as the end of a run or `scope recover` does, and
 * checks that it holds records 0 .. n-1, each once, in order. */
static void expect_records(const struct segment *s, uint64_t n)
{
    struct scope_thread_records t =
        scope_thread_records_of(s->header, CAPACITY, s->header->spill_path);
    struct scope_clock_calibration ns = {0};
    struct scope_clock_map same;
    scope_clock_map_init(&same, &ns, &(struct scope_clock_offsets){0});
    static struct scope_record_reader in;
    scope_record_reader_init(&in, &t, 1, &same);
    static struct scope_event e[1024];
    uint64_t got = 0;
    char err[256];
    for (long k; (k = scope_record_reader_next(&in, e, 1024, err, sizeof err)) != 0;) {
        ck_assert_msg(k > 0, "%s", err);
        for (long i = 0; i < k; i++, got++)
            ck_assert_msg(e[i].start == (int64_t)got + 1 && e[i].end == (int64_t)got + 2,
                          "event %llu is record %lld", (unsigned long long)got,
                          (long long)e[i].start - 1);
    }
    scope_record_reader_close(&in);
    ck_assert_uint_eq(got, n);
}

/* One thread recording through the ring as thread_buffer.c does: each slice
 * filled, then on to the next one. */
static int record_through(struct segment *s, uint64_t n, char *why, size_t len)
{
    for (uint64_t g = 0; g < n; g++) {
        if (g > 0 && g % s->ring.slice == 0 && scope_spill_next_slice(&s->ring, why, len) != 0)
            return -1;
        put_record(s, g);
    }
    return 0;
}

START_TEST(every_moment_and_crash_point)
{
    struct segment s;
    segment_make(&s);
    s.ring.fd = open(s.header->spill_path, O_RDWR | O_CREAT | O_EXCL, 0600);
    ck_assert_int_ge(s.ring.fd, 0);
    size_t slice = s.ring.slice;
    struct scope_record saved[CAPACITY];
    for (uint64_t g = 0; g < 40 * slice; g++) {
        /* a slice's slots are taken once their last records are written out */
        while (g >= s.header->recycled + CAPACITY)
            ck_assert_int_eq(scope_spill_ring_write_oldest(&s.ring), 0);
        put_record(&s, g);
        expect_records(&s, g + 1);
        if ((g + 1) % slice != 0 || g + 1 < 4 * slice)
            continue;
        /* the oldest slice written to the file, the header not told yet */
        uint64_t first = s.header->spilled;
        struct scope_record *slots = s.ring.records + first % CAPACITY;
        ck_assert_int_eq(pwrite(s.ring.fd, slots, slice * sizeof(*slots),
                                (off_t)(first * sizeof(*slots))), (ssize_t)(slice * sizeof(*slots)));
        expect_records(&s, g + 1);
        /* spilled moved on, the slots not cleared yet */
        memcpy(saved, slots, slice * sizeof(*slots));
        ck_assert_int_eq(scope_spill_ring_write_oldest(&s.ring), 0);
        memcpy(slots, saved, slice * sizeof(*slots));
        s.header->recycled = first;
        expect_records(&s, g + 1);
        memset(slots, 0, slice * sizeof(*slots));
        s.header->recycled = first + slice;
        expect_records(&s, g + 1);
    }
    segment_free(&s);
}
END_TEST

START_TEST(first_pass_reads_only_ready_slots)
{
    struct segment s;
    segment_make(&s);
    s.header->ready = 16;
    for (uint64_t g = 0; g < 12; g++)
        put_record(&s, g);
    /* a slot past `ready` was never used: what lies there is not read */
    scope_record_encode(&s.ring.records[20], 999, 1000, 1);
    expect_records(&s, 12);
    segment_free(&s);
}
END_TEST

struct producer {
    struct segment s;
    uint64_t n;
    int rc;
    char why[1200];
};

static void *produce(void *arg)
{
    struct producer *p = arg;
    p->rc = record_through(&p->s, p->n, p->why, sizeof p->why);
    return NULL;
}

START_TEST(two_threads_through_the_writer)
{
    struct producer p[2];
    pthread_t id[2];
    for (int i = 0; i < 2; i++) {
        segment_make(&p[i].s);
        p[i].n = RECORDS_MAX - (uint64_t)i * 12345;   /* ends half way in a slice */
        ck_assert_int_eq(pthread_create(&id[i], NULL, produce, &p[i]), 0);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(id[i], NULL);
        ck_assert_msg(p[i].rc == 0, "%s", p[i].why);
    }
    scope_spill_writer_drain();
    for (int i = 0; i < 2; i++) {
        ck_assert_uint_gt(p[i].s.header->spilled, p[i].n - CAPACITY);
        expect_records(&p[i].s, p[i].n);
        segment_free(&p[i].s);
    }
}
END_TEST

START_TEST(a_full_disk_keeps_what_was_recorded)
{
    struct segment s;
    segment_make(&s);
    s.ring.fd = open("/dev/full", O_WRONLY);
    ck_assert_int_ge(s.ring.fd, 0);
    char why[1200] = "";
    ck_assert_int_eq(record_through(&s, RECORDS_MAX, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "No space left on device") != NULL, "%s", why);
    ck_assert_uint_eq(s.header->spilled, 0);
    /* the slice the writer failed on and every later one are still there */
    uint64_t recorded = (s.ring.current + 1) * s.ring.slice;
    ck_assert_uint_le(recorded, CAPACITY);
    close(s.ring.fd);   /* /dev/full is not the spill file, which was never made */
    s.ring.fd = -1;
    expect_records(&s, recorded);
    segment_free(&s);
}
END_TEST

START_TEST(an_open_spill_directory_is_refused)
{
    struct segment s;
    segment_make(&s);
    ck_assert_int_eq(chmod(s.dir, 0777), 0);
    char why[1200] = "";
    ck_assert_int_eq(record_through(&s, RECORDS_MAX, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "not a private directory") != NULL, "%s", why);
    ck_assert_uint_eq(s.ring.current + 1, SCOPE_SPILL_LAG);
    ck_assert_int_ne(access(s.header->spill_path, F_OK), 0);
    expect_records(&s, SCOPE_SPILL_LAG * s.ring.slice);
    segment_free(&s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("spill_ring");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_moment_and_crash_point);
    tcase_add_test(tc, first_pass_reads_only_ready_slots);
    tcase_add_test(tc, two_threads_through_the_writer);
    tcase_add_test(tc, a_full_disk_keeps_what_was_recorded);
    tcase_add_test(tc, an_open_spill_directory_is_refused);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
