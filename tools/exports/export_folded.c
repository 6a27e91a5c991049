/* Folded stacks ("main;solve;dgemm 1234"), the input of flamegraph.pl and
 * speedscope: one line per call path with self time, in whole microseconds,
 * from the library's flame tree, under the recorded stacks when the run
 * has call sites. Paths whose self time rounds to 0 are
 * left out (their children's lines still draw them). */
#include "export.h"
#include "selection.h"

#include <inttypes.h>
#include <stdlib.h>

/* A frame name with the format's separators replaced: ';' splits frames,
 * a line break would split the line. */
static void frame(const char *name, FILE *out)
{
    for (const char *s = name; *s; s++)
        fputc(*s == ';' ? ':' : *s == '\n' || *s == '\r' ? ' ' : *s, out);
}

static int write_tree(const scope_file *f, const scope_filter *flt, int rank, FILE *out,
                      scope_error *err)
{
    size_t n = 0;
    scope_flame_node *nodes = scope_flame_tree_ex(f, flt, rank, SCOPE_FLAME_CALLSITES, &n, err);
    if (!nodes)
        return -1;
    /* nodes are depth-first: the path of node i is path[0 .. depth] */
    const char **path = malloc((n + 1) * sizeof *path);
    for (size_t i = 0; path && i < n; i++) {
        path[nodes[i].depth] = nodes[i].name;
        int64_t us = (nodes[i].self_ns + 500) / 1000;
        if (us <= 0)
            continue;
        if (rank != SCOPE_ALL_RANKS)
            fprintf(out, "rank %d;", rank);
        for (int d = 0; d <= nodes[i].depth; d++) {
            if (d > 0)
                fputc(';', out);
            frame(path[d], out);
        }
        fprintf(out, " %" PRId64 "\n", us);
    }
    if (!path)
        snprintf(err->message, sizeof err->message, "out of memory");
    free(path);
    free(nodes);
    return path ? 0 : -1;
}

int export_folded(const scope_file *f, const scope_filter *flt, bool per_rank, FILE *out,
                  scope_error *err)
{
    if (!per_rank)
        return write_tree(f, flt, SCOPE_ALL_RANKS, out, err);
    size_t n_ranks = 0;
    int *ranks = selected_ranks(f, flt, &n_ranks, err);
    int rc = ranks ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n_ranks; i++)
        rc = write_tree(f, flt, ranks[i], out, err);
    free(ranks);
    return rc;
}
