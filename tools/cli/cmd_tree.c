/* scope tree: one rank's call stack, indented by depth (the seed's
 * call_stack()), with each call's self time; of a profile, the rank's call
 * paths, with what their calls add up to and their call sites. */
#include "callsite_text.h"
#include "cli.h"
#include "selection.h"

#include <stdlib.h>

static void fill(table *t, const scope_call *calls, size_t n, const scope_children *ch,
                 const bool *keep, int64_t origin, bool threads)
{
    table_column(t, "name", COL_TEXT);
    table_column(t, "duration", COL_DURATION);
    table_column(t, "self", COL_DURATION);
    table_column(t, "start", COL_SECONDS);
    table_column(t, "end", COL_SECONDS);
    table_column(t, "depth", COL_INT);
    table_column(t, "call_id", COL_INT);
    table_column(t, "parent_id", COL_INT);
    if (threads)
        table_column(t, "thread_id", COL_INT);
    for (size_t i = 0; i < n; i++) {
        if (!keep[calls[i].region])
            continue;
        double self = calls[i].duration;
        for (size_t k = ch->offsets[i]; k < ch->offsets[i + 1]; k++)
            self -= calls[ch->items[k]].duration;
        table_text_indent(t, calls[i].name, calls[i].depth);
        table_num(t, calls[i].duration);
        table_num(t, self);
        table_num(t, (double)(calls[i].start_ns - origin) / 1e9);
        table_num(t, (double)(calls[i].end_ns - origin) / 1e9);
        table_int(t, calls[i].depth);
        table_int(t, (int64_t)i);
        table_int(t, calls[i].parent);
        if (threads)
            table_int(t, calls[i].thread_id);
    }
}

/* A profile's call paths, depth first, each indented under its caller,
 * with the call site of those that have one when the file has them (two
 * paths of one caller and region whose sites read alike told apart by
 * their offsets). -1 when out of memory. */
static int fill_paths(table *t, const scope_file *f, const scope_flame_node *nodes, size_t n)
{
    bool sites = scope_has_callsites(f);
    char **site_text = NULL;
    if (sites) {
        long *site = calloc(n + 1, sizeof *site);
        uint64_t *group = calloc(n + 1, sizeof *group);   /* (parent, region) */
        for (size_t i = 0; site && group && i < n; i++) {
            site[i] = nodes[i].callsite;
            group[i] = (uint64_t)(nodes[i].parent + 1) << 32 | (uint32_t)nodes[i].region;
        }
        site_text = site && group ? callsite_texts_apart(f, site, group, NULL, n) : NULL;
        free(site);
        free(group);
        if (!site_text)
            return -1;
    }
    table_column(t, "path", COL_TEXT);
    table_column(t, "calls", COL_INT);
    table_column(t, "total", COL_DURATION);
    table_column(t, "self", COL_DURATION);
    table_column(t, "mean", COL_DURATION);
    table_column(t, "depth", COL_INT);
    if (sites)
        table_column(t, "callsite", COL_TEXT);
    for (size_t i = 0; i < n; i++) {
        table_text_indent(t, nodes[i].name, nodes[i].depth);
        table_int(t, (int64_t)nodes[i].calls);
        table_num(t, (double)nodes[i].total_ns / 1e9);
        table_num(t, (double)nodes[i].self_ns / 1e9);
        table_num(t, nodes[i].calls ? (double)nodes[i].total_ns / 1e9 / (double)nodes[i].calls : 0);
        table_int(t, nodes[i].depth);
        if (sites)
            table_text(t, nodes[i].callsite < 0 ? "" : site_text[i]);
    }
    callsite_texts_free(site_text, n);
    return 0;
}

static int run_paths(scope_file *f, const scope_filter *flt, int rank, report *out,
                     scope_error *err)
{
    size_t n = 0;
    scope_flame_node *nodes = scope_flame_tree_ex(f, flt, rank, SCOPE_FLAME_PATH_SITES, &n, err);
    if (!nodes)
        return -1;
    int rc = fill_paths(report_table(out, "paths", false), f, nodes, n);
    free(nodes);
    if (rc != 0)
        snprintf(err->message, sizeof err->message, "out of memory");
    return rc;
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    scope_filter flt;
    if (cli_filter(f, opt, &flt, err) < 0)
        return -1;
    int rank = opt->has_rank ? opt->rank : scope_rank_id(f, 0);
    if (scope_is_profile(f))
        return run_paths(f, &flt, rank, out, err);
    size_t n = 0;
    bool *keep = selected_regions(f, &flt, err);
    scope_call *calls = keep ? scope_call_stack(f, rank, &n, err) : NULL;
    scope_children ch = {0};
    int rc = calls ? scope_call_stack_children(calls, n, &ch, err) : -1;
    if (rc == 0)
        fill(report_table(out, "calls", false), calls, n, &ch, keep,
             scope_filter_origin_ns(f, &flt), scope_has_thread_ids(f));
    scope_children_free(&ch);
    free(calls);
    free(keep);
    return rc;
}

const cli_command cmd_tree = {
    .name = "tree",
    .summary = "one rank's call stack, indented by depth, with self times",
    .description =
        "Print the call stack of one rank: its calls ordered by start, each indented\n"
        "under the call that contains it (nesting is reconstructed from containment,\n"
        "per thread when the file has thread ids). --include/--exclude hide regions\n"
        "without changing the nesting of the others. Of a profile (mode = profile),\n"
        "the rank's call paths instead: each chain of hooked callers once, indented\n"
        "under its caller's path, with its calls, total, self and mean time, and\n"
        "its call site (the caller, as scope callsites names it) when its function\n"
        "records call sites: the calls from two sites are two paths.",
    .example = "scope tree profiling_data.h5 --rank 0 --top 8",
    .options = OPT_REGIONS | OPT_TIME | OPT_TOP | OPT_RANK,
    .run = run,
};
