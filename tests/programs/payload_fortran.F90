! payload_fortran.F90: Fortran MPI calls whose payload is known in
! advance, for the payload end-to-end test (tests/e2e/payload.sh with
! check_fortran.py), on 4 ranks, with `use mpi` (-DMPI_BINDING=1) or
! `use mpi_f08` (3). In subroutine exchange, each rank r sends 5 (r + 1)
! integers to its right (tag 50 + r) with MPI_Send and receives from its
! left with MPI_Recv. In subroutine ring, 3 (r + 1) integers to the right
! (tag 70) with MPI_Isend and from MPI_ANY_SOURCE with MPI_Irecv, then
! MPI_Waitall ignoring the statuses; 4 (r + 1) integers to the left (tag
! 71) by MPI_Isend/MPI_Irecv completed by two MPI_Wait (the receive's
! status ignored); 2 (r + 1) doubles to the left (tag 72) with
! MPI_Sendrecv from the right. In subroutine collectives, MPI_Bcast of 6
! doubles from root 1, MPI_Reduce of 3 integers to root 2, MPI_Allreduce
! of 2 doubles and MPI_Barrier. In subroutine gathers: MPI_Gather of 2
! integers to root 3, MPI_Gatherv of r + 1 integers to root 0,
! MPI_Scatter of 3 integers per rank from root 1, MPI_Scatterv of 1..4
! integers from root 2, MPI_Allgather of 1 double and again in place of 1
! integer, MPI_Allgatherv of r + 1 integers and again in place,
! MPI_Alltoall of 2 integers per rank, MPI_Alltoallv of r + i integers to
! rank i, MPI_Alltoallw of
! one integer to each rank and MPI_Reduce_scatter_block of 2 integers per
! rank. In subroutine files, each writes r + 1 integers at byte 100 r
! of a shared file (MPI_File_write_at), 3 at its file pointer moved to
! byte 100 r + 40 (MPI_File_write) and all read 2 integers at byte 0
! (MPI_File_read_at_all); split collectives: 2 integers written at byte
! 100 r + 60 (MPI_File_write_at_all_begin/end), 1 read at the file pointer,
! byte 100 r + 52 (MPI_File_read_all_begin/end). In subroutine probes, each rank sends with
! MPI_Send 2 (r + 1) integers to the right (tag 80), found by MPI_Probe
! from MPI_ANY_SOURCE and taken by MPI_Recv; 6 (r + 1) to the right (tag
! 81), polled by MPI_Iprobe until found (status ignored), taken by
! MPI_Recv; 3 (r + 1) to the left (tag 82), found by MPI_Mprobe and taken
! by MPI_Mrecv (status ignored); 4 (r + 1) to the right (tag 83), polled
! by MPI_Improbe, taken by MPI_Imrecv and completed by MPI_Wait.
! In subroutine persistent, twice MPI_Startall of a receive from
! MPI_ANY_SOURCE (tag 90, MPI_Recv_init) and a send of 2 (r + 1) integers
! to the right (MPI_Send_init), completed by MPI_Waitall ignoring the
! statuses; then MPI_Start of a receive from the right (tag 91) and of a
! synchronous send of 3 (r + 1) integers to the left (MPI_Ssend_init),
! completed by MPI_Wait of the send, then of the receive (status
! ignored); every request freed by MPI_Request_free.
! In subroutine neighbors, on a periodic 1-D Cartesian communicator of
! all ranks: MPI_Neighbor_allgather of 2 integers, MPI_Neighbor_alltoallv
! of r + 1 integers to the left and 2 (r + 1) to the right, and
! MPI_Ineighbor_alltoall of 3 integers completed by MPI_Wait.
! In subroutine onesided, on a window over the ranks in reverse order
! (MPI_Comm_split), between fences: MPI_Put of 1 integer to its rank 0
! (world rank 3), MPI_Get of 2 from its last (world 0), MPI_Accumulate of 3
! to its rank 1 (world 2), MPI_Get_accumulate of 2 integers fetching 2
! from its rank 2 (world 1), MPI_Fetch_and_op of 1 integer from its last
! (world 0) with MPI_NO_OP, then with MPI_SUM, MPI_Compare_and_swap of 1
! integer at its rank 0 (world 3); then in a passive epoch
! MPI_Rget_accumulate with MPI_NO_OP fetching 3 integers from its rank 1
! (world 2), completed by MPI_Wait.
! In subroutine cartesian, two duplicates of MPI_COMM_WORLD, first and
! second, first used in opposite orders: each even rank r sends 1 integer
! on second (tag 61), then 2 on first (tag 62) to rank r + 1, which
! receives them with MPI_Irecv on first, then on second, and MPI_Waitall;
! then a periodic 2 x (N/2) Cartesian grid (MPI_Cart_create, no reorder)
! over the world ranks rotated (MPI_Comm_split, key r + 1: grid rank g is
! world rank g - 1 mod N): MPI_Sendrecv of r + 1 integers along
! dimension 2 (MPI_Cart_shift; tag 63), and the rows of the grid
! (MPI_Cart_sub) each MPI_Allreduce 3 integers; the two rows joined as an
! intercommunicator (MPI_Intercomm_create, leaders world ranks 3 and 1):
! MPI_Sendrecv of r + 1 integers with the same rank of the other row (tag
! 65), then merged (MPI_Intercomm_merge, the first row low) for an
! MPI_Barrier.
! In subroutine large_count, with mpi_f08 where the MPI library has the
! MPI-4 large-count forms (-DSCOPE_MPI_LARGE_COUNT), counts of kind
! MPI_COUNT_KIND: MPI_Send of 7 (r + 1) integers to the right (tag 60),
! MPI_Recv from the left; MPI_Irecv from the right and MPI_Isend of
! 9 (r + 1) integers to the left (tag 61), MPI_Waitall; MPI_Recv_init from
! the left and MPI_Send_init of 2 (r + 1) integers to the right (tag 62),
! MPI_Startall, MPI_Waitall, both freed; MPI_Bcast of 5 doubles from root
! 2, of 3 000 000 000 bytes on MPI_COMM_SELF; MPI_Gatherv of r + 1
! integers to root 0; on a periodic 1-D Cartesian communicator of all
! ranks MPI_Neighbor_alltoallv of r + 1 integers to the left and
! 2 (r + 1) to the right; on a window over all ranks MPI_Put of 3
! integers to the right.
! In subroutine coll_init, where the MPI library has the MPI-4 persistent
! collectives (-DSCOPE_MPI_PERSISTENT_COLLECTIVES), MPI_Allreduce_init of
! 3 integers, started twice (MPI_Start, MPI_Wait) and freed.
#if MPI_BINDING == 3
#define USE_MPI use mpi_f08
#define STATUS type(MPI_Status)
#define REQUEST type(MPI_Request)
#define DATATYPE type(MPI_Datatype)
#define FILE type(MPI_File)
#define MESSAGE type(MPI_Message)
#define COMM type(MPI_Comm)
#define WIN type(MPI_Win)
#else
#define USE_MPI use mpi
#define STATUS integer
#define REQUEST integer
#define DATATYPE integer
#define FILE integer
#define MESSAGE integer
#define COMM integer
#define WIN integer
#endif
  subroutine exchange(rank, nranks)
    USE_MPI
    implicit none
    integer, intent(in) :: rank, nranks
    integer :: out(64), in(64), ierr
#if MPI_BINDING == 3
    type(MPI_Status) :: st
#else
    integer :: st(MPI_STATUS_SIZE)
#endif
    out = rank
    call MPI_Send(out, 5 * (rank + 1), MPI_INTEGER, mod(rank + 1, nranks), 50 + rank, &
                  MPI_COMM_WORLD, ierr)
    call MPI_Recv(in, 64, MPI_INTEGER, mod(rank + nranks - 1, nranks), MPI_ANY_TAG, &
                  MPI_COMM_WORLD, st, ierr)
  end subroutine exchange

#if MPI_BINDING == 3 && defined(SCOPE_MPI_LARGE_COUNT)
  ! counts of kind MPI_COUNT_KIND: MPICH's mpi_f08 entry points
  ! mpi_*_f08ts_large_, which call the large-count MPI_Send_c ...
  subroutine large_count(rank, nranks)
    USE_MPI
    implicit none
    integer, intent(in) :: rank, nranks
    integer :: out(64), in(64), i, right, left
    double precision :: d(5)
    integer, target :: window(4)
    integer(kind=MPI_COUNT_KIND) :: n, counts(nranks), sendcounts(2), recvcounts(2)
    integer(kind=MPI_ADDRESS_KIND) :: displs(nranks), at(2) = [0, 256]
    type(MPI_Request) :: requests(2)
    type(MPI_Comm) :: ring
    type(MPI_Win) :: win
    out = rank
    d = rank
    right = mod(rank + 1, nranks)
    left = mod(rank + nranks - 1, nranks)
    n = 7 * (rank + 1)
    call MPI_Send(out, n, MPI_INTEGER, right, 60, MPI_COMM_WORLD)
    n = 64
    call MPI_Recv(in, n, MPI_INTEGER, left, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    n = 64
    call MPI_Irecv(in, n, MPI_INTEGER, right, 61, MPI_COMM_WORLD, requests(1))
    n = 9 * (rank + 1)
    call MPI_Isend(out, n, MPI_INTEGER, left, 61, MPI_COMM_WORLD, requests(2))
    call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE)
    n = 64
    call MPI_Recv_init(in, n, MPI_INTEGER, left, 62, MPI_COMM_WORLD, requests(1))
    n = 2 * (rank + 1)
    call MPI_Send_init(out, n, MPI_INTEGER, right, 62, MPI_COMM_WORLD, requests(2))
    call MPI_Startall(2, requests)
    call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE)
    call MPI_Request_free(requests(1))
    call MPI_Request_free(requests(2))
    n = 5
    call MPI_Bcast(d, n, MPI_DOUBLE_PRECISION, 2, MPI_COMM_WORLD)
    ! a count no default integer holds, alone on MPI_COMM_SELF (no data moves)
    n = 3000000000_MPI_COUNT_KIND
    call MPI_Bcast(in, n, MPI_BYTE, 0, MPI_COMM_SELF)
    counts = [(int(i, MPI_COUNT_KIND), i = 1, nranks)]
    displs = [(int(16 * i, MPI_ADDRESS_KIND), i = 0, nranks - 1)]
    n = rank + 1
    call MPI_Gatherv(out, n, MPI_INTEGER, in, counts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD)
    call MPI_Cart_create(MPI_COMM_WORLD, 1, [nranks], [.true.], .false., ring)
    sendcounts = [rank + 1, 2 * (rank + 1)]
    recvcounts = [2 * (left + 1), right + 1]
    ! (on one line: the line of its call site)
    call MPI_Neighbor_alltoallv(out, sendcounts, at, MPI_INTEGER, in, recvcounts, at, MPI_INTEGER, ring)
    call MPI_Comm_free(ring)
    call MPI_Win_create(window, int(16, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, MPI_COMM_WORLD, &
                        win)
    call MPI_Win_fence(0, win)
    n = 3
    call MPI_Put(out, n, MPI_INTEGER, right, int(0, MPI_ADDRESS_KIND), n, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    call MPI_Win_free(win)
  end subroutine large_count
#endif

  subroutine ring(rank, nranks)
    USE_MPI
    implicit none
    integer, intent(in) :: rank, nranks
    integer :: out(64), in(64), left, right, ierr
    double precision :: dout(16), din(16)
    REQUEST :: reqs(2), rreq, sreq
#if MPI_BINDING == 3
    type(MPI_Status) :: st
#else
    integer :: st(MPI_STATUS_SIZE)
#endif
    left = mod(rank + nranks - 1, nranks)
    right = mod(rank + 1, nranks)
    out = rank
    dout = rank
    call MPI_Irecv(in, 64, MPI_INTEGER, MPI_ANY_SOURCE, 70, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Isend(out, 3 * (rank + 1), MPI_INTEGER, right, 70, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    call MPI_Irecv(in, 64, MPI_INTEGER, right, 71, MPI_COMM_WORLD, rreq, ierr)
    call MPI_Isend(out, 4 * (rank + 1), MPI_INTEGER, left, 71, MPI_COMM_WORLD, sreq, ierr)
    call MPI_Wait(rreq, MPI_STATUS_IGNORE, ierr)
    call MPI_Wait(sreq, st, ierr)
    call MPI_Sendrecv(dout, 2 * (rank + 1), MPI_DOUBLE_PRECISION, left, 72, &
                      din, 16, MPI_DOUBLE_PRECISION, right, 72, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
  end subroutine ring

  subroutine collectives()
    USE_MPI
    implicit none
    double precision :: d(6), s(2), t(2)
    integer :: i(3), j(3), ierr
    d = 1.0d0
    s = 2.0d0
    i = 3
    call MPI_Bcast(d, 6, MPI_DOUBLE_PRECISION, 1, MPI_COMM_WORLD, ierr)
    call MPI_Reduce(i, j, 3, MPI_INTEGER, MPI_SUM, 2, MPI_COMM_WORLD, ierr)
    call MPI_Allreduce(s, t, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end subroutine collectives

  subroutine gathers(rank, nranks)
    USE_MPI
    implicit none
    integer, intent(in) :: rank, nranks
    integer :: out(64), in(64), counts(4), displs(4), rcounts(4), rdispls(4), k, ierr
    DATATYPE :: types(4)
    double precision :: d(1), dall(4)
    out = rank
    d = rank
    do k = 1, nranks
      counts(k) = k
      displs(k) = 8 * (k - 1)
      rcounts(k) = rank + k - 1
      rdispls(k) = 16 * (k - 1)
    end do
    call MPI_Gather(out, 2, MPI_INTEGER, in, 2, MPI_INTEGER, 3, MPI_COMM_WORLD, ierr)
    call MPI_Gatherv(out, rank + 1, MPI_INTEGER, in, counts, displs, MPI_INTEGER, 0, &
                     MPI_COMM_WORLD, ierr)
    call MPI_Scatter(out, 3, MPI_INTEGER, in, 3, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
    call MPI_Scatterv(out, counts, displs, MPI_INTEGER, in, rank + 1, MPI_INTEGER, 2, &
                      MPI_COMM_WORLD, ierr)
    call MPI_Allgather(d, 1, MPI_DOUBLE_PRECISION, dall, 1, MPI_DOUBLE_PRECISION, &
                       MPI_COMM_WORLD, ierr)
    in(rank + 1) = rank
    call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in, 1, MPI_INTEGER, &
                       MPI_COMM_WORLD, ierr)
    call MPI_Allgatherv(out, rank + 1, MPI_INTEGER, in, counts, displs, MPI_INTEGER, &
                        MPI_COMM_WORLD, ierr)
    call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in, counts, displs, MPI_INTEGER, &
                        MPI_COMM_WORLD, ierr)
    call MPI_Alltoall(out, 2, MPI_INTEGER, in, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    do k = 1, nranks
      counts(k) = rank + k - 1
      displs(k) = 16 * (k - 1)
    end do
    call MPI_Alltoallv(out, counts, displs, MPI_INTEGER, in, rcounts, rdispls, MPI_INTEGER, &
                       MPI_COMM_WORLD, ierr)
    do k = 1, nranks
      counts(k) = 1
      displs(k) = 4 * (k - 1)
      types(k) = MPI_INTEGER
    end do
    call MPI_Alltoallw(out, counts, displs, types, in, counts, displs, types, &
                       MPI_COMM_WORLD, ierr)
    call MPI_Reduce_scatter_block(out, in, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  end subroutine gathers

  subroutine files(rank)
    USE_MPI
    implicit none
    integer, intent(in) :: rank
    integer :: out(8), in(8), ierr
    integer(kind=MPI_OFFSET_KIND) :: at
    FILE :: fh
    out = rank
    call MPI_File_open(MPI_COMM_WORLD, 'payload-fortran.dat', &
                       MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
    at = 100 * rank
    call MPI_File_write_at(fh, at, out, rank + 1, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    at = at + 40
    call MPI_File_seek(fh, at, MPI_SEEK_SET, ierr)
    call MPI_File_write(fh, out, 3, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    at = 0
    call MPI_File_read_at_all(fh, at, in, 2, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    at = 100 * rank + 60
    call MPI_File_write_at_all_begin(fh, at, out, 2, MPI_INTEGER, ierr)
    call MPI_File_write_at_all_end(fh, out, MPI_STATUS_IGNORE, ierr)
    call MPI_File_read_all_begin(fh, in, 1, MPI_INTEGER, ierr)
    call MPI_File_read_all_end(fh, in, MPI_STATUS_IGNORE, ierr)
    call MPI_File_close(fh, ierr)
  end subroutine files

  subroutine probes(rank, nranks)
    USE_MPI
    implicit none
    integer, intent(in) :: rank, nranks
    integer :: out(64), in(64), left, right, ierr
    logical :: found
    MESSAGE :: msg
    REQUEST :: req
#if MPI_BINDING == 3
    type(MPI_Status) :: st
#else
    integer :: st(MPI_STATUS_SIZE)
#endif
    left = mod(rank + nranks - 1, nranks)
    right = mod(rank + 1, nranks)
    out = rank
    call MPI_Send(out, 2 * (rank + 1), MPI_INTEGER, right, 80, MPI_COMM_WORLD, ierr)
    call MPI_Probe(MPI_ANY_SOURCE, 80, MPI_COMM_WORLD, st, ierr)
    call MPI_Recv(in, 64, MPI_INTEGER, left, 80, MPI_COMM_WORLD, st, ierr)
    call MPI_Send(out, 6 * (rank + 1), MPI_INTEGER, right, 81, MPI_COMM_WORLD, ierr)
    found = .false.
    do while (.not. found)
      call MPI_Iprobe(left, 81, MPI_COMM_WORLD, found, MPI_STATUS_IGNORE, ierr)
    end do
    call MPI_Recv(in, 64, MPI_INTEGER, left, 81, MPI_COMM_WORLD, st, ierr)
    call MPI_Send(out, 3 * (rank + 1), MPI_INTEGER, left, 82, MPI_COMM_WORLD, ierr)
    call MPI_Mprobe(MPI_ANY_SOURCE, 82, MPI_COMM_WORLD, msg, st, ierr)
    call MPI_Mrecv(in, 64, MPI_INTEGER, msg, MPI_STATUS_IGNORE, ierr)
    call MPI_Send(out, 4 * (rank + 1), MPI_INTEGER, right, 83, MPI_COMM_WORLD, ierr)
    found = .false.
    do while (.not. found)
      call MPI_Improbe(left, 83, MPI_COMM_WORLD, found, msg, st, ierr)
    end do
    call MPI_Imrecv(in, 64, MPI_INTEGER, msg, req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  end subroutine probes

  subroutine persistent(rank, nranks)
    USE_MPI
    implicit none
    integer, intent(in) :: rank, nranks
    integer :: out(64), in(64), left, right, k, ierr
    REQUEST :: reqs(2), sreq, rreq
#if MPI_BINDING == 3
    type(MPI_Status) :: st
#else
    integer :: st(MPI_STATUS_SIZE)
#endif
    left = mod(rank + nranks - 1, nranks)
    right = mod(rank + 1, nranks)
    out = rank
    call MPI_Recv_init(in, 64, MPI_INTEGER, MPI_ANY_SOURCE, 90, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Send_init(out, 2 * (rank + 1), MPI_INTEGER, right, 90, MPI_COMM_WORLD, reqs(2), &
                       ierr)
    do k = 1, 2
      call MPI_Startall(2, reqs, ierr)
      call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    end do
    call MPI_Recv_init(in, 64, MPI_INTEGER, right, 91, MPI_COMM_WORLD, rreq, ierr)
    call MPI_Ssend_init(out, 3 * (rank + 1), MPI_INTEGER, left, 91, MPI_COMM_WORLD, sreq, ierr)
    call MPI_Start(rreq, ierr)
    call MPI_Start(sreq, ierr)
    call MPI_Wait(sreq, st, ierr)
    call MPI_Wait(rreq, MPI_STATUS_IGNORE, ierr)
    call MPI_Request_free(reqs(1), ierr)
    call MPI_Request_free(reqs(2), ierr)
    call MPI_Request_free(rreq, ierr)
    call MPI_Request_free(sreq, ierr)
  end subroutine persistent

  subroutine neighbors(rank, nranks)
    USE_MPI
    implicit none
    integer, intent(in) :: rank, nranks
    integer :: out(64), in(64), left, right, dims(1), ierr
    integer :: scounts(2), sdispls(2), rcounts(2), rdispls(2)
    logical :: periods(1)
    COMM :: ring
    REQUEST :: req
    left = mod(rank + nranks - 1, nranks)
    right = mod(rank + 1, nranks)
    dims(1) = nranks
    periods(1) = .true.
    call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., ring, ierr)
    out = rank
    call MPI_Neighbor_allgather(out, 2, MPI_INTEGER, in, 2, MPI_INTEGER, ring, ierr)
    scounts = (/ rank + 1, 2 * (rank + 1) /)
    sdispls = (/ 0, 8 /)
    rcounts = (/ 2 * (left + 1), right + 1 /)
    rdispls = (/ 0, 16 /)
    call MPI_Neighbor_alltoallv(out, scounts, sdispls, MPI_INTEGER, in, rcounts, rdispls, &
                                MPI_INTEGER, ring, ierr)
    call MPI_Ineighbor_alltoall(out, 3, MPI_INTEGER, in, 3, MPI_INTEGER, ring, req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call MPI_Comm_free(ring, ierr)
  end subroutine neighbors

  subroutine onesided(rank, nranks)
    USE_MPI
    implicit none
    integer, intent(in) :: rank, nranks
    integer :: buf(16), out(16), res(16), one, zero, fetched, ierr
    integer(kind=MPI_ADDRESS_KIND) :: size, disp
    COMM :: reverse
    WIN :: win
    REQUEST :: req
    one = 1
    zero = 0
    buf = 0
    out = rank
    call MPI_Comm_split(MPI_COMM_WORLD, 0, nranks - rank, reverse, ierr)
    size = 64
    call MPI_Win_create(buf, size, 4, MPI_INFO_NULL, reverse, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    disp = rank
    call MPI_Put(out, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call MPI_Get(out, 2, MPI_INTEGER, nranks - 1, disp, 2, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    disp = 0
    call MPI_Accumulate(out, 3, MPI_INTEGER, 1, disp, 3, MPI_INTEGER, MPI_SUM, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    disp = 4
    call MPI_Get_accumulate(out, 2, MPI_INTEGER, res, 2, MPI_INTEGER, 2, disp, 2, &
                            MPI_INTEGER, MPI_SUM, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    disp = 8
    call MPI_Fetch_and_op(one, fetched, MPI_INTEGER, nranks - 1, disp, MPI_NO_OP, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call MPI_Fetch_and_op(one, fetched, MPI_INTEGER, nranks - 1, disp, MPI_SUM, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    disp = 9
    call MPI_Compare_and_swap(one, zero, fetched, MPI_INTEGER, 0, disp, win, ierr)
    call MPI_Win_fence(MPI_MODE_NOSUCCEED, win, ierr)
    disp = 10
    call MPI_Win_lock_all(0, win, ierr)
    call MPI_Rget_accumulate(out, 1, MPI_INTEGER, res, 3, MPI_INTEGER, 1, disp, 3, &
                             MPI_INTEGER, MPI_NO_OP, win, req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call MPI_Win_unlock_all(win, ierr)
    call MPI_Win_free(win, ierr)
    call MPI_Comm_free(reverse, ierr)
  end subroutine onesided

  subroutine cartesian(rank, nranks)
    USE_MPI
    implicit none
    integer, intent(in) :: rank, nranks
    integer :: out(8), in(8), dims(2), src, dst, leader, partner, ierr
    logical :: periods(2), remain(2), second_row
    COMM :: first, second, rotated, grid, row, rows, joined
    REQUEST :: reqs(2)
    out = rank
    call MPI_Comm_dup(MPI_COMM_WORLD, first, ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, second, ierr)
    if (mod(rank, 2) == 0) then
      call MPI_Send(out, 1, MPI_INTEGER, rank + 1, 61, second, ierr)
      call MPI_Send(out, 2, MPI_INTEGER, rank + 1, 62, first, ierr)
    else
      call MPI_Irecv(in, 4, MPI_INTEGER, rank - 1, 62, first, reqs(1), ierr)
      call MPI_Irecv(in(5), 4, MPI_INTEGER, rank - 1, 61, second, reqs(2), ierr)
      call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    end if
    call MPI_Comm_split(MPI_COMM_WORLD, 0, mod(rank + 1, nranks), rotated, ierr)
    dims = (/ 2, nranks / 2 /)
    periods = .true.
    call MPI_Cart_create(rotated, 2, dims, periods, .false., grid, ierr)
    call MPI_Cart_shift(grid, 1, 1, src, dst, ierr)
    call MPI_Sendrecv(out, rank + 1, MPI_INTEGER, dst, 63, in, 8, MPI_INTEGER, src, 63, &
                      grid, MPI_STATUS_IGNORE, ierr)
    remain = (/ .false., .true. /)
    call MPI_Cart_sub(grid, remain, row, ierr)
    call MPI_Allreduce(out, in, 3, MPI_INTEGER, MPI_SUM, row, ierr)
    second_row = mod(rank + 1, nranks) >= nranks / 2
    leader = 3
    if (.not. second_row) leader = 1
    call MPI_Intercomm_create(row, 0, MPI_COMM_WORLD, leader, 64, rows, ierr)
    partner = mod(mod(rank + 1, nranks), nranks / 2)
    call MPI_Sendrecv(out, rank + 1, MPI_INTEGER, partner, 65, in, 8, MPI_INTEGER, partner, &
                      65, rows, MPI_STATUS_IGNORE, ierr)
    call MPI_Intercomm_merge(rows, second_row, joined, ierr)
    call MPI_Barrier(joined, ierr)
    call MPI_Comm_free(joined, ierr)
    call MPI_Comm_free(rows, ierr)
    call MPI_Comm_free(row, ierr)
    call MPI_Comm_free(grid, ierr)
    call MPI_Comm_free(rotated, ierr)
    call MPI_Comm_free(second, ierr)
    call MPI_Comm_free(first, ierr)
  end subroutine cartesian

#if defined(SCOPE_MPI_PERSISTENT_COLLECTIVES)
  subroutine coll_init()
    USE_MPI
    implicit none
    integer :: out(3), in(3), k, ierr
    REQUEST :: req
    out = 1
    call MPI_Allreduce_init(out, in, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, req, ierr)
    do k = 1, 2
      call MPI_Start(req, ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    end do
    call MPI_Request_free(req, ierr)
  end subroutine coll_init
#endif
program payload_fortran
  USE_MPI
  implicit none
  integer :: rank, nranks, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call exchange(rank, nranks)
  call ring(rank, nranks)
  call collectives()
  call gathers(rank, nranks)
  call files(rank)
  call probes(rank, nranks)
  call persistent(rank, nranks)
  call neighbors(rank, nranks)
  call onesided(rank, nranks)
  call cartesian(rank, nranks)
#if MPI_BINDING == 3 && defined(SCOPE_MPI_LARGE_COUNT)
  call large_count(rank, nranks)
#endif
#if defined(SCOPE_MPI_PERSISTENT_COLLECTIVES)
  call coll_init()
#endif
  call MPI_Finalize(ierr)
  if (rank == 0) print '(a)', 'payload_fortran: done'
end program payload_fortran
