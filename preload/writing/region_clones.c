/* region_clones.c: the clone tags of each region's symbols. */
#include "region_clones.h"
#include "clone_names.h"

#include <stdlib.h>
#include <string.h>

/* Whether the space-separated list holds tag. */
static int listed(const char *list, const char *tag)
{
    size_t n = strlen(tag);
    for (const char *p = list; (p = strstr(p, tag)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

char **scope_region_clones(const char *const *hook_symbol, const uint32_t *hook_region,
                           size_t nhooks, size_t nregions)
{
    char **clones = calloc(nregions ? nregions : 1, sizeof(*clones));
    for (size_t h = 0; clones && h < nhooks; h++) {
        const char *symbol = hook_symbol[h];
        if (!symbol || hook_region[h] >= nregions)
            continue;
        const char *tag = symbol + scope_clone_base_length(symbol);
        if (*tag == '\0')
            continue;
        tag += *tag == '.';
        char **list = &clones[hook_region[h]];
        if (*list && listed(*list, tag))
            continue;
        size_t had = *list ? strlen(*list) : 0;
        char *grown = realloc(*list, had + (had > 0) + strlen(tag) + 1);
        if (!grown) {
            scope_region_clones_free(clones, nregions);
            return NULL;
        }
        if (had > 0)
            grown[had++] = ' ';
        strcpy(grown + had, tag);
        *list = grown;
    }
    return clones;
}

void scope_region_clones_free(char **clones, size_t nregions)
{
    if (!clones)
        return;
    for (size_t r = 0; r < nregions; r++)
        free(clones[r]);
    free(clones);
}
