/* segment.h: the layout of a recording buffer's shared-memory segment,
 * which outlives a crash so that `scope recover` can read what was
 * recorded: a one-page header, then the record array (all-zero slots are
 * unused), of which the first `ready` slots are in use or about to be (the
 * rest was never touched: reading it would only cost memory). Once it is
 * full, recording goes on in the spill file the header names, mapped a
 * window at a time; `spilled` says how many record slots of it are this
 * buffer's. A buffer serves one thread at a time: when its thread ends,
 * the next new thread records on into it (record.h). */
#ifndef SCOPE_SEGMENT_H
#define SCOPE_SEGMENT_H

#include <stdint.h>

#define SCOPE_SEGMENT_MAGIC "SCOPEBF1"
#define SCOPE_SEGMENT_HEADER_BYTES 4096

struct scope_segment_header {
    char magic[8];
    int32_t pid;
    int32_t thread_number;     /* its first thread (0 = the process's first) */
    int32_t tid;               /* that thread's kernel id */
    int32_t reserved;
    uint64_t capacity;         /* records after the header */
    uint64_t clock_base;       /* first raw reading of the run (for unwrapping) */
    char spill_path[1024];
    uint64_t spilled;          /* records written to the spill file */
    uint64_t dropped;          /* calls not recorded: the shadow stack was full */
    uint64_t ready;            /* records of the array in use so far */
};

#endif
