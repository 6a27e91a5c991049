/* The one SVG writer of `scope plot`: a standalone document (inline style,
 * no scripts or external references) and the few shapes the plots use.
 * Every text goes through escape_xml. */
#ifndef SCOPE_SVG_H
#define SCOPE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Header, style sheet, white background, <title> and the visible title. */
void svg_begin(FILE *out, double width, double height, const char *title);
void svg_end(FILE *out);
/* More style rules (trusted text, not escaped), for shapes only some
 * documents have. */
void svg_style(FILE *out, const char *css);

/* A filled rectangle; tip (may be NULL) is shown on hover. */
void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill,
              const char *tip);
/* Text at (x, y) (baseline); anchor "start", "middle" or "end"; cls one of
 * the style sheet's classes (label, small, axis-label, bar) or NULL. */
void svg_text(FILE *out, double x, double y, const char *anchor, const char *cls,
              const char *text);
/* A line; cls "axis", "grid" or one added by svg_style. */
void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *cls);

/* Width in px of text at font size px (an estimate for sans-serif). */
double svg_text_width(const char *text, double font_px);
/* Fit text into width px: the whole text, or a prefix ending in an ellipsis; false
 * when not even that fits (then draw nothing). */
bool svg_fit(const char *text, double width, double font_px, char *buf, size_t size);

#endif
