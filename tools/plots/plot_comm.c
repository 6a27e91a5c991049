/* The communication matrix as a heatmap: a row per selected sender, a
 * column per rank of the file as receiver, each cell shaded by the bytes
 * sent (log scale), its numbers on hover (scope_comm_matrix). */
#include "plot.h"
#include "selection.h"
#include "svg.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#define COMM_MAX_CELL 36.0
#define COMM_LABELS 24.0   /* room above the grid for the receivers' labels */
#define COMM_LEGEND 56.0   /* room below it for the colour scale */

/* Light (few bytes) to dark blue (the most), t in [0, 1]. */
static void shade(double t, char *buf, size_t size)
{
    static const double light[3] = {222, 235, 247}, dark[3] = {8, 48, 107};
    int c[3];
    for (int i = 0; i < 3; i++)
        c[i] = (int)lround(light[i] + (dark[i] - light[i]) * t);
    snprintf(buf, size, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static double scale(uint64_t bytes, uint64_t max)
{
    return max > 0 ? log1p((double)bytes) / log1p((double)max) : 0;
}

/* Label every step-th rank along an axis, so that labels do not overlap. */
static size_t label_step(double cell)
{
    return cell >= 14 ? 1 : (size_t)ceil(14 / cell);
}

static long column_of(const scope_file *f, int rank)
{
    for (size_t i = 0; i < scope_rank_count(f); i++)
        if (scope_rank_id(f, i) == rank)
            return (long)i;
    return -1;
}

static void draw(const scope_file *f, const scope_comm_pair *m, size_t n, const int *senders,
                 size_t n_senders, FILE *out)
{
    size_t n_cols = scope_rank_count(f);
    double avail = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT;
    double cell = fmin(COMM_MAX_CELL, avail / (double)(n_cols ? n_cols : 1));
    double x0 = PLOT_LEFT, y0 = PLOT_TOP + COMM_LABELS;
    double grid_h = cell * (double)n_senders, grid_w = cell * (double)n_cols;
    uint64_t max = 0;
    for (size_t i = 0; i < n; i++)
        max = m[i].bytes > max ? m[i].bytes : max;
    char title[600], label[64], tip[256], fill[16];
    plot_title(title, sizeof title, "Communication matrix (bytes sent)", f);
    svg_begin(out, PLOT_WIDTH, y0 + grid_h + COMM_LEGEND, title);
    svg_rect(out, x0, y0, grid_w, grid_h, "#f7f7f7", NULL);
    size_t step = label_step(cell);
    for (size_t k = 0; k < n_senders; k += step) {
        snprintf(label, sizeof label, "rank %d", senders[k]);
        svg_text(out, x0 - 6, y0 + cell * ((double)k + 0.5) + 4, "end", "small", label);
    }
    for (size_t c = 0; c < n_cols; c += step) {
        snprintf(label, sizeof label, "%d", scope_rank_id(f, c));
        svg_text(out, x0 + cell * ((double)c + 0.5), y0 - 6, "middle", "small", label);
    }
    svg_text(out, x0, PLOT_TOP + 2, "start", "axis-label", "receiver \xe2\x86\x92");
    for (size_t i = 0, row = 0; i < n; i++) {
        while (row < n_senders && senders[row] < m[i].sender)
            row++;
        long col = column_of(f, m[i].receiver);
        if (row == n_senders || senders[row] != m[i].sender || col < 0 || m[i].messages == 0)
            continue;
        shade(0.15 + 0.85 * scale(m[i].bytes, max), fill, sizeof fill);
        snprintf(tip, sizeof tip, "rank %d \xe2\x86\x92 rank %d: %" PRIu64 " message%s, %" PRIu64
                 " bytes (received: %" PRIu64 ", %" PRIu64 " bytes)", m[i].sender, m[i].receiver,
                 m[i].messages, m[i].messages == 1 ? "" : "s", m[i].bytes, m[i].recv_messages,
                 m[i].recv_bytes);
        svg_rect(out, x0 + cell * (double)col, y0 + cell * (double)row, cell, cell, fill, tip);
    }
    /* the colour scale */
    double ly = y0 + grid_h + 18;
    for (int k = 0; k < 10; k++) {
        shade(0.15 + 0.85 * k / 9.0, fill, sizeof fill);
        svg_rect(out, x0 + 24.0 * k, ly, 24, 12, fill, NULL);
    }
    snprintf(label, sizeof label, "%" PRIu64 " bytes", max);
    svg_text(out, x0 + 250, ly + 10, "start", "small", label);
    svg_text(out, x0, ly + 28, "start", "small",
             n ? "rows: sender, columns: receiver; shade: bytes sent (log scale)"
               : "no point-to-point messages selected");
    svg_end(out);
}

int plot_comm(const scope_file *f, const scope_filter *flt, FILE *out, scope_error *err)
{
    size_t n_senders = 0, n = 0;
    int *senders = selected_ranks(f, flt, &n_senders, err);
    scope_comm_pair *m = senders ? scope_comm_matrix(f, flt, &n, err) : NULL;
    if (m)
        draw(f, m, n, senders, n_senders, out);
    free(m);
    free(senders);
    return m ? 0 : -1;
}
