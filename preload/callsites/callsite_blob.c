/* callsite_blob.c: packing a call-site table: three counts, then per frame
 * its offset, line and the lengths of its three strings (UINT32_MAX for
 * none) followed by the strings with their NULs, then the sites from the
 * next multiple of 4. */
#include "callsite_blob.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct blob_counts {
    uint64_t nframes, nsites, depth;
};
struct blob_frame {
    uint64_t offset;
    int32_t line;
    uint32_t len[3];
};

static const char *const *strings_of(const struct scope_callsite_frame *f, const char *out[3])
{
    out[0] = f->module;
    out[1] = f->function;
    out[2] = f->file;
    return out;
}

char *scope_callsite_blob_pack(const struct scope_callsite_table *t, size_t *len)
{
    size_t head = sizeof(struct blob_counts);
    const char *s[3];
    for (size_t i = 0; i < t->nframes; i++) {
        head += sizeof(struct blob_frame);
        for (int k = 0; k < 3; k++)
            head += strings_of(&t->frames[i], s)[k] ? strlen(s[k]) + 1 : 0;
    }
    head = (head + 3) & ~(size_t)3;
    size_t size = head + t->nsites * t->depth * sizeof(int32_t);
    char *blob = calloc(1, size), *p = blob;
    if (!blob)
        return NULL;
    struct blob_counts c = {t->nframes, t->nsites, t->depth};
    memcpy(p, &c, sizeof(c));
    p += sizeof(c);
    for (size_t i = 0; i < t->nframes; i++) {
        struct blob_frame f = {t->frames[i].offset, t->frames[i].line, {0, 0, 0}};
        strings_of(&t->frames[i], s);
        for (int k = 0; k < 3; k++)
            f.len[k] = s[k] ? (uint32_t)strlen(s[k]) : UINT32_MAX;
        memcpy(p, &f, sizeof(f));
        p += sizeof(f);
        for (int k = 0; k < 3; k++)
            if (s[k]) {
                memcpy(p, s[k], f.len[k] + 1);
                p += f.len[k] + 1;
            }
    }
    memcpy(blob + head, t->sites, t->nsites * t->depth * sizeof(int32_t));
    *len = size;
    return blob;
}

int scope_callsite_blob_unpack(const char *blob, size_t len, struct scope_callsite_table *t,
                               struct scope_callsite_frame **frames)
{
    struct blob_counts c;
    *frames = NULL;
    if (len < sizeof(c))
        return -1;
    memcpy(&c, blob, sizeof(c));
    size_t at = sizeof(c);
    if (c.nframes > len / sizeof(struct blob_frame) || c.depth > 64 ||
        !(*frames = calloc(c.nframes ? c.nframes : 1, sizeof(**frames))))
        return -1;
    for (size_t i = 0; i < c.nframes; i++) {
        struct blob_frame f;
        if (len - at < sizeof(f))
            goto bad;
        memcpy(&f, blob + at, sizeof(f));
        at += sizeof(f);
        const char *s[3] = {NULL, NULL, NULL};
        for (int k = 0; k < 3; k++) {
            if (f.len[k] == UINT32_MAX)
                continue;
            if (len - at <= f.len[k] || blob[at + f.len[k]] != '\0')
                goto bad;
            s[k] = blob + at;
            at += f.len[k] + 1;
        }
        (*frames)[i] = (struct scope_callsite_frame){s[0], s[1], s[2], f.offset, f.line};
    }
    at = (at + 3) & ~(size_t)3;
    if (at > len || c.depth == 0 || (len - at) / sizeof(int32_t) / c.depth != c.nsites ||
        (len - at) % (sizeof(int32_t) * c.depth) != 0 || (uintptr_t)(blob + at) % 4 != 0)
        goto bad;
    *t = (struct scope_callsite_table){*frames, c.nframes, (const int32_t *)(blob + at), c.nsites,
                                       c.depth};
    return 0;
bad:
    free(*frames);
    *frames = NULL;
    return -1;
}
