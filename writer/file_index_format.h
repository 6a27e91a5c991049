/* file_index_format.h: the layout of a file's index of its region groups,
 * shared by the writer (file_index.c) and the reader (reader_index.c). The
 * index lets a reader learn every rank's regions (their statistics and
 * which datasets each group holds) from two datasets of /metadata instead
 * of opening each group (README.md, "File format"):
 *   index_ranks    one row per rank the file holds: rank, dropped_events
 *   index_names    the link names (escaped) of the region groups
 *   index_regions  one row per region group: rank, name (its index in
 *                  index_names), the statistics of region_stats.h (self_ns -1:
 *                  not stored), folded_calls, unfinished_calls, payload
 *                  (mpi_payload's family as its index in
 *                  file_index_payload_names, 0: none) and datasets (bit i:
 *                  the group links the dataset named by entry i of the
 *                  dataset_bits attribute of index_regions). */
#ifndef SCOPE_FILE_INDEX_FORMAT_H
#define SCOPE_FILE_INDEX_FORMAT_H

#include <hdf5.h>
#include <stdint.h>

struct file_index_rank {
    int32_t rank;
    int64_t dropped_events;
};

struct file_index_region {
    int32_t rank, name;
    int64_t calls, total_ns, min_ns, max_ns, first_start_ns, last_end_ns;
    double m2_ns2;
    int64_t self_ns, folded_calls, unfinished_calls;
    int8_t payload;
    uint32_t datasets;
};

static const char *const file_index_payload_names[] = {"", "p2p", "collective", "rma", "io"};
#define FILE_INDEX_PAYLOADS (sizeof file_index_payload_names / sizeof file_index_payload_names[0])

/* The compound type of a rank row: native (memory) or little-endian (file),
 * both laid out as the struct (x86-64's), so that reading the rows back
 * converts nothing. */
static inline hid_t file_index_rank_type(int file)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct file_index_rank));
    if (t >= 0 &&
        (H5Tinsert(t, "rank", HOFFSET(struct file_index_rank, rank),
                   file ? H5T_STD_I32LE : H5T_NATIVE_INT32) < 0 ||
         H5Tinsert(t, "dropped_events", HOFFSET(struct file_index_rank, dropped_events),
                   file ? H5T_STD_I64LE : H5T_NATIVE_INT64) < 0)) {
        H5Tclose(t);
        t = H5I_INVALID_HID;
    }
    return t;
}

/* The compound type of a region row. */
static inline hid_t file_index_region_type(int file)
{
    static const struct {
        const char *name;
        size_t offset;
        int kind;   /* 0 int32, 1 int64, 2 double, 3 int8, 4 uint32 */
    } fields[] = {
        {"rank", HOFFSET(struct file_index_region, rank), 0},
        {"name", HOFFSET(struct file_index_region, name), 0},
        {"calls", HOFFSET(struct file_index_region, calls), 1},
        {"total_ns", HOFFSET(struct file_index_region, total_ns), 1},
        {"min_ns", HOFFSET(struct file_index_region, min_ns), 1},
        {"max_ns", HOFFSET(struct file_index_region, max_ns), 1},
        {"first_start_ns", HOFFSET(struct file_index_region, first_start_ns), 1},
        {"last_end_ns", HOFFSET(struct file_index_region, last_end_ns), 1},
        {"m2_ns2", HOFFSET(struct file_index_region, m2_ns2), 2},
        {"self_ns", HOFFSET(struct file_index_region, self_ns), 1},
        {"folded_calls", HOFFSET(struct file_index_region, folded_calls), 1},
        {"unfinished_calls", HOFFSET(struct file_index_region, unfinished_calls), 1},
        {"payload", HOFFSET(struct file_index_region, payload), 3},
        {"datasets", HOFFSET(struct file_index_region, datasets), 4},
    };
    hid_t mem[] = {H5T_NATIVE_INT32, H5T_NATIVE_INT64, H5T_NATIVE_DOUBLE, H5T_NATIVE_INT8,
                   H5T_NATIVE_UINT32};
    hid_t disk[] = {H5T_STD_I32LE, H5T_STD_I64LE, H5T_IEEE_F64LE, H5T_STD_I8LE,
                    H5T_STD_U32LE};
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct file_index_region));
    for (size_t i = 0; t >= 0 && i < sizeof fields / sizeof fields[0]; i++)
        if (H5Tinsert(t, fields[i].name, fields[i].offset,
                      (file ? disk : mem)[fields[i].kind]) < 0) {
            H5Tclose(t);
            t = H5I_INVALID_HID;
        }
    return t;
}

#endif
