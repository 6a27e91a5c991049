/* Call sites as text for the CLI's tables and the exports, and told apart
 * where two read alike (see callsite_text.h). */
#include "callsite_text.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *callsite_text(const scope_file *f, long site, size_t from, size_t to,
                          const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (site < 0)
        return buf;
    for (size_t level = from; level < to && used + 1 < len; level++) {
        const scope_frame *fr = scope_callsite_frame(f, (size_t)site, level);
        if (!fr)
            break;
        char one[1024];
        scope_frame_label(fr, one, sizeof one);
        int n = snprintf(buf + used, len - used, "%s%s", level > from ? sep : "", one);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used >= len)
        used = len - 1;
    buf[used] = '\0';
    return buf;
}

struct apart {
    const long *sites;
    const uint64_t *group;
    const char *const *also;
    char **text;
};

/* Orders rows by group, text, then `also`: rows that read alike are
 * neighbours. */
static int compare_rows(const void *a, const void *b, void *ctx)
{
    const struct apart *r = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (r->group[i] != r->group[j])
        return r->group[i] < r->group[j] ? -1 : 1;
    int c = strcmp(r->text[i], r->text[j]);
    return c || !r->also ? c : strcmp(r->also[i], r->also[j]);
}

void callsite_texts_free(char **texts, size_t n)
{
    for (size_t i = 0; texts && i < n; i++)
        free(texts[i]);
    free(texts);
}

char **callsite_texts_apart(const scope_file *f, const long *sites, const uint64_t *group,
                            const char *const *also, size_t n)
{
    char **text = calloc(n + 1, sizeof *text);   /* + 1: n may be 0 */
    size_t *order = calloc(n + 1, sizeof *order);
    bool *alike = calloc(n + 1, sizeof *alike);
    char line[4096];
    bool ok = text && order && alike;
    for (size_t i = 0; ok && i < n; i++) {
        text[i] = strdup(sites[i] < 0 ? "(none)"
                                      : callsite_text(f, sites[i], 0, 1, "", line, sizeof line));
        ok = text[i] != NULL;
        order[i] = i;
    }
    struct apart rows = {sites, group, also, text};
    if (ok)
        qsort_r(order, n, sizeof *order, compare_rows, &rows);
    for (size_t k = 1; ok && k < n; k++)
        if (sites[order[k - 1]] != sites[order[k]] &&
            compare_rows(&order[k - 1], &order[k], &rows) == 0)
            alike[order[k - 1]] = alike[order[k]] = true;
    for (size_t i = 0; ok && i < n; i++) {
        const scope_frame *fr = alike[i] && sites[i] >= 0
                                    ? scope_callsite_frame(f, (size_t)sites[i], 0)
                                    : NULL;
        if (!fr)
            continue;
        snprintf(line, sizeof line, "%s [+0x%" PRIx64 "]", text[i], fr->offset);
        free(text[i]);
        ok = (text[i] = strdup(line)) != NULL;
    }
    free(order);
    free(alike);
    if (ok)
        return text;
    callsite_texts_free(text, n);
    return NULL;
}
