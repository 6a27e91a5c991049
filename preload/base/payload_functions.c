/* payload_functions.c: the table of wrapped MPI functions by name
 * (payload_functions.h). */
#include "payload_functions.h"

#include <stddef.h>
#include <string.h>

uint32_t scope_wrapped_hook[SCOPE_WRAPPED_COUNT];

static const struct {
    const char *name, *family;
} wrapped[SCOPE_WRAPPED_COUNT] = {
#define SCOPE_WRAPPED_ROW(e, name, family) {name, family},
    SCOPE_WRAPPED_FUNCTIONS(SCOPE_WRAPPED_ROW)
#undef SCOPE_WRAPPED_ROW
};

int scope_wrapped_any(void)
{
    for (int i = 0; i < SCOPE_WRAPPED_COUNT; i++)
        if (scope_wrapped_hook[i])
            return 1;
    return 0;
}

int scope_wrapped_function_of(const char *symbol)
{
    if (!symbol || strncmp(symbol, "MPI_", 4) != 0)
        return -1;
    for (int i = 0; i < SCOPE_WRAPPED_COUNT; i++)
        if (strcmp(symbol, wrapped[i].name) == 0)
            return i;
    return -1;
}

const char *scope_payload_family(const char *symbol)
{
    int i = scope_wrapped_function_of(symbol);
    return i < 0 ? NULL : wrapped[i].family;
}
