/* JSON and XML escaping with UTF-8 validation (see escape.h). */
#include "escape.h"

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (1 for ASCII), 0 when invalid. */
static size_t utf8_length(const unsigned char *s)
{
    size_t n;
    unsigned min;
    unsigned cp;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xe0) == 0xc0)
        n = 2, min = 0x80, cp = s[0] & 0x1f;
    else if ((s[0] & 0xf0) == 0xe0)
        n = 3, min = 0x800, cp = s[0] & 0x0f;
    else if ((s[0] & 0xf8) == 0xf0)
        n = 4, min = 0x10000, cp = s[0] & 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    if (n == 3 && (cp == 0xfffe || cp == 0xffff)) /* not XML characters */
        return 0;
    return n;
}

/* Call emit for each ASCII byte; copy valid multi-byte sequences; write
 * U+FFFD for invalid bytes. */
static void walk(const char *text, FILE *out, void (*emit)(unsigned char ch, FILE *out))
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        size_t n = utf8_length(s);
        if (n == 1)
            emit(*s, out);
        else if (n > 1)
            fwrite(s, 1, n, out);
        else
            fputs("\xef\xbf\xbd", out);
        s += n ? n : 1;
    }
}

static void json_char(unsigned char ch, FILE *out)
{
    if (ch == '"' || ch == '\\')
        fprintf(out, "\\%c", ch);
    else if (ch == '\n')
        fputs("\\n", out);
    else if (ch == '\t')
        fputs("\\t", out);
    else if (ch < 0x20 || ch == 0x7f)
        fprintf(out, "\\u%04x", ch);
    else
        fputc(ch, out);
}

static void xml_char(unsigned char ch, FILE *out)
{
    switch (ch) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    case '\'': fputs("&apos;", out); break;
    default:
        /* control characters are not allowed in XML 1.0 (tab, newline:
         * attribute normalisation would turn them into spaces anyway) */
        fputc(ch < 0x20 || ch == 0x7f ? ' ' : ch, out);
    }
}

void escape_json(const char *s, FILE *out)
{
    fputc('"', out);
    walk(s, out, json_char);
    fputc('"', out);
}

void escape_xml(const char *s, FILE *out)
{
    walk(s, out, xml_char);
}
