/* check_chunks.c: every compressed chunk of every rank's region datasets in
 * a scope file is byte for byte what one thread encoding its values with
 * chunk_codec.c gives: a file written with finalize threads holds exactly
 * the bytes of one written without. A chunk never written (a column
 * created once it was needed) must read as 0. Prints the chunks checked;
 * exits 1 at the first difference. usage: check_chunks FILE */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunk_codec.h"
#include "region_encode.h"

static struct chunk_codec codec;
static unsigned char *values, *stored, *encoded;
static long chunks, failed;

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

/* Compares each chunk of one dataset with its values re-encoded; a chunk
 * never written must read as 0. */
static void check_dataset(hid_t file, const char *path)
{
    hid_t d = H5Dopen2(file, path, H5P_DEFAULT), plist = H5Dget_create_plist(d);
    if (H5Pget_layout(plist) != H5D_CHUNKED) {
        H5Pclose(plist);
        H5Dclose(d);
        return;
    }
    hsize_t chunk_len, extent;
    H5Pget_chunk(plist, 1, &chunk_len);
    hid_t space = H5Dget_space(d), type = H5Dget_type(d);
    H5Sget_simple_extent_dims(space, &extent, NULL);
    size_t elsize = H5Tget_size(type);
    for (hsize_t at = 0; at < extent; at += chunk_len) {
        hsize_t n = extent - at < chunk_len ? extent - at : chunk_len;
        memset(values, 0, chunk_len * elsize);   /* the padding scope writes */
        hid_t mem = H5Screate_simple(1, &n, NULL);
        H5Sselect_hyperslab(space, H5S_SELECT_SET, &at, NULL, &n, NULL);
        H5Dread(d, type, mem, space, H5P_DEFAULT, values);
        H5Sclose(mem);
        hsize_t bytes = 0;
        uint32_t filters = 0;
        chunks++;
        if (H5Dget_chunk_storage_size(d, &at, &bytes) < 0 || bytes == 0) {
            /* never written: a column created late (thread_ids once a call
             * ran off thread 0) reads as its fill value, 0, before that */
            if (!all_zero(values, (size_t)n * elsize)) {
                printf("FAIL: %s chunk at %llu: not stored, yet its values are not all 0\n",
                       path, (unsigned long long)at);
                failed++;
            }
            continue;
        }
        H5Dread_chunk(d, H5P_DEFAULT, &at, &filters, stored);
        size_t mine = chunk_encode(&codec, values, chunk_len, elsize, encoded);
        if (mine != bytes || memcmp(stored, encoded, mine) != 0) {
            printf("FAIL: %s chunk at %llu: %llu bytes stored, %zu re-encoded\n", path,
                   (unsigned long long)at, (unsigned long long)bytes, mine);
            failed++;
        }
    }
    H5Tclose(type);
    H5Sclose(space);
    H5Pclose(plist);
    H5Dclose(d);
}

static herr_t visit(hid_t obj, const char *name, const H5O_info_t *info, void *file)
{
    (void)obj;
    if (info->type == H5O_TYPE_DATASET && strstr(name, "/regions/"))
        check_dataset(*(hid_t *)file, name);
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: check_chunks FILE\n");
        return 2;
    }
    size_t max = REGION_WINDOW * sizeof(int64_t);
    values = malloc(max);
    stored = malloc(chunk_codec_bound(max));
    encoded = malloc(chunk_codec_bound(max));
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);   /* a chunk never written is no error here */
    hid_t file = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0 || chunk_codec_init(&codec, max) != 0 || !values || !stored || !encoded)
        return 2;
    H5Ovisit2(file, H5_INDEX_NAME, H5_ITER_NATIVE, visit, &file, H5O_INFO_BASIC);
    H5Fclose(file);
    printf("%ld chunk(s) checked, %ld different\n", chunks, failed);
    return failed || chunks == 0 ? 1 : 0;
}
