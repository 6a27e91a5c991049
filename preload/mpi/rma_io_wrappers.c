/* rma_io_wrappers.c: one-sided communication and MPI-IO, recorded with
 * what they carried (wrapped_call.h), one description per function: an RMA
 * call's bytes are the origin's count x type size (put, got or
 * accumulated; the atomics that also fetch: what goes to the target,
 * nothing for MPI_NO_OP, plus what comes back, MPI_Compare_and_swap's
 * compare value too), its peer the target as a world rank (through the
 * communicator the window was created over: the window constructors are
 * wrapped here), its communicator that one's id; an I/O call's bytes are
 * count x type size of what it read or wrote (no peer, tag or
 * communicator; a split collective one's, MPI_File_read_all_begin ..., at
 * its beginning, its _end timed only). Each also in its MPI-4 large-count form (MPI_Put_c ...,
 * MPI_File_read_c ..., MPI_Win_create_c ...) when the MPI library has them
 * (large_count.h). */
#include "io_offset.h"
#include "large_count.h"
#include "wrapped_call.h"

/* An RMA call and its request-based form (R...: the same and a request). */
#define RMA(F, NAME, RF, RNAME, PARAMS, ARGS)                                                 \
    CARRIER(F, NAME, PARAMS, ARGS, type_bytes(origin_count, origin_type), target_rank,       \
            scope_window_comm(win))                                                          \
    CARRIER(RF, RNAME, (UNPAREN PARAMS, MPI_Request *request), (UNPAREN ARGS, request),      \
            type_bytes(origin_count, origin_type), target_rank, scope_window_comm(win))

/* What an atomic sends to the target: nothing for MPI_NO_OP. */
static int64_t operand_bytes(int64_t count, MPI_Datatype type, MPI_Op op)
{
    return op == MPI_NO_OP ? 0 : type_bytes(count, type);
}

#define GET_ACCUMULATE_BYTES                                                                 \
    operand_bytes(origin_count, origin_type, op) + type_bytes(result_count, result_type)
#define GET_ACCUMULATE_PARAMS(COUNT)                                                         \
    (const void *origin_addr, COUNT origin_count, MPI_Datatype origin_type, void *result_addr, \
     COUNT result_count, MPI_Datatype result_type, int target_rank, MPI_Aint target_disp,    \
     COUNT target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win)
#define GET_ACCUMULATE_ARGS                                                                  \
    (origin_addr, origin_count, origin_type, result_addr, result_count, result_type,         \
     target_rank, target_disp, target_count, target_type, op, win)

/* The puts, gets and accumulates, of count type COUNT (int, or MPI_Count
 * for their large-count forms: large_count.h), their enums and names
 * ending in SUFFIX_F and SUFFIX. */
#define RMA_FUNCTIONS(SUFFIX_F, SUFFIX, COUNT)                                               \
    RMA(PUT##SUFFIX_F, Put##SUFFIX, RPUT##SUFFIX_F, Rput##SUFFIX,                            \
        (const void *origin_addr, COUNT origin_count, MPI_Datatype origin_type,              \
         int target_rank, MPI_Aint target_disp, COUNT target_count, MPI_Datatype target_type, \
         MPI_Win win),                                                                       \
        (origin_addr, origin_count, origin_type, target_rank, target_disp, target_count,     \
         target_type, win))                                                                  \
    RMA(GET##SUFFIX_F, Get##SUFFIX, RGET##SUFFIX_F, Rget##SUFFIX,                            \
        (void *origin_addr, COUNT origin_count, MPI_Datatype origin_type, int target_rank,   \
         MPI_Aint target_disp, COUNT target_count, MPI_Datatype target_type, MPI_Win win),   \
        (origin_addr, origin_count, origin_type, target_rank, target_disp, target_count,     \
         target_type, win))                                                                  \
    RMA(ACCUMULATE##SUFFIX_F, Accumulate##SUFFIX, RACCUMULATE##SUFFIX_F, Raccumulate##SUFFIX, \
        (const void *origin_addr, COUNT origin_count, MPI_Datatype origin_type,              \
         int target_rank, MPI_Aint target_disp, COUNT target_count, MPI_Datatype target_type, \
         MPI_Op op, MPI_Win win),                                                            \
        (origin_addr, origin_count, origin_type, target_rank, target_disp, target_count,     \
         target_type, op, win))                                                              \
    CARRIER(GET_ACCUMULATE##SUFFIX_F, Get_accumulate##SUFFIX, GET_ACCUMULATE_PARAMS(COUNT),  \
            GET_ACCUMULATE_ARGS, GET_ACCUMULATE_BYTES, target_rank, scope_window_comm(win))  \
    CARRIER(RGET_ACCUMULATE##SUFFIX_F, Rget_accumulate##SUFFIX,                              \
            (UNPAREN GET_ACCUMULATE_PARAMS(COUNT), MPI_Request *request),                    \
            (UNPAREN GET_ACCUMULATE_ARGS, request), GET_ACCUMULATE_BYTES, target_rank,       \
            scope_window_comm(win))

RMA_FUNCTIONS(, , int)
#ifdef SCOPE_MPI_LARGE_COUNT
RMA_FUNCTIONS(_C, _c, MPI_Count)
#endif

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

/* ---- file reads and writes ----
 * Each call's one item (scope_io_item) keeps the absolute byte offset
 * where it starts: the explicit offset of the _at forms, otherwise the
 * individual file pointer's, both through the file's view
 * (MPI_File_get_byte_offset), asked before the call, outside its time;
 * -1 for the shared file pointer (asking it would synchronize). */

/* MPI_NAME wrapped: OFFSET, an expression of the arguments, where it starts. */
#define IO(F, NAME, PARAMS, ARGS, OFFSET)                                                    \
    EXPORT int MPI_##NAME PARAMS                                                             \
    {                                                                                        \
        struct wrapped_call w;                                                               \
        if (!call_begins(&w, SCOPE_WRAPPED_##F))                                             \
            return PMPI_##NAME ARGS;                                                         \
        int64_t starts_at = (OFFSET);                                                        \
        w.start = scope_wrapped_clock();                                                     \
        int rc = PMPI_##NAME ARGS;                                                           \
        call_returned(&w);                                                                   \
        if (rc == MPI_SUCCESS) {                                                             \
            struct scope_payload_item it = scope_io_item(type_bytes(count, type), starts_at); \
            add_item(&w, SCOPE_ITEM_CALL, it.bytes, it.peer, it.tag, NULL);                  \
        }                                                                                    \
        call_ends(&w, __builtin_return_address(0));                                          \
        return rc;                                                                           \
    }

/* The parameters of a read or write with a status or (I...) a request,
 * BUF and what comes before it given, its count of type COUNT. */
#define IO_PARAMS(COUNT, ...)                                                                \
    (MPI_File fh, __VA_ARGS__ COUNT count, MPI_Datatype type, MPI_Status *status)
#define IIO_PARAMS(COUNT, ...)                                                               \
    (MPI_File fh, __VA_ARGS__ COUNT count, MPI_Datatype type, MPI_Request *request)
/* ... and the beginning of a split collective one (its _end: no payload). */
#define BEGIN_PARAMS(COUNT, ...) (MPI_File fh, __VA_ARGS__ COUNT count, MPI_Datatype type)

/* A read or write at the individual file pointer, blocking with a status
 * or nonblocking (I...) with a request. */
#define AT_POINTER(F, NAME, IF, INAME, COUNT, BUF)                                           \
    IO(F, NAME, IO_PARAMS(COUNT, BUF,), (fh, buf, count, type, status), pointer_offset(fh))  \
    IO(IF, INAME, IIO_PARAMS(COUNT, BUF,), (fh, buf, count, type, request),                 \
       pointer_offset(fh))

/* The same at an explicit offset. */
#define AT_OFFSET(F, NAME, IF, INAME, COUNT, BUF)                                            \
    IO(F, NAME, IO_PARAMS(COUNT, MPI_Offset offset, BUF,),                                   \
       (fh, offset, buf, count, type, status), byte_offset(fh, offset))                      \
    IO(IF, INAME, IIO_PARAMS(COUNT, MPI_Offset offset, BUF,),                                \
       (fh, offset, buf, count, type, request), byte_offset(fh, offset))

/* Every read and write, of count type COUNT (int, or MPI_Count for their
 * large-count forms: large_count.h), their enums and names ending in
 * SUFFIX_F and SUFFIX; the shared file pointer's offset is unknown. */
#define IO_FUNCTIONS(S_F, S, COUNT)                                                          \
    AT_POINTER(FILE_READ##S_F, File_read##S, FILE_IREAD##S_F, File_iread##S, COUNT,         \
               void *buf)                                                                    \
    AT_POINTER(FILE_WRITE##S_F, File_write##S, FILE_IWRITE##S_F, File_iwrite##S, COUNT,     \
               const void *buf)                                                              \
    AT_POINTER(FILE_READ_ALL##S_F, File_read_all##S, FILE_IREAD_ALL##S_F, File_iread_all##S, \
               COUNT, void *buf)                                                             \
    AT_POINTER(FILE_WRITE_ALL##S_F, File_write_all##S, FILE_IWRITE_ALL##S_F,                 \
               File_iwrite_all##S, COUNT, const void *buf)                                   \
    AT_OFFSET(FILE_READ_AT##S_F, File_read_at##S, FILE_IREAD_AT##S_F, File_iread_at##S,     \
              COUNT, void *buf)                                                              \
    AT_OFFSET(FILE_WRITE_AT##S_F, File_write_at##S, FILE_IWRITE_AT##S_F, File_iwrite_at##S, \
              COUNT, const void *buf)                                                        \
    AT_OFFSET(FILE_READ_AT_ALL##S_F, File_read_at_all##S, FILE_IREAD_AT_ALL##S_F,            \
              File_iread_at_all##S, COUNT, void *buf)                                        \
    AT_OFFSET(FILE_WRITE_AT_ALL##S_F, File_write_at_all##S, FILE_IWRITE_AT_ALL##S_F,         \
              File_iwrite_at_all##S, COUNT, const void *buf)                                 \
    IO(FILE_READ_SHARED##S_F, File_read_shared##S, IO_PARAMS(COUNT, void *buf,),             \
       (fh, buf, count, type, status), -1)                                                   \
    IO(FILE_WRITE_SHARED##S_F, File_write_shared##S, IO_PARAMS(COUNT, const void *buf,),     \
       (fh, buf, count, type, status), -1)                                                   \
    IO(FILE_IREAD_SHARED##S_F, File_iread_shared##S, IIO_PARAMS(COUNT, void *buf,),          \
       (fh, buf, count, type, request), -1)                                                  \
    IO(FILE_IWRITE_SHARED##S_F, File_iwrite_shared##S, IIO_PARAMS(COUNT, const void *buf,),  \
       (fh, buf, count, type, request), -1)                                                  \
    IO(FILE_READ_ORDERED##S_F, File_read_ordered##S, IO_PARAMS(COUNT, void *buf,),           \
       (fh, buf, count, type, status), -1)                                                   \
    IO(FILE_WRITE_ORDERED##S_F, File_write_ordered##S, IO_PARAMS(COUNT, const void *buf,),   \
       (fh, buf, count, type, status), -1)                                                   \
    IO(FILE_READ_ALL_BEGIN##S_F, File_read_all_begin##S, BEGIN_PARAMS(COUNT, void *buf,),     \
       (fh, buf, count, type), pointer_offset(fh))                                           \
    IO(FILE_WRITE_ALL_BEGIN##S_F, File_write_all_begin##S,                                   \
       BEGIN_PARAMS(COUNT, const void *buf,), (fh, buf, count, type), pointer_offset(fh))    \
    IO(FILE_READ_AT_ALL_BEGIN##S_F, File_read_at_all_begin##S,                               \
       BEGIN_PARAMS(COUNT, MPI_Offset offset, void *buf,), (fh, offset, buf, count, type),   \
       byte_offset(fh, offset))                                                              \
    IO(FILE_WRITE_AT_ALL_BEGIN##S_F, File_write_at_all_begin##S,                             \
       BEGIN_PARAMS(COUNT, MPI_Offset offset, const void *buf,),                             \
       (fh, offset, buf, count, type), byte_offset(fh, offset))                              \
    IO(FILE_READ_ORDERED_BEGIN##S_F, File_read_ordered_begin##S,                             \
       BEGIN_PARAMS(COUNT, void *buf,), (fh, buf, count, type), -1)                          \
    IO(FILE_WRITE_ORDERED_BEGIN##S_F, File_write_ordered_begin##S,                           \
       BEGIN_PARAMS(COUNT, const void *buf,), (fh, buf, count, type), -1)

IO_FUNCTIONS(, , int)
#ifdef SCOPE_MPI_LARGE_COUNT
IO_FUNCTIONS(_C, _c, MPI_Count)
#endif

/* ---- window constructors: a window's targets are its communicator's ranks ---- */

#define WINDOW(NAME, PARAMS, ARGS, COMM, NEWWIN)                \
    EXPORT int MPI_##NAME PARAMS                                \
    {                                                           \
        int rc = PMPI_##NAME ARGS;                              \
        if (rc == MPI_SUCCESS && scope_wrapped_any())           \
            scope_window_created(*(NEWWIN), COMM);              \
        return rc;                                              \
    }

/* The constructors of a displacement unit of type DISP (int, or MPI_Aint
 * for their large-count forms), names ending in SUFFIX. */
#define WINDOWS(SUFFIX, DISP)                                                                \
    WINDOW(Win_create##SUFFIX,                                                               \
           (void *base, MPI_Aint size, DISP disp_unit, MPI_Info info, MPI_Comm comm,         \
            MPI_Win *win),                                                                   \
           (base, size, disp_unit, info, comm, win), comm, win)                              \
    WINDOW(Win_allocate##SUFFIX,                                                             \
           (MPI_Aint size, DISP disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,      \
            MPI_Win *win),                                                                   \
           (size, disp_unit, info, comm, baseptr, win), comm, win)                           \
    WINDOW(Win_allocate_shared##SUFFIX,                                                      \
           (MPI_Aint size, DISP disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,      \
            MPI_Win *win),                                                                   \
           (size, disp_unit, info, comm, baseptr, win), comm, win)

WINDOWS(, int)
#ifdef SCOPE_MPI_LARGE_COUNT
WINDOWS(_c, MPI_Aint)
#endif
WINDOW(Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win), (info, comm, win), comm,
       win)

EXPORT int MPI_Win_free(MPI_Win *win)
{
    if (scope_wrapped_any())
        scope_window_forget(*win);
    return PMPI_Win_free(win);
}
