/* reader_stats.c: reads the statistics the writer stores on each region
 * group (writer/region_stats.h) and refuses values that cannot be true. */
#include "reader_h5.h"

#include <math.h>

int reader_read_stats(hid_t group, series *s, const char *where, scope_error *err)
{
    static const char *const names[] = {"calls", "total_ns", "min_ns", "max_ns",
                                        "first_start_ns", "last_end_ns"};
    struct call_stats *st = &s->stats;
    int64_t *fields[] = {&st->calls, &st->total_ns, &st->min_ns, &st->max_ns,
                         &st->first_start_ns, &st->last_end_ns};
    int found = 0, absent = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int rc = h5_scalar_attr(group, names[i], H5T_NATIVE_INT64, fields[i]);
        found += rc == 1;
        absent += rc == 0;
    }
    int rc_m2 = h5_scalar_attr(group, "m2_ns2", H5T_NATIVE_DOUBLE, &st->m2_ns2);
    if (found == 0 && absent == 6 && rc_m2 == 0)
        return 0;
    int rc_self = h5_scalar_attr(group, "self_ns", H5T_NATIVE_INT64, &s->self_ns);
    s->has_self = rc_self == 1;
    if (found != 6 || rc_m2 != 1 || rc_self < 0)
        return reader_fail(err, "%s: damaged statistics attributes (calls, total_ns, min_ns, "
                           "max_ns, m2_ns2, first_start_ns, last_end_ns, self_ns)", where);
    return reader_accept_stats(s, where, err);
}

int reader_accept_stats(series *s, const char *where, scope_error *err)
{
    struct call_stats *st = &s->stats;
    /* +-2^60 ns bounds times (as for the calls); 2^52 ns (52 days) bounds a
     * region's total per rank, so sums over ranks cannot overflow */
    const int64_t time_limit = INT64_C(1) << 60, total_limit = INT64_C(1) << 52;
    bool none = st->calls == 0 && st->total_ns == 0 && st->min_ns == 0 && st->max_ns == 0 &&
                st->m2_ns2 == 0 && (!s->has_self || s->self_ns == 0);
    bool ok = (none || st->calls > 0) && st->min_ns >= 0 &&
              st->min_ns <= st->max_ns && st->total_ns >= 0 && st->total_ns <= total_limit &&
              st->max_ns <= st->total_ns &&
              (__int128)st->min_ns * st->calls <= st->total_ns &&
              (__int128)st->max_ns * st->calls >= st->total_ns &&
              st->first_start_ns >= -time_limit && st->last_end_ns <= time_limit &&
              st->first_start_ns <= st->last_end_ns && isfinite(st->m2_ns2) && st->m2_ns2 >= 0 &&
              (!s->has_self || (s->self_ns >= 0 && s->self_ns <= st->total_ns));
    if (!ok)
        return reader_fail(err, "%s: damaged statistics (calls, total_ns, min_ns, max_ns, "
                           "m2_ns2, first_start_ns, last_end_ns, self_ns)", where);
    st->mean_ns = st->calls ? (double)st->total_ns / (double)st->calls : 0;
    return 1;
}
