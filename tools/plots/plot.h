/* The four plots of `scope plot` (one file each: plot_<kind>.c) and what
 * they share: the page layout, the region palette, the time axis with
 * units, and the legend. Each plot writes one SVG document (svg.h). */
#ifndef SCOPE_PLOT_H
#define SCOPE_PLOT_H

#include "scope_reader.h"

#include <stdio.h>

#define PLOT_WIDTH 1200.0
#define PLOT_LEFT 150.0  /* room for lane / row labels */
#define PLOT_RIGHT 40.0
#define PLOT_TOP 48.0    /* below the title */
#define PLOT_ROW 18.0    /* height of one bar row */

int plot_gantt(const scope_file *f, const scope_filter *flt, FILE *out, scope_error *err);
/* Total time per region and rank; of a profile, its calls by duration
 * (plot_histogram.c). */
int plot_durations(const scope_file *f, const scope_filter *flt, FILE *out, scope_error *err);
/* A profile's calls by duration, from its stored histograms. */
int plot_duration_histograms(const scope_file *f, const scope_filter *flt, FILE *out,
                             scope_error *err);
int plot_flame(const scope_file *f, const scope_filter *flt, FILE *out, scope_error *err);
/* The point-to-point matrix as a heatmap (a file with MPI payload). */
int plot_comm(const scope_file *f, const scope_filter *flt, FILE *out, scope_error *err);

/* The fill colour of a region: the same region has the same colour in
 * every plot. */
const char *plot_color(size_t region);
/* "Gantt chart of FILE" and the like. */
void plot_title(char *buf, size_t size, const char *what, const scope_file *f);
/* Seconds as "12.5 ms" (the unit suits the magnitude). */
void plot_duration(char *buf, size_t size, double seconds);

/* A horizontal axis at y from x0 to x1 px for t0 .. t1 seconds: ticks at
 * 1/2/5 x 10^k steps labelled in one unit (s, ms, us, ns), grid lines up to
 * y_top, and a caption under it. */
void plot_time_axis(FILE *out, double x0, double x1, double y, double y_top, double t0,
                    double t1, const char *caption);
#define PLOT_AXIS_HEIGHT 44.0

/* A legend of the regions with keep[r], in rows from (x, y) wrapping at
 * PLOT_WIDTH; out == NULL measures only. Returns the height it takes. */
double plot_legend(FILE *out, const scope_file *f, const bool *keep, double x, double y);

#endif
