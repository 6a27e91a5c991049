/* recover_processes.h: what the processes of unfinished runs left behind,
 * found and told apart: their meta segments (mapped read-only), where each
 * one's buffer segments, spill files and copy of its maps are, and their
 * removal once a run is written. */
#ifndef SCOPE_RECOVER_PROCESSES_H
#define SCOPE_RECOVER_PROCESSES_H

#include <stddef.h>
#include <stdio.h>

#include "clock.h"
#include "process_meta.h"
#include "recover.h"

struct recover_process {
    struct scope_meta_header *meta;
    size_t meta_bytes;
    char dir[2048];           /* where its segments are: the scanned dir or a node's */
    char stem[256];           /* their names without the suffix: scope-UID-PID-TAG */
};

/* The processes of one run, sorted by rank. */
struct recover_run {
    struct recover_process *procs;
    size_t n;
};

/* Maps a file of this user (not a symlink, not someone else's) read-only;
 * NULL when it cannot. */
void *recover_map_file(const char *path, size_t *bytes);

/* Adds the meta segments of this user's processes in dir and, when nodes
 * is set, in its subdirectories (one per node, made by --gather) to
 * *out (n of cap); processes still running are said on report and left
 * out unless o->force. */
int recover_scan_processes(const struct scope_recover_options *o, const char *dir, int nodes,
                           struct recover_process **out, size_t *n, size_t *cap, FILE *report);
/* Where the segments are: --dir, else where processes leave them. */
const char *recover_segments_dir(const struct scope_recover_options *o);
/* Every process of recover_segments_dir(o), nodes included. */
int recover_find_processes(const struct scope_recover_options *o, struct recover_process **out,
                           size_t *n, FILE *report);
/* qsort order: by run, then by rank. */
int recover_by_run_then_rank(const void *a, const void *b);

/* The raw-to-ns calibration of a process: closed when it stopped cleanly,
 * else closed now. */
struct scope_clock_calibration recover_calibration(const struct scope_meta_header *m);

enum { SEGMENT_META = -1, SEGMENT_MAPS = -2 };
/* Where a process's buffer segment (buffer >= 0), meta segment or copy of
 * its maps is in dir. */
void recover_segment_path(char *out, size_t len, const char *dir, const char *stem, int buffer);
/* Where a process's peer-totals table `table` (STEM-mN,
 * preload/recording/peer_totals.h) is in dir. */
void recover_peer_table_path(char *out, size_t len, const char *dir, const char *stem, int table);
/* A thread's spill file: beside its segment when gathered there from its
 * node, else where the thread wrote it. */
void recover_spill_location(char *out, size_t len, const char *dir, const char *recorded);
/* Removes every file the process left. */
void recover_remove_segments(const struct recover_process *proc);

#endif
