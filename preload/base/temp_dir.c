/* temp_dir.c: $TMPDIR or /tmp (temp_dir.h). */
#include "temp_dir.h"

#include <stdlib.h>

const char *scope_temp_dir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}
