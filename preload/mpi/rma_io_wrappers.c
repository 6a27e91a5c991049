/* rma_io_wrappers.c: one-sided communication and MPI-IO, recorded with
 * what they carried (wrapped_call.h), one description per function: an RMA
 * call's bytes are the origin's count x type size (put, got or
 * accumulated; the atomics that also fetch: what goes to the target,
 * nothing for MPI_NO_OP, plus what comes back, MPI_Compare_and_swap's
 * compare value too), its peer the target as a world rank (through the
 * communicator the window was created over: the window constructors are
 * wrapped here), its communicator that one's id; an I/O call's bytes are
 * count x type size of what it read or wrote (no peer, tag or
 * communicator). */
#include "wrapped_call.h"

/* An RMA call and its request-based form (R...: the same and a request). */
#define RMA(F, NAME, RF, RNAME, PARAMS, ARGS)                                                 \
    CARRIER(F, NAME, PARAMS, ARGS, type_bytes(origin_count, origin_type), target_rank,       \
            scope_window_comm(win))                                                          \
    CARRIER(RF, RNAME, (UNPAREN PARAMS, MPI_Request *request), (UNPAREN ARGS, request),      \
            type_bytes(origin_count, origin_type), target_rank, scope_window_comm(win))

RMA(PUT, Put, RPUT, Rput,
    (const void *origin_addr, int origin_count, MPI_Datatype origin_type, int target_rank,
     MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win),
    (origin_addr, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
     win))
RMA(GET, Get, RGET, Rget,
    (void *origin_addr, int origin_count, MPI_Datatype origin_type, int target_rank,
     MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win),
    (origin_addr, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
     win))
RMA(ACCUMULATE, Accumulate, RACCUMULATE, Raccumulate,
    (const void *origin_addr, int origin_count, MPI_Datatype origin_type, int target_rank,
     MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win),
    (origin_addr, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
     op, win))

/* What an atomic sends to the target: nothing for MPI_NO_OP. */
static int64_t operand_bytes(int count, MPI_Datatype type, MPI_Op op)
{
    return op == MPI_NO_OP ? 0 : type_bytes(count, type);
}

#define GET_ACCUMULATE_BYTES                                                                 \
    operand_bytes(origin_count, origin_type, op) + type_bytes(result_count, result_type)
#define GET_ACCUMULATE_PARAMS                                                                \
    (const void *origin_addr, int origin_count, MPI_Datatype origin_type, void *result_addr,  \
     int result_count, MPI_Datatype result_type, int target_rank, MPI_Aint target_disp,      \
     int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win)
#define GET_ACCUMULATE_ARGS                                                                  \
    (origin_addr, origin_count, origin_type, result_addr, result_count, result_type,         \
     target_rank, target_disp, target_count, target_type, op, win)

CARRIER(GET_ACCUMULATE, Get_accumulate, GET_ACCUMULATE_PARAMS, GET_ACCUMULATE_ARGS,
        GET_ACCUMULATE_BYTES, target_rank, scope_window_comm(win))
CARRIER(RGET_ACCUMULATE, Rget_accumulate,
        (UNPAREN GET_ACCUMULATE_PARAMS, MPI_Request *request),
        (UNPAREN GET_ACCUMULATE_ARGS, request), GET_ACCUMULATE_BYTES, target_rank,
        scope_window_comm(win))
CARRIER(FETCH_AND_OP, Fetch_and_op,
        (const void *origin_addr, void *result_addr, MPI_Datatype type, int target_rank,
         MPI_Aint target_disp, MPI_Op op, MPI_Win win),
        (origin_addr, result_addr, type, target_rank, target_disp, op, win),
        operand_bytes(1, type, op) + type_bytes(1, type), target_rank, scope_window_comm(win))
CARRIER(COMPARE_AND_SWAP, Compare_and_swap,
        (const void *origin_addr, const void *compare_addr, void *result_addr,
         MPI_Datatype type, int target_rank, MPI_Aint target_disp, MPI_Win win),
        (origin_addr, compare_addr, result_addr, type, target_rank, target_disp, win),
        type_bytes(3, type), target_rank, scope_window_comm(win))

/* File reads and writes, explicit offset or not, individual or collective. */
#define IO(F, NAME, PARAMS, ARGS) CARRIER(F, NAME, PARAMS, ARGS, type_bytes(count, type), -1, NULL)
#define IO_PARAMS(...) (MPI_File fh, __VA_ARGS__ int count, MPI_Datatype type, MPI_Status *status)

IO(FILE_READ, File_read, IO_PARAMS(void *buf,), (fh, buf, count, type, status))
IO(FILE_WRITE, File_write, IO_PARAMS(const void *buf,), (fh, buf, count, type, status))
IO(FILE_READ_ALL, File_read_all, IO_PARAMS(void *buf,), (fh, buf, count, type, status))
IO(FILE_WRITE_ALL, File_write_all, IO_PARAMS(const void *buf,), (fh, buf, count, type, status))
IO(FILE_READ_AT, File_read_at, IO_PARAMS(MPI_Offset offset, void *buf,),
   (fh, offset, buf, count, type, status))
IO(FILE_WRITE_AT, File_write_at, IO_PARAMS(MPI_Offset offset, const void *buf,),
   (fh, offset, buf, count, type, status))
IO(FILE_READ_AT_ALL, File_read_at_all, IO_PARAMS(MPI_Offset offset, void *buf,),
   (fh, offset, buf, count, type, status))
IO(FILE_WRITE_AT_ALL, File_write_at_all, IO_PARAMS(MPI_Offset offset, const void *buf,),
   (fh, offset, buf, count, type, status))

/* ---- window constructors: a window's targets are its communicator's ranks ---- */

#define WINDOW(NAME, PARAMS, ARGS, COMM, NEWWIN)                \
    EXPORT int MPI_##NAME PARAMS                                \
    {                                                           \
        int rc = PMPI_##NAME ARGS;                              \
        if (rc == MPI_SUCCESS && scope_wrapped_any())           \
            scope_window_created(*(NEWWIN), COMM);              \
        return rc;                                              \
    }

WINDOW(Win_create,
       (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win),
       (base, size, disp_unit, info, comm, win), comm, win)
WINDOW(Win_allocate,
       (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win),
       (size, disp_unit, info, comm, baseptr, win), comm, win)
WINDOW(Win_allocate_shared,
       (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win),
       (size, disp_unit, info, comm, baseptr, win), comm, win)
WINDOW(Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win), (info, comm, win), comm,
       win)

EXPORT int MPI_Win_free(MPI_Win *win)
{
    if (scope_wrapped_any())
        scope_window_forget(*win);
    return PMPI_Win_free(win);
}
