/* hdf5_calls.c: an MPI program in which every rank writes and reads back a
 * serial HDF5 file of its own (PREFIX-RANK.h5), with a known number of
 * HDF5 calls per rank, all inside hdf5_work():
 *   write: 1 H5Fcreate, 1 H5Gcreate2, 2 H5Dcreate2, 4 H5Dwrite (two
 *          halves of each dataset), 1 H5Acreate2, 1 H5Awrite, 1 H5Aclose,
 *          2 H5Dclose, 1 H5Gclose, 1 H5Fclose;
 *   read:  1 H5Fopen, 1 H5Dopen2, 2 H5Dread, 1 H5Dclose, 1 H5Fclose.
 * Prints "hdf5_calls: N rank(s) ok" on rank 0. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>

#define ROWS 16
#define COLS 8

static int write_half(hid_t dset, hid_t type, int half, const void *data)
{
    hsize_t start[2] = {half * ROWS / 2, 0}, count[2] = {ROWS / 2, COLS};
    hid_t file_space = H5Dget_space(dset);
    hid_t mem_space = H5Screate_simple(2, count, NULL);
    H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL);
    herr_t rc = H5Dwrite(dset, type, mem_space, file_space, H5P_DEFAULT, data);
    H5Sclose(mem_space);
    H5Sclose(file_space);
    return rc < 0;
}

__attribute__((noinline)) int hdf5_work(const char *path, int rank)
{
    static double temperature[ROWS][COLS], back[ROWS][COLS];
    static int cells[ROWS][COLS];
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            temperature[i][j] = rank * 1000 + i * COLS + j + 0.5;
            cells[i][j] = i * COLS + j;
        }
    hsize_t dims[2] = {ROWS, COLS};
    int bad = 0;

    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t group = H5Gcreate2(file, "fields", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(2, dims, NULL);
    hid_t temp = H5Dcreate2(group, "temperature", H5T_IEEE_F64LE, space, H5P_DEFAULT,
                            H5P_DEFAULT, H5P_DEFAULT);
    hid_t ids = H5Dcreate2(group, "cells", H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT,
                           H5P_DEFAULT);
    for (int half = 0; half < 2; half++) {
        bad |= write_half(temp, H5T_NATIVE_DOUBLE, half, temperature[half * ROWS / 2]);
        bad |= write_half(ids, H5T_NATIVE_INT, half, cells[half * ROWS / 2]);
    }
    hid_t scalar = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(temp, "rank", H5T_STD_I32LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
    bad |= H5Awrite(attr, H5T_NATIVE_INT, &rank) < 0;
    H5Aclose(attr);
    H5Sclose(scalar);
    H5Sclose(space);
    H5Dclose(ids);
    H5Dclose(temp);
    H5Gclose(group);
    bad |= H5Fclose(file) < 0;

    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    temp = H5Dopen2(file, "/fields/temperature", H5P_DEFAULT);
    bad |= H5Dread(temp, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) < 0;
    bad |= back[ROWS - 1][COLS - 1] != temperature[ROWS - 1][COLS - 1];
    bad |= H5Dread(temp, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) < 0;
    H5Dclose(temp);
    bad |= H5Fclose(file) < 0;
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char path[4096];
    snprintf(path, sizeof path, "%s-%d.h5", argc > 1 ? argv[1] : "hdf5_calls", rank);
    int bad = hdf5_work(path, rank), any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("hdf5_calls: %d rank(s) %s\n", size, any_bad ? "FAILED" : "ok");
    MPI_Finalize();
    return any_bad;
}
