/* Durations as people read them (tables, scope suggest's reasons). */
#include "duration_text.h"

#include <math.h>
#include <stdio.h>

void duration_text(char *buf, size_t size, double s)
{
    double a = fabs(s);
    if (a >= 1)
        snprintf(buf, size, "%.3f s", s);
    else if (a >= 1e-3)
        snprintf(buf, size, "%.2f ms", s * 1e3);
    else if (a >= 1e-6)
        snprintf(buf, size, "%.2f us", s * 1e6);
    else
        snprintf(buf, size, "%.0f ns", s * 1e9);
}
