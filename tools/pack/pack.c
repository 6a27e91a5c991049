/* pack.c: joins a multi-file run into one file (pack.h) with HDF5's own
 * object copy: each top-level group of the run's file, a group or an
 * external link to a node's part, is copied whole (datasets keep their
 * compressed chunks). Attributes are copied one by one afterwards: HDF5
 * 1.10's object copy crashes on variable-length string attributes kept in
 * dense storage (more than 8 on an object, as /metadata has). The run's
 * file indexes its own node's ranks only, each part its node's: the packed
 * file gets one index of them all, so that it opens as fast as the run's
 * file. A long pack shows its progress on a terminal. */
#include "pack.h"
#include "clock.h"
#include "file_index.h"
#include "grow_array.h"
#include "log.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A node's part, and the ranks the run's file links to it. */
struct part {
    char *file;   /* as the links name it */
    int *ranks;
    size_t n, cap;
};

struct pack {
    hid_t out;
    struct part *parts;
    size_t nparts, parts_cap;
    int out_of_memory;
    size_t linked;
    size_t copied, objects;   /* top-level objects copied, of */
    int64_t began;            /* monotonic ns */
    const char *failed;   /* the name whose copy failed */
    char failed_name[256];
};

/* Attribute `name` of src, written to dst with the same type and shape. */
static herr_t copy_attribute(hid_t src, const char *name, const H5A_info_t *info, void *data)
{
    (void)info;
    hid_t dst = *(hid_t *)data;
    hid_t a = H5Aopen(src, name, H5P_DEFAULT);
    hid_t ftype = a >= 0 ? H5Aget_type(a) : H5I_INVALID_HID;
    hid_t space = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    hid_t mtype = ftype >= 0 ? H5Tget_native_type(ftype, H5T_DIR_ASCEND) : H5I_INVALID_HID;
    herr_t rc = -1;
    if (a >= 0 && ftype >= 0 && space >= 0 && mtype >= 0) {
        hssize_t n = H5Sget_simple_extent_npoints(space);
        void *buf = n >= 0 ? calloc((size_t)n + 1, H5Tget_size(mtype)) : NULL;
        if (buf && H5Aread(a, mtype, buf) >= 0) {
            hid_t b = H5Acreate2(dst, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
            rc = b >= 0 && H5Awrite(b, mtype, buf) >= 0 ? 0 : -1;
            if (b >= 0)
                H5Aclose(b);
            if (H5Tdetect_class(mtype, H5T_VLEN) > 0 || H5Tis_variable_str(mtype) > 0)
                H5Dvlen_reclaim(mtype, space, H5P_DEFAULT, buf);
        }
        free(buf);
    }
    if (mtype >= 0)
        H5Tclose(mtype);
    if (space >= 0)
        H5Sclose(space);
    if (ftype >= 0)
        H5Tclose(ftype);
    if (a >= 0)
        H5Aclose(a);
    return rc;
}

/* The attributes of `path` (relative to src) onto the same path in dst. */
static int copy_attributes(hid_t src, hid_t dst, const char *path)
{
    hid_t s = H5Oopen(src, path, H5P_DEFAULT);
    hid_t d = s >= 0 ? H5Oopen(dst, path, H5P_DEFAULT) : H5I_INVALID_HID;
    hsize_t idx = 0;
    int rc = d >= 0 && H5Aiterate2(s, H5_INDEX_NAME, H5_ITER_INC, &idx, copy_attribute, &d) >= 0
                 ? 0 : -1;
    if (d >= 0)
        H5Oclose(d);
    if (s >= 0)
        H5Oclose(s);
    return rc;
}

struct visit {
    hid_t src, dst;
    const char *top;
};

static herr_t copy_attributes_below(hid_t obj, const char *name, const H5O_info_t *info,
                                    void *data)
{
    (void)obj;
    (void)info;
    struct visit *v = data;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", v->top, name);
    return copy_attributes(v->src, v->dst, strcmp(name, ".") == 0 ? v->top : path);
}

/* The file an external link points into (malloc'd), or NULL. */
static char *linked_file(hid_t root, const char *name, const H5L_info_t *info)
{
    size_t size = info->u.val_size;
    char *value = malloc(size ? size : 1), *file = NULL;
    const char *target = NULL, *object = NULL;
    unsigned flags;
    if (value && H5Lget_val(root, name, value, size, H5P_DEFAULT) >= 0 &&
        H5Lunpack_elink_val(value, size, &flags, &target, &object) >= 0)
        file = strdup(target);
    free(value);
    return file;
}

/* Notes that /name, rank{N}, links into a node's part. */
static void note_linked(struct pack *p, hid_t root, const char *name, const H5L_info_t *info)
{
    int rank;
    char *file = linked_file(root, name, info);
    if (!file || sscanf(name, "rank%d", &rank) != 1) {
        free(file);   /* not a rank's: it reads from its groups */
        return;
    }
    size_t i = 0;
    while (i < p->nparts && strcmp(p->parts[i].file, file) != 0)
        i++;
    if (i == p->nparts) {
        if (scope_grow_array((void **)&p->parts, &p->parts_cap, p->nparts + 1,
                             sizeof *p->parts) != 0) {
            free(file);
            p->out_of_memory = 1;
            return;
        }
        p->parts[p->nparts++] = (struct part){.file = file};
    } else {
        free(file);
    }
    struct part *t = &p->parts[i];
    if (scope_grow_array((void **)&t->ranks, &t->cap, t->n + 1, sizeof *t->ranks) != 0)
        p->out_of_memory = 1;
    else
        t->ranks[t->n++] = rank;
}

static herr_t copy_one(hid_t root, const char *name, const H5L_info_t *info, void *data)
{
    struct pack *p = data;
    if (info->type == H5L_TYPE_EXTERNAL) {
        p->linked++;
        note_linked(p, root, name, info);
    }
    hid_t ocpypl = H5Pcreate(H5P_OBJECT_COPY);
    struct visit v = {root, p->out, name};
    int ok = ocpypl >= 0 && H5Pset_copy_object(ocpypl, H5O_COPY_WITHOUT_ATTR_FLAG) >= 0 &&
             H5Ocopy(root, name, p->out, name, ocpypl, H5P_DEFAULT) >= 0;
    hid_t top = ok ? H5Oopen(root, name, H5P_DEFAULT) : H5I_INVALID_HID;
    ok = top >= 0 && H5Ovisit(top, H5_INDEX_NAME, H5_ITER_INC, copy_attributes_below, &v) >= 0;
    if (top >= 0)
        H5Oclose(top);
    if (ocpypl >= 0)
        H5Pclose(ocpypl);
    p->copied++;
    scope_progress(scope_monotonic_ns() - p->began, "pack: /%s copied (%zu of %zu)", name,
                   p->copied, p->objects);
    if (ok)
        return 0;
    snprintf(p->failed_name, sizeof p->failed_name, "%s", name);
    p->failed = p->failed_name;
    return -1;
}

/* One index in the packed file for every rank: the run's file's rows, then
 * each part's for the ranks linked to it. A file without an index leaves
 * its ranks out (they read from their groups). */
static int join_indexes(struct pack *p, hid_t src, const char *in, const char *tmp, char *err,
                        size_t errlen)
{
    char why[512];
    struct h5_err e = {why, sizeof why};
    struct file_index x = {0};
    int rc = file_index_add_from(&x, src, NULL, 0, &e) < 0 ? -1 : 0;
    if (rc != 0)
        snprintf(err, errlen, "%s: %s", in, why);
    for (size_t i = 0; rc == 0 && i < p->nparts; i++) {
        char link[32];   /* the part as the copy found it: through a rank's link */
        snprintf(link, sizeof link, "rank%d", p->parts[i].ranks[0]);
        hid_t rank = H5Oopen(src, link, H5P_DEFAULT);
        hid_t part = rank >= 0 ? H5Iget_file_id(rank) : H5I_INVALID_HID;
        if (part < 0 ||
            file_index_add_from(&x, part, p->parts[i].ranks, p->parts[i].n, &e) < 0) {
            snprintf(err, errlen, "%s: %s", p->parts[i].file, part < 0 ? "cannot open" : why);
            rc = -1;
        }
        if (part >= 0)
            H5Fclose(part);
        if (rank >= 0)
            H5Oclose(rank);
    }
    hid_t meta = rc == 0 && x.nranks ? H5Gopen2(p->out, "metadata", H5P_DEFAULT)
                                     : H5I_INVALID_HID;
    for (const char *const *name = (const char *const[]){"index_ranks", "index_names",
                                                           "index_regions", NULL};
         meta >= 0 && *name; name++)
        if (H5Lexists(meta, *name, H5P_DEFAULT) > 0 && H5Ldelete(meta, *name, H5P_DEFAULT) < 0)
            rc = -1;
    if (meta >= 0 && (rc != 0 || file_index_write(&x, p->out, &e) != 0)) {
        snprintf(err, errlen, "%s: cannot write the joined index: %s", tmp,
                 rc != 0 ? "cannot replace the run's" : why);
        rc = -1;
    }
    if (meta >= 0)
        H5Gclose(meta);
    file_index_free(&x);
    return rc;
}

int scope_pack(const char *in, const char *out, size_t *linked, char *err, size_t errlen)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", out, (long)getpid());
    H5E_auto2_t old_func;
    void *old_data;
    H5Eget_auto2(H5E_DEFAULT, &old_func, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    struct pack p = {.out = H5I_INVALID_HID, .began = scope_monotonic_ns()};
    int rc = -1;
    hid_t src = H5Fopen(in, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (src < 0) {
        snprintf(err, errlen, "%s: cannot open as HDF5", in);
        goto done;
    }
    p.out = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (p.out < 0) {
        snprintf(err, errlen, "%s: cannot create", tmp);
        goto done;
    }
    hsize_t idx = 0;
    H5G_info_t top;
    p.objects = H5Gget_info(src, &top) >= 0 ? (size_t)top.nlinks : 0;
    herr_t copied = H5Literate(src, H5_INDEX_NAME, H5_ITER_INC, &idx, copy_one, &p);
    scope_progress_end();
    if (copied < 0) {
        snprintf(err, errlen, "%s: cannot copy /%s%s", in, p.failed ? p.failed : "",
                 p.linked ? " (is the node's file in its .d directory?)" : "");
        goto done;
    }
    if (p.out_of_memory) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (p.nparts && join_indexes(&p, src, in, tmp, err, errlen) != 0)
        goto done;
    if (H5Fclose(p.out) < 0) {
        p.out = H5I_INVALID_HID;
        snprintf(err, errlen, "%s: cannot close", tmp);
        goto done;
    }
    p.out = H5I_INVALID_HID;
    if (rename(tmp, out) != 0) {
        snprintf(err, errlen, "%s: cannot rename to %s", tmp, out);
        goto done;
    }
    *linked = p.linked;
    rc = 0;
done:
    if (p.out >= 0)
        H5Fclose(p.out);
    if (src >= 0)
        H5Fclose(src);
    if (rc != 0)
        unlink(tmp);
    for (size_t i = 0; i < p.nparts; i++) {
        free(p.parts[i].file);
        free(p.parts[i].ranks);
    }
    free(p.parts);
    H5Eset_auto2(H5E_DEFAULT, old_func, old_data);
    return rc;
}
