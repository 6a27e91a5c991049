/* run_info.h: the facts about this process and run that go into the file's
 * /metadata and /rank{N} attributes. */
#ifndef SCOPE_RUN_INFO_H
#define SCOPE_RUN_INFO_H

#include "scope_writer.h"

struct scope_run_facts {
    char hostname[256];
    char platform[256];
    char user[64];
    char cwd[4096];
    char timestamp[64];
    char command[4096];
    long pid;
};

/* Fills what this process knows (called at start, so cwd is the launch one). */
void scope_run_facts_collect(struct scope_run_facts *f);

/* A scope_run_info pointing into f. */
struct scope_run_info scope_run_info_from(const struct scope_run_facts *f, int mpi_size,
                                          int64_t run_start_time);

extern struct scope_run_facts scope_facts;

/* This process's peak resident memory (VmHWM), -1 if unknown. */
long scope_peak_memory_mib(void);

#endif
