/* region_stats.c: writes a region's call statistics as attributes of its
 * group (names and meaning: region_stats.h). */
#include "region_stats.h"

int region_stats_write(const struct call_stats *s, hid_t group, int has_self, int64_t self_ns,
                       const struct h5_err *e)
{
    if (h5_attr_int64(group, "calls", s->calls, e) < 0 ||
        h5_attr_int64(group, "total_ns", s->total_ns, e) < 0 ||
        h5_attr_int64(group, "min_ns", s->min_ns, e) < 0 ||
        h5_attr_int64(group, "max_ns", s->max_ns, e) < 0 ||
        h5_attr_double(group, "m2_ns2", s->m2_ns2, e) < 0 ||
        h5_attr_int64(group, "first_start_ns", s->first_start_ns, e) < 0 ||
        h5_attr_int64(group, "last_end_ns", s->last_end_ns, e) < 0)
        return -1;
    return has_self ? h5_attr_int64(group, "self_ns", self_ns, e) : 0;
}
