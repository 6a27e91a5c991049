/* The SVG writer (see svg.h). */
#include "svg.h"
#include "escape.h"

#include <string.h>

void svg_begin(FILE *out, double width, double height, const char *title)
{
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\">\n"
            "<style>\n"
            "text { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; font-size: 12px; "
            "fill: #222; }\n"
            "text.title { font-size: 16px; font-weight: bold; }\n"
            "text.small { font-size: 10px; fill: #555; }\n"
            "text.bar { font-size: 11px; fill: #111; pointer-events: none; }\n"
            "text.axis-label { font-size: 11px; fill: #444; }\n"
            "line.axis { stroke: #444; stroke-width: 1; }\n"
            "line.grid { stroke: #ddd; stroke-width: 1; }\n"
            "rect.bar { stroke: #fff; stroke-width: 0.5; }\n"
            "</style>\n"
            "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n",
            width, height, width, height, width, height);
    fputs("<title>", out);
    escape_xml(title, out);
    fputs("</title>\n", out);
    svg_text(out, 16, 26, "start", "title", title);
}

void svg_style(FILE *out, const char *css)
{
    fprintf(out, "<style>\n%s\n</style>\n", css);
}

void svg_end(FILE *out)
{
    fputs("</svg>\n", out);
}

void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill,
              const char *tip)
{
    fprintf(out, "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
            "fill=\"%s\"", x, y, w, h, fill);
    if (!tip) {
        fputs("/>\n", out);
        return;
    }
    fputs("><title>", out);
    escape_xml(tip, out);
    fputs("</title></rect>\n", out);
}

void svg_text(FILE *out, double x, double y, const char *anchor, const char *cls,
              const char *text)
{
    fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\"", x, y, anchor);
    if (cls)
        fprintf(out, " class=\"%s\"", cls);
    fputc('>', out);
    escape_xml(text, out);
    fputs("</text>\n", out);
}

void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *cls)
{
    fprintf(out, "<line class=\"%s\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", cls,
            x1, y1, x2, y2);
}

/* Characters (not bytes) of UTF-8 text. */
static size_t characters(const char *s, size_t bytes)
{
    size_t n = 0;
    for (size_t i = 0; i < bytes; i++)
        n += ((unsigned char)s[i] & 0xc0) != 0x80;
    return n;
}

double svg_text_width(const char *text, double font_px)
{
    return 0.62 * font_px * (double)characters(text, strlen(text));
}

bool svg_fit(const char *text, double width, double font_px, char *buf, size_t size)
{
    double per_char = 0.62 * font_px;
    size_t fit = width > 0 ? (size_t)(width / per_char) : 0;
    size_t len = strlen(text), chars = characters(text, len);
    if (chars <= fit && len < size) {
        memcpy(buf, text, len + 1);
        return true;
    }
    if (fit < 3 || size < 8)
        return false;
    /* fit - 1 characters and an ellipsis, cut on a character boundary */
    size_t keep = 0, kept = 0;
    while (keep < len && keep + 4 < size) {
        bool start = ((unsigned char)text[keep] & 0xc0) != 0x80;
        if (start && kept == fit - 1)
            break;
        kept += start;
        keep++;
    }
    while (keep > 0 && keep < len && ((unsigned char)text[keep] & 0xc0) == 0x80)
        keep--; /* the buffer ran out inside a character */
    memcpy(buf, text, keep);
    memcpy(buf + keep, "\xe2\x80\xa6", 4); /* U+2026 */
    return true;
}
