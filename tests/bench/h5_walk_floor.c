/* h5_walk_floor.c: what libhdf5 alone takes to walk a profile's layout, the
 * floor under `scope info` on a file without statistics or index (one
 * written by h5py): each step does what the one before did and more.
 *   names:    every rank's region names (the link lists, nothing opened)
 *   groups:   and every region's group opened
 *   datasets: and every region's start_times opened for its length (the
 *             call count)
 * Prints one RESULT line: the seconds of each step (after an untimed first
 * walk), the regions and calls.
 * usage: h5_walk_floor FILE.h5 */
#include <hdf5.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum step { NAMES, GROUPS, DATASETS, NSTEPS };

struct walk {
    enum step step;
    long regions;
    long long calls;
    int failed;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static herr_t region(hid_t regions, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    struct walk *w = data;
    w->regions++;
    if (w->step == NAMES)
        return 0;
    hid_t g = H5Gopen2(regions, name, H5P_DEFAULT);
    if (g < 0) {
        w->failed = 1;
        return 0;
    }
    if (w->step == DATASETS) {
        hid_t d = H5Dopen2(g, "start_times", H5P_DEFAULT);
        hid_t space = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
        hsize_t n = 0;
        if (space >= 0 && H5Sget_simple_extent_dims(space, &n, NULL) == 1)
            w->calls += (long long)n;
        else
            w->failed = 1;
        if (space >= 0)
            H5Sclose(space);
        if (d >= 0)
            H5Dclose(d);
    }
    H5Gclose(g);
    return 0;
}

static herr_t rank(hid_t file, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    if (strncmp(name, "rank", 4) != 0)
        return 0;   /* /metadata */
    char path[64];
    snprintf(path, sizeof path, "%.50s/regions", name);
    hid_t regions = H5Gopen2(file, path, H5P_DEFAULT);
    if (regions < 0) {
        ((struct walk *)data)->failed = 1;
        return 0;
    }
    H5Literate(regions, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, region, data);
    H5Gclose(regions);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.h5\n", argv[0]);
        return 2;
    }
    double seconds[NSTEPS];
    struct walk w = {0};
    for (int s = -1; s < NSTEPS; s++) {   /* -1: a first walk, untimed, warms the caches */
        w = (struct walk){.step = s < 0 ? NAMES : (enum step)s};
        double t0 = now();
        hid_t f = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
        if (f < 0) {
            fprintf(stderr, "%s: cannot open %s\n", argv[0], argv[1]);
            return 1;
        }
        H5Literate(f, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, rank, &w);
        H5Fclose(f);
        if (s >= 0)
            seconds[s] = now() - t0;
        if (w.failed) {
            fprintf(stderr, "%s: %s is not laid out as rank{N}/regions/{name}/start_times\n",
                    argv[0], argv[1]);
            return 1;
        }
    }
    printf("RESULT h5-floor names_s=%.3f groups_s=%.3f datasets_s=%.3f regions=%ld calls=%lld\n",
           seconds[NAMES], seconds[GROUPS], seconds[DATASETS], w.regions, w.calls);
    return 0;
}
