/* The flame graph: the library's flame tree (calls merged by path over the
 * selected ranks), roots at the bottom, each frame as wide as its total
 * time and its children stacked on it in order of first call. */
#include "plot.h"
#include "svg.h"

#include <stdlib.h>

#define TIP_PATH_BYTES 4096   /* a tooltip's call path, "a;b;c" */
#define TIP_PATH_FRAMES 3000  /* frames of a path at most, the innermost */
#define TIP_PATH_FULL 3800    /* no frame is added to a path this long */
#define TIP_FRAME_CHARS 200   /* of each frame's name */
#define TIP_PATH_CHARS 400    /* of the path, in the tooltip */

/* The call path of node i, outermost first, into path (TIP_PATH_BYTES). */
static void tip_path(const scope_flame_node *nodes, size_t i, char *path)
{
    size_t len = 0;
    path[0] = '\0';
    for (long p = (long)i; p >= 0 && len < TIP_PATH_FRAMES; p = nodes[p].parent)
        len++;
    const char **chain = malloc(len * sizeof *chain);
    size_t k = len;
    for (long p = (long)i; chain && p >= 0 && k > 0; p = nodes[p].parent)
        chain[--k] = nodes[p].name;
    size_t at = 0;
    for (k = 0; chain && k < len && at < TIP_PATH_FULL; k++)
        at += (size_t)snprintf(path + at, TIP_PATH_BYTES - at, "%s%.*s", k ? ";" : "",
                               TIP_FRAME_CHARS, chain[k]);
    free(chain);
}

static void draw(const scope_file *f, const scope_flame_node *nodes, size_t n, size_t n_ranks,
                 FILE *out)
{
    const double x0 = PLOT_LEFT / 4, w = PLOT_WIDTH - x0 - PLOT_RIGHT;
    int64_t whole = 0;
    int max_depth = 0;
    for (size_t i = 0; i < n; i++) {
        whole += nodes[i].parent < 0 ? nodes[i].total_ns : 0;
        max_depth = nodes[i].depth > max_depth ? nodes[i].depth : max_depth;
    }
    double rows = n ? max_depth + 1 : 2;
    double base = PLOT_TOP + 24 + rows * PLOT_ROW; /* bottom of the roots */
    char title[600], label[160], tip[700], total[32], self[32], what[64];
    snprintf(what, sizeof what, n_ranks == 1 ? "Flame graph" : "Flame graph (%zu ranks merged)",
             n_ranks);
    plot_title(title, sizeof title, what, f);
    svg_begin(out, PLOT_WIDTH, base + PLOT_AXIS_HEIGHT + 12, title);
    svg_text(out, x0, PLOT_TOP + 6, "start", "small",
             "width: total time of the calls on that path; hover for details");
    plot_time_axis(out, x0, x0 + w, base, PLOT_TOP + 16, 0, (double)whole / 1e9,
                   "total time (calls of the same path merged)");
    if (n == 0)
        svg_text(out, x0 + 10, base - PLOT_ROW, "start", "small", "no calls selected");
    /* x of each node; next[i]: where node i's next child goes */
    double *x = malloc((n + 1) * sizeof *x), *next = malloc((n + 1) * sizeof *next);
    double root_next = x0;
    char *path = malloc(TIP_PATH_BYTES);
    for (size_t i = 0; x && next && path && i < n; i++) {
        const scope_flame_node *nd = &nodes[i];
        double *cursor = nd->parent < 0 ? &root_next : &next[nd->parent];
        double bw = whole > 0 ? (double)nd->total_ns / (double)whole * w : 0;
        x[i] = next[i] = *cursor;
        *cursor += bw;
        if (bw < 0.1)
            continue;
        double y = base - (nd->depth + 1) * PLOT_ROW;
        plot_duration(total, sizeof total, (double)nd->total_ns / 1e9);
        plot_duration(self, sizeof self, (double)nd->self_ns / 1e9);
        tip_path(nodes, i, path);
        snprintf(tip, sizeof tip, "%.*s: %s total (%.1f%%), %zu calls, self %s", TIP_PATH_CHARS,
                 path, total, 100.0 * (double)nd->total_ns / (double)whole, nd->calls, self);
        svg_rect(out, x[i], y, bw, PLOT_ROW - 1, plot_color(nd->region), tip);
        if (svg_fit(nd->name, bw - 6, 11, label, sizeof label))
            svg_text(out, x[i] + 3, y + PLOT_ROW - 5, "start", "bar", label);
    }
    free(path);
    free(x);
    free(next);
    svg_end(out);
}

int plot_flame(const scope_file *f, const scope_filter *flt, FILE *out, scope_error *err)
{
    size_t n = 0;
    int *ranks = malloc((scope_rank_count(f) + 1) * sizeof *ranks);
    long n_ranks = ranks ? scope_filter_ranks(f, flt, ranks, err) : -1;
    free(ranks);
    scope_flame_node *nodes = n_ranks >= 0 ? scope_flame_tree(f, flt, SCOPE_ALL_RANKS, &n, err)
                                           : NULL;
    if (!nodes)
        return -1;
    draw(f, nodes, n, (size_t)n_ranks, out);
    free(nodes);
    return 0;
}
