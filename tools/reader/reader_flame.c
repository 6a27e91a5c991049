/* The flame tree: a rank's call stack (or several ranks') merged by call
 * path, what flame graphs and folded stacks are drawn from; in a profile,
 * the call paths it stores. Paths are found
 * with a hash table keyed by (parent node, region or call-site frame, and
 * with SCOPE_FLAME_PATH_SITES the call's site), then
 * the nodes are put in depth-first order. With SCOPE_FLAME_CALLSITES, each
 * outermost kept call hangs under its recorded stack, outermost frame
 * first. */
#include "grow_array.h"
#include "reader_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct flame_ctx {
    const scope_file *f;
    const bool *keep;
    bool callsites;   /* SCOPE_FLAME_CALLSITES */
    bool path_sites;  /* SCOPE_FLAME_PATH_SITES */
    scope_flame_node *nodes;
    size_t n, cap;
    long *slots;      /* hash table of node indices, -1 = empty */
    size_t n_slots;   /* a power of two, at least twice n */
    long *node_of;    /* [call id] -> the node it went to (or its nearest kept ancestor's) */
    bool failed;
} flame_ctx;

/* What a node stands for besides its parent: a region (frame NULL) from
 * a call site (-1: any) or a call-site frame. */
static uint64_t node_key(size_t region, const scope_frame *frame, long site)
{
    return frame ? (uint64_t)(uintptr_t)frame : (uint64_t)region ^ (uint64_t)(site + 1) << 32;
}

static size_t slot_hash(long parent, uint64_t key, size_t n_slots)
{
    uint64_t h = (uint64_t)(parent + 1) * 0x9e3779b97f4a7c15ULL ^ key * 0xc2b2ae3d27d4eb4fULL;
    h ^= h >> 29;
    return (size_t)h & (n_slots - 1);
}

static bool grow_slots(flame_ctx *fc)
{
    size_t n_slots = fc->n_slots ? 2 * fc->n_slots : 64;
    long *slots = malloc(n_slots * sizeof *slots);
    if (!slots)
        return false;
    memset(slots, 0xff, n_slots * sizeof *slots);
    for (size_t i = 0; i < fc->n; i++) {
        const scope_flame_node *nd = &fc->nodes[i];
        size_t s = slot_hash(nd->parent, node_key(nd->region, nd->frame, nd->callsite), n_slots);
        while (slots[s] >= 0)
            s = (s + 1) & (n_slots - 1);
        slots[s] = (long)i;
    }
    free(fc->slots);
    fc->slots = slots;
    fc->n_slots = n_slots;
    return true;
}

/* The node of (parent, region, site) or, with a frame, of (parent,
 * frame), which is new with the region of the call it leads to; -1 when
 * out of memory. */
static long find_or_add(flame_ctx *fc, long parent, size_t region, const scope_frame *frame,
                        long site)
{
    if (2 * (fc->n + 1) > fc->n_slots && !grow_slots(fc))
        return -1;
    site = fc->path_sites && !frame ? site : -1;
    uint64_t key = node_key(region, frame, site);
    size_t s = slot_hash(parent, key, fc->n_slots);
    for (; fc->slots[s] >= 0; s = (s + 1) & (fc->n_slots - 1)) {
        const scope_flame_node *nd = &fc->nodes[fc->slots[s]];
        if (nd->parent == parent && node_key(nd->region, nd->frame, nd->callsite) == key &&
            !nd->frame == !frame && nd->callsite == site)
            return fc->slots[s];
    }
    if (scope_grow_array((void **)&fc->nodes, &fc->cap, fc->n + 1, sizeof *fc->nodes) != 0)
        return -1;
    fc->nodes[fc->n] = (scope_flame_node){
        .name = !frame ? fc->f->names[region] : frame->function[0] ? frame->function : frame->module,
        .region = region, .frame = frame, .parent = parent,
        .depth = parent < 0 ? 0 : fc->nodes[parent].depth + 1, .callsite = site,
    };
    fc->slots[s] = (long)fc->n;
    return (long)fc->n++;
}

/* The node of the innermost frame of an outermost call's recorded stack,
 * each frame counting the call; -1 without a stack (or out of memory). */
static long stack_nodes(flame_ctx *fc, const walk_call *c)
{
    long site = c->callsite;
    long node = -1;
    for (size_t level = fc->f->site_depth; site >= 0 && level-- > 0;) {
        const scope_frame *fr = scope_callsite_frame(fc->f, (size_t)site, level);
        if (!fr)
            continue;
        if ((node = find_or_add(fc, node, c->region, fr, -1)) < 0) {
            fc->failed = true;
            return -1;
        }
        fc->nodes[node].calls++;
        fc->nodes[node].total_ns += c->end_ns - c->start_ns;
    }
    return node;
}

static void add_call(void *ctx, const walk_call *c)
{
    flame_ctx *fc = ctx;
    long up = c->parent >= 0 ? fc->node_of[c->parent] : -1;
    if (fc->failed || !fc->keep[c->region]) {
        fc->node_of[c->id] = up;
        return;
    }
    if (up < 0 && fc->callsites)
        up = stack_nodes(fc, c);
    long node = fc->failed ? -1 : find_or_add(fc, up, c->region, NULL, c->callsite);
    if (node < 0) {
        fc->failed = true;
        return;
    }
    fc->nodes[node].calls++;
    fc->nodes[node].total_ns += c->end_ns - c->start_ns;
    fc->node_of[c->id] = node;
}

/* A profile's rank: its stored call paths become nodes as its calls would
 * (those of dropped regions hang their kept descendants under their
 * nearest kept ancestor). */
static int add_profile_rank(flame_ctx *fc, size_t ri, scope_error *err)
{
    profile_path *paths;
    size_t n;
    if (reader_profile_paths(fc->f, ri, &paths, &n, err) != 0)
        return -1;
    fc->node_of = malloc((n + 1) * sizeof *fc->node_of);
    for (size_t i = 0; fc->node_of && !fc->failed && i < n; i++) {
        const profile_path *p = &paths[i];
        long up = p->parent >= 0 ? fc->node_of[p->parent] : -1;
        long node = fc->keep[p->region] ? find_or_add(fc, up, p->region, NULL, p->callsite) : up;
        fc->failed = fc->keep[p->region] && node < 0;
        if (node >= 0 && fc->keep[p->region]) {
            fc->nodes[node].calls += (size_t)p->calls;
            fc->nodes[node].total_ns += p->total_ns;
        }
        fc->node_of[i] = node;
    }
    int rc = !fc->node_of || fc->failed ? reader_fail(err, "out of memory") : 0;
    free(fc->node_of);
    free(paths);
    return rc;
}

/* Self times, then the nodes in depth-first order (children in creation
 * order, which is the order of their first call). */
static scope_flame_node *depth_first(flame_ctx *fc)
{
    size_t n = fc->n;
    size_t *offsets = calloc(n + 2, sizeof *offsets), *items = malloc((n + 1) * sizeof *items);
    size_t *stack = malloc((n + 1) * sizeof *stack);
    long *new_index = malloc((n + 1) * sizeof *new_index);
    scope_flame_node *out = malloc((n + 1) * sizeof *out);
    if (!offsets || !items || !stack || !new_index || !out) {
        free(out);
        out = NULL;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        fc->nodes[i].self_ns = fc->nodes[i].total_ns;
        offsets[fc->nodes[i].parent + 2]++; /* parent -1 -> slot 1: the roots */
    }
    for (size_t i = 0; i < n; i++)
        if (fc->nodes[i].parent >= 0)
            fc->nodes[fc->nodes[i].parent].self_ns -= fc->nodes[i].total_ns;
    for (size_t i = 2; i < n + 2; i++)
        offsets[i] += offsets[i - 1];
    /* children of node p (-1 = roots): items[offsets[p + 1] .. offsets[p + 2]) */
    size_t *fill = malloc((n + 2) * sizeof *fill);
    if (!fill) {
        free(out);
        out = NULL;
        goto done;
    }
    memcpy(fill, offsets, (n + 2) * sizeof *fill);
    for (size_t i = 0; i < n; i++)
        items[fill[fc->nodes[i].parent + 1]++] = i;
    free(fill);
    size_t sp = 0, k = 0;
    for (size_t j = offsets[1]; j-- > offsets[0];)
        stack[sp++] = items[j];
    while (sp > 0) {
        size_t i = stack[--sp];
        new_index[i] = (long)k;
        out[k] = fc->nodes[i];
        out[k].parent = out[k].parent >= 0 ? new_index[out[k].parent] : -1;
        k++;
        for (size_t j = offsets[i + 2]; j-- > offsets[i + 1];)
            stack[sp++] = items[j];
    }
done:
    free(offsets);
    free(items);
    free(stack);
    free(new_index);
    return out;
}

scope_flame_node *scope_flame_tree(const scope_file *f, const scope_filter *flt, int rank,
                                   size_t *count, scope_error *err)
{
    return scope_flame_tree_ex(f, flt, rank, 0, count, err);
}

scope_flame_node *scope_flame_tree_ex(const scope_file *f, const scope_filter *flt, int rank,
                                      unsigned flags, size_t *count, scope_error *err)
{
    flame_ctx fc = {.f = f, .callsites = (flags & SCOPE_FLAME_CALLSITES) != 0,
                    .path_sites = (flags & SCOPE_FLAME_PATH_SITES) != 0};
    reader_selection sel;
    scope_flame_node *out = NULL;
    int rc = reader_select(f, flt, &sel, err);
    const bool *keep = sel.keep;
    bool *rank_keep = sel.rank_keep;
    if (rc == 0 && rank != SCOPE_ALL_RANKS) {
        long ri = reader_rank_index(f, rank);
        if (ri < 0)
            rc = reader_fail(err, "unknown rank %d", rank);
        for (size_t i = 0; i < f->n_ranks; i++)
            rank_keep[i] = (long)i == ri;
    }
    fc.keep = keep;
    for (size_t ri = 0; rc == 0 && ri < f->n_ranks; ri++) {
        if (!rank_keep[ri])
            continue;
        if (f->is_profile) {
            rc = add_profile_rank(&fc, ri, err);
            continue;
        }
        size_t calls = reader_rank_calls(f, ri);
        fc.node_of = malloc((calls + 1) * sizeof *fc.node_of);
        if (!fc.node_of)
            rc = reader_fail(err, "out of memory");
        else
            rc = reader_walk_rank(f, ri, add_call, &fc, err);
        free(fc.node_of);
        if (rc == 0 && fc.failed)
            rc = reader_fail(err, "out of memory");
    }
    if (rc == 0 && !(out = depth_first(&fc)))
        rc = reader_fail(err, "out of memory");
    if (rc == 0)
        *count = fc.n;
    free(fc.nodes);
    free(fc.slots);
    reader_selection_free(&sel);
    return out;
}
