/* hdf5_app.c: an MPI application that writes HDF5 files of its own, to
 * show scope's writer (serial HDF5, loaded in a namespace of its own) does
 * not disturb it. Built against parallel HDF5 (H5_HAVE_PARALLEL) every rank
 * writes its slice of one shared dataset through MPI-IO; against serial
 * HDF5 each rank writes a file of its own. Dataset values are rank*1000+i. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>

#define PER_RANK 1000

__attribute__((noinline)) void fill(int rank, int *values)
{
    for (int i = 0; i < PER_RANK; i++)
        values[i] = rank * 1000 + i;
}

__attribute__((noinline)) int write_values(const char *path, int rank, int size, const int *values)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hsize_t total = PER_RANK, offset = 0, count = PER_RANK;
#ifdef H5_HAVE_PARALLEL
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    total = (hsize_t)PER_RANK * (hsize_t)size;
    offset = (hsize_t)PER_RANK * (hsize_t)rank;
#else
    (void)rank;
    (void)size;
#endif
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hid_t space = H5Screate_simple(1, &total, NULL);
    hid_t dset = H5Dcreate2(file, "values", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT,
                            H5P_DEFAULT);
    hid_t mem = H5Screate_simple(1, &count, NULL);
    H5Sselect_hyperslab(space, H5S_SELECT_SET, &offset, NULL, &count, NULL);
    herr_t rc = H5Dwrite(dset, H5T_NATIVE_INT, mem, space, H5P_DEFAULT, values);
    H5Sclose(mem);
    H5Dclose(dset);
    H5Sclose(space);
    H5Fclose(file);
    H5Pclose(fapl);
    return rc < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
    int rank, size, values[PER_RANK];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char path[64];
#ifdef H5_HAVE_PARALLEL
    snprintf(path, sizeof(path), "app.h5");
#else
    snprintf(path, sizeof(path), "app_%d.h5", rank);
#endif
    fill(rank, values);
    int rc = write_values(path, rank, size, values);
    MPI_Finalize();
    return rc == 0 ? 0 : 1;
}
