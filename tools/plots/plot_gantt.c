/* The Gantt chart: one lane per rank and thread, a bar per call coloured by
 * region, nested calls in rows below their callers (by depth, counting only
 * the regions shown), time framed on the first region entry like the
 * seed's plot_* functions, a time axis and a legend; with MPI payload a
 * line from each matched send to the call that received it. */
#include "grow_array.h"
#include "plot.h"
#include "selection.h"
#include "svg.h"

#include <stdlib.h>

typedef struct lane {
    int rank, thread;
    int rows; /* deepest visible depth + 1 */
} lane;

typedef struct rank_calls {
    int rank;
    scope_call *calls;
    int *depth; /* depth among the kept calls, -1 for calls not shown */
    size_t n;
    /* where call c of region r is in calls: at[first[r] + c] */
    size_t *first, *at;
} rank_calls;

typedef struct gantt {
    const scope_file *f;
    const bool *keep;
    rank_calls *ranks;
    size_t n_ranks;
    lane *lanes;
    double *lane_y; /* the top of each lane */
    size_t n_lanes, cap_lanes;
    int64_t t0, t1; /* frame: first entry .. last exit of what is shown */
} gantt;

static lane *lane_of(gantt *g, int rank, int thread)
{
    for (size_t i = 0; i < g->n_lanes; i++)
        if (g->lanes[i].rank == rank && g->lanes[i].thread == thread)
            return &g->lanes[i];
    return NULL;
}

/* Add the lane when new, keeping lanes sorted by (rank, thread). */
static lane *add_lane(gantt *g, int rank, int thread)
{
    lane *l = lane_of(g, rank, thread);
    if (l)
        return l;
    if (scope_grow_array((void **)&g->lanes, &g->cap_lanes, g->n_lanes + 1, sizeof *g->lanes) != 0)
        return NULL;
    lane *lanes = g->lanes;
    size_t at = g->n_lanes;
    while (at > 0 && (lanes[at - 1].rank > rank ||
                      (lanes[at - 1].rank == rank && lanes[at - 1].thread > thread))) {
        lanes[at] = lanes[at - 1];
        at--;
    }
    lanes[at] = (lane){rank, thread, 0};
    g->n_lanes++;
    return &lanes[at];
}

/* The index from (region, call) to the place in the call stack. */
static int index_calls(const scope_file *f, rank_calls *rc)
{
    size_t nr = scope_region_count(f);
    rc->first = malloc((nr + 1) * sizeof *rc->first);
    rc->at = malloc((rc->n + 1) * sizeof *rc->at);
    if (!rc->first || !rc->at)
        return -1;
    rc->first[0] = 0;
    for (size_t r = 0; r < nr; r++)
        rc->first[r + 1] = rc->first[r] + scope_region_calls(f, r, rc->rank);
    for (size_t i = 0; i < rc->n; i++)
        rc->at[rc->first[rc->calls[i].region] + rc->calls[i].call_index] = i;
    return 0;
}

static int load_rank(gantt *g, rank_calls *rc, scope_error *err)
{
    rc->calls = scope_call_stack(g->f, rc->rank, &rc->n, err);
    rc->depth = rc->calls ? malloc((rc->n + 1) * sizeof *rc->depth) : NULL;
    if (rc->depth && scope_has_payload(g->f) && index_calls(g->f, rc) < 0) {
        free(rc->depth);
        rc->depth = NULL;
        snprintf(err->message, sizeof err->message, "out of memory");
    }
    if (!rc->depth)
        return -1;
    for (size_t i = 0; i < rc->n; i++) {
        const scope_call *c = &rc->calls[i];
        int above = 0; /* kept ancestors: the parent's depth + 1, or the parent's */
        if (c->parent >= 0) {
            long p = c->parent;
            above = rc->depth[p] >= 0 ? rc->depth[p] + 1 : -rc->depth[p] - 1;
        }
        /* not shown: store -(depth its kept children get) - 1 */
        rc->depth[i] = g->keep[c->region] ? above : -above - 1;
        if (!g->keep[c->region])
            continue;
        lane *l = add_lane(g, rc->rank, c->thread_id);
        if (!l) {
            snprintf(err->message, sizeof err->message, "out of memory");
            return -1;
        }
        l->rows = above + 1 > l->rows ? above + 1 : l->rows;
        g->t1 = c->end_ns > g->t1 ? c->end_ns : g->t1;
    }
    return 0;
}

static void draw_lane(const gantt *g, const rank_calls *rc, const lane *l, double y,
                      FILE *out)
{
    const double x0 = PLOT_LEFT, w = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT;
    const double span = (double)(g->t1 - g->t0);
    char label[160], tip[512], d[32], s[32];
    if (scope_has_thread_ids(g->f))
        snprintf(label, sizeof label, "rank %d \xc2\xb7 thread %d", l->rank, l->thread);
    else
        snprintf(label, sizeof label, "rank %d", l->rank);
    svg_text(out, PLOT_LEFT - 10, y + PLOT_ROW - 5, "end", "label", label);
    /* where the last bar drawn in each row ended: invisible slivers on top
     * of what is already drawn are skipped */
    double *last = calloc((size_t)l->rows + 1, sizeof *last);
    for (size_t i = 0; last && i < rc->n; i++) {
        const scope_call *c = &rc->calls[i];
        if (rc->depth[i] < 0 || c->thread_id != l->thread)
            continue;
        double bx = x0 + (double)(c->start_ns - g->t0) / span * w;
        double bw = (double)(c->end_ns - c->start_ns) / span * w;
        int row = rc->depth[i];
        if (bw < 0.3 && bx < last[row] + 0.3)
            continue;
        last[row] = bx + bw;
        plot_duration(d, sizeof d, c->duration);
        plot_duration(s, sizeof s, (double)(c->start_ns - g->t0) / 1e9);
        snprintf(tip, sizeof tip, "%.300s (rank %d, call %zu): %s, from %s", c->name, l->rank,
                 c->call_index, d, s);
        double by = y + row * PLOT_ROW;
        svg_rect(out, bx, by + 1, bw < 0.3 ? 0.3 : bw, PLOT_ROW - 2, plot_color(c->region),
                 tip);
        if (svg_fit(c->name, bw - 6, 11, label, sizeof label))
            svg_text(out, bx + 3, by + PLOT_ROW - 5, "start", "bar", label);
    }
    free(last);
}

#define GANTT_MAX_MESSAGES 20000

/* The middle of the left end of a call's bar; false when it is not shown. */
static bool call_point(const gantt *g, int rank, size_t region, size_t call, double *x,
                       double *y)
{
    const rank_calls *rc = NULL;
    for (size_t i = 0; !rc && i < g->n_ranks; i++)
        rc = g->ranks[i].rank == rank ? &g->ranks[i] : NULL;
    if (!rc)
        return false;
    size_t i = rc->at[rc->first[region] + call];
    const lane *l = rc->depth[i] >= 0 ? lane_of((gantt *)g, rank, rc->calls[i].thread_id) : NULL;
    if (!l)
        return false;
    const double w = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT, span = (double)(g->t1 - g->t0);
    *x = PLOT_LEFT + (double)(rc->calls[i].start_ns - g->t0) / span * w;
    *y = g->lane_y[l - g->lanes] + (rc->depth[i] + 0.5) * PLOT_ROW;
    return true;
}

/* A line from each matched send to the call that received it, when both
 * are shown (at most GANTT_MAX_MESSAGES, in the order of their senders). */
static int draw_messages(const gantt *g, FILE *out, scope_error *err)
{
    size_t n = 0, unmatched = 0, drawn = 0, shown = 0;
    scope_message_flow *fl = scope_message_flows(g->f, &n, &unmatched, err);
    if (!fl)
        return -1;
    for (size_t i = 0; i < n; i++) {
        double x1, y1, x2, y2;
        if (!g->keep[fl[i].send_region] || !g->keep[fl[i].recv_region] ||
            !call_point(g, fl[i].sender, fl[i].send_region, fl[i].send_call, &x1, &y1) ||
            !call_point(g, fl[i].receiver, fl[i].recv_region, fl[i].recv_call, &x2, &y2))
            continue;
        if (shown++ == 0)
            svg_style(out, "line.message { stroke: #222; stroke-width: 0.8; "
                           "stroke-opacity: 0.55; }");
        if (drawn < GANTT_MAX_MESSAGES) {
            svg_line(out, x1, y1, x2, y2, "message");
            drawn++;
        }
    }
    if (shown > drawn) {
        char note[128];
        snprintf(note, sizeof note, "messages: the first %zu of %zu drawn", drawn, shown);
        svg_text(out, PLOT_WIDTH - PLOT_RIGHT, PLOT_TOP - 10, "end", "small", note);
    }
    free(fl);
    return 0;
}

static int draw(gantt *g, FILE *out, scope_error *err)
{
    const double lane_gap = 8;
    double lanes_h = 0;
    for (size_t i = 0; i < g->n_lanes; i++)
        lanes_h += g->lanes[i].rows * PLOT_ROW + lane_gap;
    if (g->n_lanes == 0)
        lanes_h = 2 * PLOT_ROW;
    double axis_y = PLOT_TOP + lanes_h;
    double legend_y = axis_y + PLOT_AXIS_HEIGHT + 8;
    double height = legend_y + plot_legend(NULL, g->f, g->keep, PLOT_LEFT, legend_y) + 12;
    char title[600];
    plot_title(title, sizeof title, "Gantt chart", g->f);
    svg_begin(out, PLOT_WIDTH, height, title);
    plot_time_axis(out, PLOT_LEFT, PLOT_WIDTH - PLOT_RIGHT, axis_y, PLOT_TOP - 4, 0,
                   (double)(g->t1 - g->t0) / 1e9, "time since the first region entry");
    if (g->n_lanes == 0)
        svg_text(out, PLOT_LEFT + 10, PLOT_TOP + PLOT_ROW, "start", "small",
                 "no calls selected");
    double y = PLOT_TOP;
    for (size_t i = 0; i < g->n_lanes; i++) {
        const rank_calls *rc = g->ranks;
        while (rc->rank != g->lanes[i].rank)
            rc++;
        g->lane_y[i] = y;
        draw_lane(g, rc, &g->lanes[i], y, out);
        y += g->lanes[i].rows * PLOT_ROW + lane_gap;
        if (i + 1 < g->n_lanes)
            svg_line(out, PLOT_LEFT - 140, y - lane_gap / 2, PLOT_WIDTH - PLOT_RIGHT,
                     y - lane_gap / 2, "grid");
    }
    int rc = scope_has_payload(g->f) ? draw_messages(g, out, err) : 0;
    plot_legend(out, g->f, g->keep, PLOT_LEFT, legend_y);
    svg_end(out);
    return rc;
}

int plot_gantt(const scope_file *f, const scope_filter *flt, FILE *out, scope_error *err)
{
    gantt g = {.f = f, .t0 = scope_minimum_start_time_ns(f)};
    g.t1 = g.t0;
    int *ids = NULL;
    bool *keep = selected_regions(f, flt, err);
    g.keep = keep;
    if (keep)
        ids = selected_ranks(f, flt, &g.n_ranks, err);
    g.ranks = ids ? calloc(g.n_ranks + 1, sizeof *g.ranks) : NULL;
    int rc = g.ranks ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < g.n_ranks; i++) {
        g.ranks[i].rank = ids[i];
        rc = load_rank(&g, &g.ranks[i], err);
    }
    if (g.t1 == g.t0)
        g.t1 = g.t0 + 1;
    if (rc == 0 && !(g.lane_y = calloc(g.n_lanes + 1, sizeof *g.lane_y))) {
        snprintf(err->message, sizeof err->message, "out of memory");
        rc = -1;
    }
    if (rc == 0)
        rc = draw(&g, out, err);
    for (size_t i = 0; g.ranks && i < g.n_ranks; i++) {
        free(g.ranks[i].calls);
        free(g.ranks[i].depth);
        free(g.ranks[i].first);
        free(g.ranks[i].at);
    }
    free(g.ranks);
    free(g.lanes);
    free(g.lane_y);
    free(ids);
    free(keep);
    return rc;
}
