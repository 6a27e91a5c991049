/* payload_functions.c: the table of wrapped MPI functions by name
 * (payload_functions.h). */
#include "payload_functions.h"

#include <pthread.h>
#include <stdio.h>
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

static enum scope_wrapped_function large_form[SCOPE_WRAPPED_COUNT];
static pthread_once_t large_forms_known = PTHREAD_ONCE_INIT;

static void know_large_forms(void)
{
    for (int i = 0; i < SCOPE_WRAPPED_COUNT; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s_c", wrapped[i].name);
        int large = scope_wrapped_function_of(name);
        large_form[i] = large < 0 ? (enum scope_wrapped_function)i
                                  : (enum scope_wrapped_function)large;
    }
}

enum scope_wrapped_function scope_wrapped_large_form(enum scope_wrapped_function f)
{
    pthread_once(&large_forms_known, know_large_forms);
    return large_form[f];
}

const char *scope_payload_family(const char *symbol)
{
    int i = scope_wrapped_function_of(symbol);
    return i < 0 ? NULL : wrapped[i].family;
}
