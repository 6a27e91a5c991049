/* callsite_set.c: interning resolved frames and stacks (see callsite_set.h). */
#include "callsite_set.h"

#include "grow_array.h"

#include <stdlib.h>
#include <string.h>

#define INDEX_FIRST_SLOTS 256   /* a hash index's first size (a power of two) */

void scope_callsite_set_init(struct scope_callsite_set *s)
{
    memset(s, 0, sizeof(*s));
}

void scope_callsite_set_free(struct scope_callsite_set *s)
{
    for (size_t i = 0; i < s->nframes; i++) {
        free((char *)s->frames[i].module);
        free((char *)s->frames[i].function);
        free((char *)s->frames[i].file);
    }
    free(s->frames);
    free(s->sites);
    free(s->frame_index);
    free(s->site_index);
    scope_callsite_set_init(s);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v;
    h *= 0xff51afd7ed558ccdu;
    return h ^ (h >> 32);
}

static uint64_t hash_string(uint64_t h, const char *s)
{
    for (; s && *s; s++)
        h = mix(h, (unsigned char)*s);
    return mix(h, 0x100);   /* NULL and "" differ from a following field */
}

static uint64_t hash_frame(const struct scope_callsite_frame *f)
{
    uint64_t h = hash_string(hash_string(hash_string(1, f->module), f->function), f->file);
    return mix(mix(h, f->offset), (uint64_t)(uint32_t)f->line);
}

static int same_string(const char *a, const char *b)
{
    return (!a || !b) ? a == b : strcmp(a, b) == 0;
}

static int same_frame(const struct scope_callsite_frame *a, const struct scope_callsite_frame *b)
{
    return a->offset == b->offset && a->line == b->line && same_string(a->module, b->module) &&
           same_string(a->function, b->function) && same_string(a->file, b->file);
}

static uint64_t hash_site(const int32_t *frames)
{
    uint64_t h = 7;
    for (size_t i = 0; i < SCOPE_CALLSITE_MAX_DEPTH; i++)
        h = mix(h, (uint64_t)(uint32_t)frames[i]);
    return h;
}

static const int32_t *site_at(const struct scope_callsite_set *s, size_t i)
{
    return s->sites + i * SCOPE_CALLSITE_MAX_DEPTH;
}

typedef int (*entry_equal_fn)(const struct scope_callsite_set *s, size_t entry, const void *key);

/* Slot of `key` in an index: the entry equal to it, or the empty slot
 * where it belongs. */
static size_t find_slot(const struct scope_callsite_set *s, const uint32_t *index, size_t cap,
                        uint64_t hash, entry_equal_fn equal, const void *key)
{
    size_t mask = cap - 1, at = (size_t)hash & mask;
    while (index[at] && !equal(s, index[at] - 1, key))
        at = (at + 1) & mask;
    return at;
}

static int frame_equal(const struct scope_callsite_set *s, size_t entry, const void *key)
{
    return same_frame(&s->frames[entry], key);
}

static int site_equal(const struct scope_callsite_set *s, size_t entry, const void *key)
{
    return memcmp(site_at(s, entry), key, SCOPE_CALLSITE_MAX_DEPTH * sizeof(int32_t)) == 0;
}

static size_t frame_slot(const struct scope_callsite_set *s, const struct scope_callsite_frame *f)
{
    return find_slot(s, s->frame_index, s->frame_index_cap, hash_frame(f), frame_equal, f);
}

static size_t site_slot(const struct scope_callsite_set *s, const int32_t *frames)
{
    return find_slot(s, s->site_index, s->site_index_cap, hash_site(frames), site_equal, frames);
}

/* Doubles an index (when it would be over half full) and re-inserts. */
static int grow(struct scope_callsite_set *s, int frames)
{
    uint32_t **index = frames ? &s->frame_index : &s->site_index;
    size_t *cap = frames ? &s->frame_index_cap : &s->site_index_cap;
    size_t n = frames ? s->nframes : s->nsites;
    if (2 * (n + 1) <= *cap)
        return 0;
    size_t new_cap = *cap ? 2 * *cap : INDEX_FIRST_SLOTS;
    uint32_t *old = *index, *fresh = calloc(new_cap, sizeof(*fresh));
    if (!fresh)
        return -1;
    *index = fresh;
    *cap = new_cap;
    for (size_t i = 0; i < n; i++)
        fresh[frames ? frame_slot(s, &s->frames[i]) : site_slot(s, site_at(s, i))] = (uint32_t)(i + 1);
    free(old);
    return 0;
}

static char *copy(const char *s, int *failed)
{
    char *c = s ? strdup(s) : NULL;
    *failed |= s && !c;
    return c;
}

int32_t scope_callsite_set_frame(struct scope_callsite_set *s, const struct scope_callsite_frame *f)
{
    if (grow(s, 1) != 0 || s->nframes >= INT32_MAX ||
        scope_grow_array((void **)&s->frames, &s->frames_cap, s->nframes + 1, sizeof(*s->frames)) != 0)
        return -1;
    size_t at = frame_slot(s, f);
    if (s->frame_index[at])
        return (int32_t)(s->frame_index[at] - 1);
    int failed = 0;
    struct scope_callsite_frame c = {copy(f->module, &failed), copy(f->function, &failed),
                                     copy(f->file, &failed), f->offset, f->line};
    if (failed) {
        free((char *)c.module);
        free((char *)c.function);
        free((char *)c.file);
        return -1;
    }
    s->frames[s->nframes] = c;
    s->frame_index[at] = (uint32_t)++s->nframes;
    return (int32_t)(s->nframes - 1);
}

int32_t scope_callsite_set_site(struct scope_callsite_set *s, const int32_t *frames, size_t n)
{
    int32_t row[SCOPE_CALLSITE_MAX_DEPTH];
    n = n < SCOPE_CALLSITE_MAX_DEPTH ? n : SCOPE_CALLSITE_MAX_DEPTH;
    for (size_t i = 0; i < SCOPE_CALLSITE_MAX_DEPTH; i++)
        row[i] = i < n ? frames[i] : -1;
    if (grow(s, 0) != 0 || s->nsites >= INT32_MAX ||
        scope_grow_array((void **)&s->sites, &s->sites_cap, (s->nsites + 1) * SCOPE_CALLSITE_MAX_DEPTH,
                sizeof(*s->sites)) != 0)
        return -1;
    size_t at = site_slot(s, row);
    if (s->site_index[at])
        return (int32_t)(s->site_index[at] - 1);
    memcpy(s->sites + s->nsites * SCOPE_CALLSITE_MAX_DEPTH, row, sizeof(row));
    s->site_index[at] = (uint32_t)++s->nsites;
    s->depth = n > s->depth ? n : s->depth;
    return (int32_t)(s->nsites - 1);
}

int scope_callsite_set_add_table(struct scope_callsite_set *s, const struct scope_callsite_table *t,
                                 int32_t **remap)
{
    int32_t *frame_map = malloc((t->nframes ? t->nframes : 1) * sizeof(*frame_map));
    *remap = malloc((t->nsites ? t->nsites : 1) * sizeof(**remap));
    int rc = frame_map && *remap ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < t->nframes; i++)
        rc = (frame_map[i] = scope_callsite_set_frame(s, &t->frames[i])) < 0 ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < t->nsites; i++) {
        int32_t row[SCOPE_CALLSITE_MAX_DEPTH];
        size_t n = 0;
        for (; n < t->depth && n < SCOPE_CALLSITE_MAX_DEPTH; n++) {
            int32_t f = t->sites[i * t->depth + n];
            if (f < 0 || (size_t)f >= t->nframes)
                break;
            row[n] = frame_map[f];
        }
        (*remap)[i] = n ? scope_callsite_set_site(s, row, n) : -1;
        rc = n && (*remap)[i] < 0 ? -1 : 0;
    }
    free(frame_map);
    if (rc != 0) {
        free(*remap);
        *remap = NULL;
    }
    return rc;
}

int scope_callsite_set_table(const struct scope_callsite_set *s, struct scope_callsite_table *t,
                             int32_t **storage)
{
    size_t depth = s->depth ? s->depth : 1;
    *storage = malloc((s->nsites ? s->nsites : 1) * depth * sizeof(**storage));
    if (!*storage)
        return -1;
    for (size_t i = 0; i < s->nsites; i++)
        memcpy(*storage + i * depth, site_at(s, i), depth * sizeof(**storage));
    *t = (struct scope_callsite_table){s->frames, s->nframes, *storage, s->nsites, depth};
    return 0;
}
