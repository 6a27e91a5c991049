/* What the plots share: palette, titles, durations as text, the time axis
 * and the legend (see plot.h). */
#include "plot.h"
#include "svg.h"

#include <math.h>
#include <string.h>

/* Twenty colours that stay apart (a qualitative palette: the strong tones,
 * then their light counterparts), light enough for dark labels on them. */
static const char *const palette[] = {
    "#6b9bd1", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
    "#ff9da7", "#b08a70", "#bab0ac", "#a0cbe8", "#ffbe7d", "#ff9d9a", "#86bcb6",
    "#8cd17d", "#f1ce63", "#d4a6c8", "#fabfd2", "#d7b5a6", "#9aa0a6",
};

const char *plot_color(size_t region)
{
    return palette[region % (sizeof palette / sizeof palette[0])];
}

void plot_title(char *buf, size_t size, const char *what, const scope_file *f)
{
    snprintf(buf, size, "%s of %s", what, scope_file_path(f));
}

void plot_duration(char *buf, size_t size, double s)
{
    double a = fabs(s);
    if (a >= 1 || a == 0)
        snprintf(buf, size, "%.3g s", s);
    else if (a >= 1e-3)
        snprintf(buf, size, "%.3g ms", s * 1e3);
    else if (a >= 1e-6)
        snprintf(buf, size, "%.3g \xc2\xb5s", s * 1e6);
    else
        snprintf(buf, size, "%.3g ns", s * 1e9);
}

/* The tick step: 1, 2 or 5 x 10^k, at most max_ticks over span. */
static double tick_step(double span, int max_ticks)
{
    double raw = span / max_ticks, p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* A tick label in the unit the step calls for, with only the decimals the
 * step needs. */
static void tick_label(char *buf, size_t size, double t, double step)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1, "s"}, {1e3, "ms"}, {1e6, "\xc2\xb5s"}, {1e9, "ns"}};
    size_t u = 0;
    while (u + 1 < 4 && step * units[u].scale < 1)
        u++;
    double v = t * units[u].scale, st = step * units[u].scale;
    int decimals = st >= 1 ? 0 : (int)ceil(-log10(st) - 1e-9);
    snprintf(buf, size, "%.*f %s", decimals, fabs(v) < st / 2 ? 0.0 : v, units[u].unit);
}

void plot_time_axis(FILE *out, double x0, double x1, double y, double y_top, double t0,
                    double t1, const char *caption)
{
    char label[64];
    svg_line(out, x0, y, x1, y, "axis");
    double span = t1 - t0;
    if (!(span > 0) || !isfinite(span))
        span = 1e-9;
    double step = tick_step(span, (int)((x1 - x0) / 90) + 1);
    for (double k = ceil(t0 / step - 1e-9); k * step <= t1 + step * 1e-9; k++) {
        double t = k * step, x = x0 + (t - t0) / span * (x1 - x0);
        svg_line(out, x, y_top, x, y, "grid");
        svg_line(out, x, y, x, y + 5, "axis");
        tick_label(label, sizeof label, t, step);
        svg_text(out, x, y + 18, "middle", "axis-label", label);
    }
    svg_text(out, (x0 + x1) / 2, y + 36, "middle", "small", caption);
}

double plot_legend(FILE *out, const scope_file *f, const bool *keep, double x, double y)
{
    const double swatch = 12, gap = 18, row = 20, right = PLOT_WIDTH - PLOT_RIGHT;
    double cx = x, rows = 0;
    bool any = false;
    for (size_t r = 0; r < scope_region_count(f); r++) {
        if (!keep[r])
            continue;
        const char *name = scope_region_name(f, r);
        char label[128];
        if (!svg_fit(name, 300, 12, label, sizeof label))
            snprintf(label, sizeof label, "%s", "...");
        double w = swatch + 6 + svg_text_width(label, 12) + gap;
        if (any && cx + w > right) {
            cx = x;
            rows++;
        }
        if (out) {
            svg_rect(out, cx, y + rows * row, swatch, swatch, plot_color(r), name);
            svg_text(out, cx + swatch + 6, y + rows * row + 10.5, "start", NULL, label);
        }
        cx += w;
        any = true;
    }
    return any ? (rows + 1) * row : 0;
}
