/* Duration bars: the total time of every shown region on every selected
 * rank that recorded it, one horizontal bar each, grouped by region; a
 * profile's durations are drawn from its histograms (plot_histogram.c). */
#include "plot.h"
#include "selection.h"
#include "svg.h"

#include <stdlib.h>

typedef struct bar {
    size_t region;
    int rank;
    double total;
} bar;

static void draw(const scope_file *f, const bar *bars, size_t n, size_t n_ranks, FILE *out)
{
    const double x0 = PLOT_LEFT, w = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT - 70, group_gap = 8;
    double max = 0, groups = 0;
    for (size_t i = 0; i < n; i++) {
        max = bars[i].total > max ? bars[i].total : max;
        groups += i == 0 || bars[i].region != bars[i - 1].region;
    }
    if (!(max > 0))
        max = 1e-9;
    double axis_y = PLOT_TOP + 10 + (double)n * PLOT_ROW + groups * group_gap;
    if (n == 0)
        axis_y += 2 * PLOT_ROW;
    char title[600], label[160], tip[512], value[32];
    plot_title(title, sizeof title, "Total time per region and rank", f);
    svg_begin(out, PLOT_WIDTH, axis_y + PLOT_AXIS_HEIGHT + 12, title);
    plot_time_axis(out, x0, x0 + w, axis_y, PLOT_TOP, 0, max, "total time in the region");
    if (n == 0)
        svg_text(out, x0 + 10, PLOT_TOP + PLOT_ROW, "start", "small", "no calls selected");
    double y = PLOT_TOP + 10 - group_gap;
    for (size_t i = 0; i < n; i++) {
        const char *name = scope_region_name(f, bars[i].region);
        bool first = i == 0 || bars[i].region != bars[i - 1].region;
        if (first)
            y += group_gap;
        if (n_ranks == 1 || first) {
            if (!svg_fit(name, PLOT_LEFT - (n_ranks > 1 ? 70 : 16), 12, label, sizeof label))
                snprintf(label, sizeof label, "...");
            svg_text(out, n_ranks > 1 ? 8 : PLOT_LEFT - 8, y + PLOT_ROW - 5,
                     n_ranks > 1 ? "start" : "end", "label", label);
        }
        if (n_ranks > 1) {
            snprintf(label, sizeof label, "rank %d", bars[i].rank);
            svg_text(out, PLOT_LEFT - 8, y + PLOT_ROW - 5, "end", "small", label);
        }
        double bw = bars[i].total / max * w;
        plot_duration(value, sizeof value, bars[i].total);
        snprintf(tip, sizeof tip, "%.300s on rank %d: %s", name, bars[i].rank, value);
        svg_rect(out, x0, y + 2, bw, PLOT_ROW - 4, plot_color(bars[i].region), tip);
        svg_text(out, x0 + bw + 5, y + PLOT_ROW - 5, "start", "small", value);
        y += PLOT_ROW;
    }
    svg_end(out);
}

int plot_durations(const scope_file *f, const scope_filter *flt, FILE *out, scope_error *err)
{
    if (scope_is_profile(f))
        return plot_duration_histograms(f, flt, out, err);
    size_t n_ranks = 0, n = 0;
    bool *keep = selected_regions(f, flt, err);
    int *ranks = keep ? selected_ranks(f, flt, &n_ranks, err) : NULL;
    bar *bars = ranks ? malloc((scope_region_count(f) * n_ranks + 1) * sizeof *bars) : NULL;
    if (ranks && !bars)
        snprintf(err->message, sizeof err->message, "out of memory");
    for (size_t r = 0; bars && r < scope_region_count(f); r++)
        for (size_t k = 0; keep[r] && k < n_ranks; k++)
            if (scope_region_recorded(f, r, ranks[k]))
                bars[n++] = (bar){r, ranks[k], scope_region_total(f, r, ranks[k])};
    if (bars)
        draw(f, bars, n, n_ranks, out);
    int rc = bars ? 0 : -1;
    free(bars);
    free(ranks);
    free(keep);
    return rc;
}
