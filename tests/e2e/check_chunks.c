/* check_chunks.c: every compressed chunk of every rank's region datasets in
 * a scope file is byte for byte what one thread encoding its values with
 * chunk_codec.c gives: a file written with finalize threads holds exactly
 * the bytes of one written without. Prints the chunks checked; exits 1 at
 * the first difference. usage: check_chunks FILE */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunk_codec.h"
#include "region_encode.h"

static struct chunk_codec codec;
static unsigned char *values, *stored, *encoded;
static long chunks, failed;

/* Compares each chunk of one dataset with its values re-encoded. */
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
        hsize_t bytes;
        uint32_t filters = 0;
        H5Dget_chunk_storage_size(d, &at, &bytes);
        H5Dread_chunk(d, H5P_DEFAULT, &at, &filters, stored);
        size_t mine = chunk_encode(&codec, values, chunk_len, elsize, encoded);
        chunks++;
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
    hid_t file = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0 || chunk_codec_init(&codec, max) != 0 || !values || !stored || !encoded)
        return 2;
    H5Ovisit2(file, H5_INDEX_NAME, H5_ITER_NATIVE, visit, &file, H5O_INFO_BASIC);
    H5Fclose(file);
    printf("%ld chunk(s) checked, %ld different\n", chunks, failed);
    return failed || chunks == 0 ? 1 : 0;
}
