/* The durations of a profile's calls: for every shown region, its calls
 * on the selected ranks by floor(log2(duration in ns)), added up from the
 * histograms the profile stores; a row of bars per region, each bar as
 * high as its share of the region's fullest bin. */
#include "plot.h"
#include "selection.h"
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ROW_HEIGHT (2 * PLOT_ROW)

typedef struct histogram {
    size_t region;
    int64_t bins[SCOPE_DURATION_BINS];
    int64_t fullest;
} histogram;

/* The region's histogram over the selected ranks; 1 when it has calls,
 * 0 when none, -1 on error. */
static int add_ranks(const scope_file *f, size_t region, const int *ranks, size_t n_ranks,
                     histogram *h, scope_error *err)
{
    int64_t one[SCOPE_DURATION_BINS];
    *h = (histogram){.region = region};
    for (size_t k = 0; k < n_ranks; k++) {
        if (scope_region_duration_histogram(f, region, ranks[k], one, err) < 0)
            return -1;
        for (int i = 0; i < SCOPE_DURATION_BINS; i++)
            h->bins[i] += one[i];
    }
    for (int i = 0; i < SCOPE_DURATION_BINS; i++)
        h->fullest = h->bins[i] > h->fullest ? h->bins[i] : h->fullest;
    return h->fullest > 0;
}

/* Bin i's lower bound, "1.02 us" and the like (bin 0 from 0). */
static void bin_label(char *buf, size_t size, int i)
{
    plot_duration(buf, size, i == 0 ? 0 : ldexp(1, i) / 1e9);
}

static void draw(const scope_file *f, const histogram *h, size_t n, int lo, int hi, FILE *out)
{
    const double x0 = PLOT_LEFT, w = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT;
    double axis_y = PLOT_TOP + 10 + (double)(n ? n : 1) * ROW_HEIGHT, bin_w = w / (hi - lo + 1);
    char title[600], label[160], tip[600], from[32], to[32];
    plot_title(title, sizeof title, "Calls by duration (log2 bins) per region", f);
    svg_begin(out, PLOT_WIDTH, axis_y + PLOT_AXIS_HEIGHT + 12, title);
    if (n == 0)
        svg_text(out, x0 + 10, PLOT_TOP + PLOT_ROW, "start", "small", "no calls selected");
    for (size_t r = 0; r < n; r++) {
        double y = PLOT_TOP + 10 + (double)r * ROW_HEIGHT;
        const char *name = scope_region_name(f, h[r].region);
        if (!svg_fit(name, PLOT_LEFT - 16, 12, label, sizeof label))
            snprintf(label, sizeof label, "...");
        svg_text(out, PLOT_LEFT - 8, y + ROW_HEIGHT - 8, "end", "label", label);
        svg_line(out, x0, y + ROW_HEIGHT - 2, x0 + w, y + ROW_HEIGHT - 2, "grid");
        for (int i = lo; i <= hi; i++) {
            if (h[r].bins[i] == 0)
                continue;
            double bh = (ROW_HEIGHT - 6) * (double)h[r].bins[i] / (double)h[r].fullest;
            bin_label(from, sizeof from, i);
            bin_label(to, sizeof to, i + 1);
            snprintf(tip, sizeof tip, "%.300s: %lld calls of %s to %s", name,
                     (long long)h[r].bins[i], from, to);
            svg_rect(out, x0 + (i - lo) * bin_w + 1, y + ROW_HEIGHT - 2 - bh, bin_w - 2, bh,
                     plot_color(h[r].region), tip);
        }
    }
    svg_line(out, x0, axis_y, x0 + w, axis_y, "axis");
    int step = hi - lo > 20 ? 5 : hi - lo > 8 ? 2 : 1;
    for (int i = lo; i <= hi + 1; i++) {
        if ((i - lo) % step != 0 && i != hi + 1)
            continue;
        double x = x0 + (i - lo) * bin_w;
        svg_line(out, x, axis_y, x, axis_y + 5, "axis");
        bin_label(from, sizeof from, i);
        svg_text(out, x, axis_y + 18, "middle", "small", from);
    }
    svg_text(out, x0 + w / 2, axis_y + 36, "middle", "axis-label",
             "duration of a call (each bar: the calls from one power of two ns to the next)");
    svg_end(out);
}

int plot_duration_histograms(const scope_file *f, const scope_filter *flt, FILE *out,
                             scope_error *err)
{
    size_t n_ranks = 0, n = 0;
    bool *keep = selected_regions(f, flt, err);
    int *ranks = keep ? selected_ranks(f, flt, &n_ranks, err) : NULL;
    histogram *h = ranks ? malloc((scope_region_count(f) + 1) * sizeof *h) : NULL;
    int rc = h ? 0 : -1;
    if (ranks && !h)
        snprintf(err->message, sizeof err->message, "out of memory");
    int lo = SCOPE_DURATION_BINS - 1, hi = 0;
    for (size_t r = 0; rc == 0 && r < scope_region_count(f); r++) {
        int has = keep[r] ? add_ranks(f, r, ranks, n_ranks, &h[n], err) : 0;
        rc = has < 0 ? -1 : 0;
        for (int i = 0; has > 0 && i < SCOPE_DURATION_BINS; i++)
            if (h[n].bins[i]) {
                lo = i < lo ? i : lo;
                hi = i > hi ? i : hi;
            }
        n += has > 0;
    }
    if (rc == 0)
        draw(f, h, n, n ? lo : 0, n ? hi : 0, out);
    free(h);
    free(ranks);
    free(keep);
    return rc;
}
