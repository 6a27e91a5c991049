/* write_sample.c: writes the writer tests' sample file to argv[1], for the
 * tests that read it with other tools (h5dump, h5py). */
#include <stdio.h>

#include "sample.h"

int main(int argc, char **argv)
{
    char err[512];
    if (argc != 2) {
        fprintf(stderr, "usage: write_sample FILE.h5\n");
        return 2;
    }
    if (sample_write(argv[1], err, sizeof err) < 0) {
        fprintf(stderr, "write_sample: %s\n", err);
        return 1;
    }
    return 0;
}
