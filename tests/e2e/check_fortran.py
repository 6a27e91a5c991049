"""check_fortran.py: the file of tests/programs/payload_fortran.F90 run on
4 ranks must say what its Fortran sends, receives, completions,
collectives, file reads and writes (with their offsets), probes and
matched receives carried (bytes, peers as world ranks, tags, roots, the
messages of the point-to-point calls, MPI_ANY_SOURCE and ignored statuses
resolved), the one-sided calls and atomics their bytes and targets as
world ranks, the communicators made in Fortran (duplicates, a Cartesian
grid over rotated ranks, its rows, an intercommunicator of the rows and
its merge) their ids in rank 0's order of creation, the same on every member,
with their sizes and members, each once in the file, total bytes sent must
equal total bytes received, and the call sites must be the program's own
subroutines, not the MPI library's Fortran bindings (also of the MPI
functions recorded by their patch in libmpi: MPI_Win_fence, MPI_File_open,
MPI_Win_lock_all); the v and w
collectives' bytes to and from each peer (peer_*); with LARGE_COUNT=1
(mpi_f08 on an MPI with the MPI-4 large-count forms) the calls its counts
of kind MPI_COUNT_KIND made, recorded as the large-count functions
(MPI_Send_c ..., a count beyond 2^31 included), from the program's lines;
with PERSISTENT=1 (an MPI with the MPI-4 persistent collectives)
MPI_Allreduce_init from subroutine coll_init's line (not the binding's)
and its two MPI_Start of 12 bytes each.
usage: check_fortran.py FILE [DIR (unused)]  (env: LARGE_COUNT PERSISTENT)"""
import os
import sys

import h5py

N = 4
SUBROUTINES = ("exchange", "ring", "collectives", "gathers", "files", "probes",
               "persistent", "neighbors", "onesided")
LARGE_COUNT = os.environ.get("LARGE_COUNT") == "1"
PERSISTENT = os.environ.get("PERSISTENT") == "1"


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


_read = {}


def column(g, k):
    """Dataset k of region group g as a list, read once (polling loops make
    long ones)."""
    if (g.name, k) not in _read:
        _read[g.name, k] = g[k][:].tolist()
    return _read[g.name, k]


def columns(g, rows):
    return [[column(g, k)[i] for i in rows] for k in ("bytes", "peer", "tag", "comm")]


def messages(g, rows):
    """The messages of the calls `rows`, numbered among them."""
    if "msg_kind" not in g:
        return []
    msgs = zip(*(column(g, k) for k in ("msg_call", "msg_kind", "msg_peer", "msg_bytes",
                                        "msg_tag", "msg_comm")))
    number = {row: n for n, row in enumerate(rows)}
    return [(number[m[0]],) + m[1:] for m in msgs if m[0] in number]


with h5py.File(sys.argv[1]) as f:
    frames, sites = f["metadata/callsite_frames"][:], f["metadata/callsites"][:]

    named = {}

    def caller_of(g, i):
        site = column(g, "callsite_ids")[i]
        if site not in named:
            fn = frames[sites[site][0]]["function"]
            named[site] = fn.decode() if isinstance(fn, bytes) else fn
        return named[site]

    # the program's calls: MPICH's MPI-IO (ROMIO) makes MPI calls of its
    # own, recorded from the library, in MPI_File_open and the collective I/O
    def program_rows(g):
        return [i for i in range(len(column(g, "callsite_ids")))
                if any(s in caller_of(g, i) for s in SUBROUTINES)]

    comm_rows = f["metadata/communicators"][:]
    comm_members = f["metadata/communicator_members"][:].tolist()

    def members(comm):
        """Communicator comm's members as world ranks, in its rank order."""
        if not 0 < comm < len(comm_rows):
            fail(f"communicator {comm} is not in /metadata/communicators")
        size, first = (int(v) for v in comm_rows[comm])
        return comm_members[first:first + size]

    def line_of(g, i):
        return int(frames[sites[column(g, "callsite_ids")[i]][0]]["line"])

    # the lines of subroutine large_count's calls, by MPI function
    large_count_lines = {}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "../programs/payload_fortran.F90")) as source:
        inside = False
        for number, text in enumerate(source, 1):
            inside = (inside or "subroutine large_count(" in text) and \
                "end subroutine large_count" not in text
            if inside and "call MPI_" in text:
                name = text.split("call ")[1].split("(")[0]
                large_count_lines.setdefault(name, []).append(number)
            if "call MPI_Allreduce_init(" in text:
                init_line = number

    def rows_of(g, caller):
        return [i for i in range(len(column(g, "callsite_ids"))) if caller in caller_of(g, i)]

    # the reversed communicator of onesided: rank 0's MPI_Put's
    g = f["rank0/regions/MPI_Put"]
    reversed_comm = column(g, "comm")[rows_of(g, "onesided")[0]] if rows_of(g, "onesided") else -1
    if members(reversed_comm) != list(range(N - 1, -1, -1)):
        fail(f"the reversed communicator {reversed_comm}: members {members(reversed_comm)}")
    # cartesian: the ids each rank used, by role
    used = {}
    sent = received = 0
    for r in range(N):
        left, right = (r + N - 1) % N, (r + 1) % N
        # per function and caller: (bytes, peer, tag) of each call, on communicator 0
        want = {
            "MPI_Send": ([(20 * (r + 1), right, 50 + r)], "exchange"),
            "MPI_Recv": ([(20 * (left + 1), left, 50 + left)], "exchange"),
            ("MPI_Send", "probes"): ([(8 * (r + 1), right, 80), (24 * (r + 1), right, 81),
                                      (12 * (r + 1), left, 82), (16 * (r + 1), right, 83)],
                                     "probes"),
            ("MPI_Recv", "probes"): ([(8 * (left + 1), left, 80), (24 * (left + 1), left, 81)],
                                     "probes"),
            "MPI_Probe": ([(0, left, 80)], "probes"),
            "MPI_Mprobe": ([(0, right, 82)], "probes"),
            "MPI_Mrecv": ([(12 * (right + 1), right, 82)], "probes"),
            "MPI_Imrecv": ([(0, -1, -1)], "probes"),
            ("MPI_Wait", "probes"): ([(16 * (left + 1), left, 83)], "probes"),
            "MPI_Recv_init": ([(0, -1, 90), (0, right, 91)], "persistent"),
            "MPI_Send_init": ([(0, right, 90)], "persistent"),
            "MPI_Ssend_init": ([(0, left, 91)], "persistent"),
            "MPI_Start": ([(0, right, -1), (12 * (r + 1), left, 91)], "persistent"),
            ("MPI_Waitall", "persistent"): ([(8 * (left + 1), left, 90)] * 2, "persistent"),
            ("MPI_Wait", "persistent"): ([(0, -1, -1), (12 * (right + 1), right, 91)],
                                         "persistent"),
            ("MPI_Wait", "neighbors"): ([(0, -1, -1)], "neighbors"),
            ("MPI_Wait", "onesided"): ([(0, -1, -1)], "onesided"),
            "MPI_Bcast": ([(48 if r == 1 else 0, 1, -1)], "collectives"),
            "MPI_Reduce": ([(12, 2, -1)], "collectives"),
            "MPI_Allreduce": ([(16, -1, -1)], "collectives"),
            "MPI_Barrier": ([(0, -1, -1)], "collectives"),
            "MPI_Gather": ([(8, 3, -1)], "gathers"),
            "MPI_Gatherv": ([(4 * (r + 1), 0, -1)], "gathers"),
            "MPI_Scatter": ([(48 if r == 1 else 0, 1, -1)], "gathers"),
            "MPI_Scatterv": ([(40 if r == 2 else 0, 2, -1)], "gathers"),
            "MPI_Allgather": ([(8, -1, -1), (4, -1, -1)], "gathers"),
            "MPI_Allgatherv": ([(4 * (r + 1), -1, -1)] * 2, "gathers"),   # then in place
            "MPI_Alltoall": ([(32, -1, -1)], "gathers"),
            "MPI_Alltoallv": ([(4 * (4 * r + 6), -1, -1)], "gathers"),
            "MPI_Alltoallw": ([(16, -1, -1)], "gathers"),
            "MPI_Reduce_scatter_block": ([(32, -1, -1)], "gathers"),
            "MPI_Isend": ([(12 * (r + 1), right, 70), (16 * (r + 1), left, 71)], "ring"),
            "MPI_Irecv": ([(0, -1, 70), (0, right, 71)], "ring"),
            "MPI_Waitall": ([(12 * (left + 1), left, 70)], "ring"),
            "MPI_Wait": ([(16 * (right + 1), right, 71), (0, -1, -1)], "ring"),
            "MPI_Sendrecv": ([(16 * (r + 1) + 16 * (right + 1), -1, 72)], "ring"),
        }
        # the large-count forms MPICH's mpi_f08 calls for counts of kind
        # MPI_COUNT_KIND (its *_f08ts_large_ entry points): per function
        # (bytes, peer, tag, comm) of each call (comm None: MPI_COMM_SELF,
        # checked by its members) and its messages, from the line of
        # subroutine large_count that makes it
        large = {
            "MPI_Send_c": ([(28 * (r + 1), right, 60, 0)], [(0, 0, right, 28 * (r + 1), 60, 0)]),
            "MPI_Recv_c": ([(28 * (left + 1), left, 60, 0)],
                           [(0, 1, left, 28 * (left + 1), 60, 0)]),
            "MPI_Irecv_c": ([(0, right, 61, 0)], []),
            "MPI_Isend_c": ([(36 * (r + 1), left, 61, 0)], [(0, 0, left, 36 * (r + 1), 61, 0)]),
            "MPI_Recv_init_c": ([(0, left, 62, 0)], []),
            "MPI_Send_init_c": ([(0, right, 62, 0)], []),
            "MPI_Bcast_c": ([(40 if r == 2 else 0, 2, -1, 0), (3000000000, r, -1, None)], []),
            "MPI_Gatherv_c": ([(4 * (r + 1), 0, -1, 0)], []),
            "MPI_Neighbor_alltoallv_c": (None, None),   # below
            "MPI_Put_c": ([(12, right, -1, 0)], []),
        }
        if sorted(n for n in f[f"rank{r}/regions"] if n.endswith("_c")) != \
                (sorted(large) if LARGE_COUNT else []):
            fail(f"rank {r}: large-count regions {[n for n in f[f'rank{r}/regions']]}")
        # the calls the large-count ones complete or start: their messages
        if LARGE_COUNT:
            large["MPI_Waitall"] = (None, [(0, 1, right, 36 * (right + 1), 61, 0),
                                           (1, 1, left, 8 * (left + 1), 62, 0)])
            large["MPI_Startall"] = ([(8 * (r + 1), -1, -1, 0)],
                                     [(0, 0, right, 8 * (r + 1), 62, 0)])
        for name, (calls, msgs) in large.items() if LARGE_COUNT else ():
            g = f[f"rank{r}/regions/{name}"]
            rows = rows_of(g, "large_count")
            got = columns(g, rows)
            if calls is not None:
                self_comm = got[3][-1] if got[3] else -1
                want_cols = [[c[k] if c[k] is not None else self_comm for c in calls]
                             for k in range(4)]
                if got != want_cols or (None in calls[-1] and members(self_comm) != [r]):
                    fail(f"rank {r} {name}: (bytes, peer, tag, comm) {got}, want {want_cols}")
            lines = [line_of(g, i) for i in rows]
            want_lines = large_count_lines[name[:-2] if name.endswith("_c") else name]
            if lines != want_lines:
                fail(f"rank {r} {name}: called from lines {lines} of large_count, want "
                     f"{want_lines}")
            if msgs is None:   # the neighborhood collective, on a communicator of its own
                ring = messages(g, rows)[0][5] if messages(g, rows) else -1
                msgs = [(0, 0, left, 4 * (r + 1), -1, ring), (0, 0, right, 8 * (r + 1), -1, ring),
                        (0, 1, left, 8 * (left + 1), -1, ring),
                        (0, 1, right, 4 * (right + 1), -1, ring)]
                if ring <= 0 or members(ring) != list(range(N)):
                    fail(f"rank {r} {name}: messages {messages(g, rows)} on communicator "
                         f"{ring}, want {msgs} on a new one of all ranks")
            if messages(g, rows) != msgs:
                fail(f"rank {r} {name}: messages {messages(g, rows)}, want {msgs}")
            sent += sum(m[3] for m in msgs if m[1] == 0)
            received += sum(m[3] for m in msgs if m[1] == 1)
        if LARGE_COUNT:
            # the Gatherv_c's bytes per peer: r + 1 integers from each rank r to 0
            g = f[f"rank{r}/regions/MPI_Gatherv_c"]
            got = list(zip(*(g[d][:].tolist() for d in
                             ("peer_ranks", "peer_directions", "peer_messages", "peer_bytes"))))
            want_peers = [(0, 0, 1, 4 * (r + 1))]
            if r == 0:
                want_peers += [(p, 1, 1, 4 * (p + 1)) for p in range(N)]
            if got != want_peers:
                fail(f"rank {r} MPI_Gatherv_c: (peer, direction, messages, bytes) {got}, "
                     f"want {want_peers}")
        # coll_init's persistent Allreduce: the init from its line, 12 bytes a start
        if PERSISTENT:
            g = f[f"rank{r}/regions/MPI_Allreduce_init"]
            rows = rows_of(g, "coll_init")
            if columns(g, rows)[:3] != [[0], [-1], [-1]] or \
                    [line_of(g, i) for i in rows] != [init_line]:
                fail(f"rank {r} MPI_Allreduce_init: (bytes, peer, tag) "
                     f"{columns(g, rows)[:3]} from lines {[line_of(g, i) for i in rows]} "
                     f"of coll_init, want (0, -1, -1) from line {init_line}")
            g = f[f"rank{r}/regions/MPI_Start"]
            if columns(g, rows_of(g, "coll_init"))[0] != [12, 12]:
                fail(f"rank {r} MPI_Start from coll_init: bytes "
                     f"{columns(g, rows_of(g, 'coll_init'))[0]}, want [12, 12]")
        # the polling probes: nothing found (no payload) until the one message
        for name, tag, caller in (("MPI_Iprobe", 81, "probes"), ("MPI_Improbe", 83, "probes")):
            g = f[f"rank{r}/regions/{name}"]
            rows = program_rows(g)
            got = columns(g, rows)
            n = len(rows)
            if n == 0 or got != [[0] * n, [-1] * (n - 1) + [left], [-1] * (n - 1) + [tag],
                                 [-1] * (n - 1) + [0]] or \
                    any(caller not in caller_of(g, i) for i in rows):
                fail(f"rank {r} {name}: (bytes, peer, tag, comm) {got}, want nothing found, "
                     f"then (0, {left}, {tag}) from {caller}")
        # each MPI_Startall: its receive started, 8 (r + 1) bytes sent
        g = f[f"rank{r}/regions/MPI_Startall"]
        rows = program_rows(g)
        if columns(g, rows)[0] != [8 * (r + 1)] * 2 or \
                any("persistent" not in caller_of(g, i) for i in rows):
            fail(f"rank {r} MPI_Startall: bytes {columns(g, rows)[0]}, want {[8 * (r + 1)] * 2}")
        callers = {}
        for key, (calls, caller) in want.items():
            name = key[0] if isinstance(key, tuple) else key
            callers.setdefault(name, set()).add(caller)
            g = f[f"rank{r}/regions/{name}"]
            rows = [i for i in program_rows(g) if caller in caller_of(g, i)]
            got = columns(g, rows)
            # a Wait completing only a send carried nothing: communicator -1
            comms = [-1 if c == (0, -1, -1) and name == "MPI_Wait" else 0 for c in calls]
            if got != [[c[0] for c in calls], [c[1] for c in calls], [c[2] for c in calls],
                       comms]:
                fail(f"rank {r} {name} from {caller}: (bytes, peer, tag, comm) {got}, "
                     f"want {calls}")
        for name, expected in callers.items():
            g = f[f"rank{r}/regions/{name}"]
            for i in program_rows(g):
                if not any(c in caller_of(g, i) for c in expected):
                    fail(f"rank {r} {name}: called from {caller_of(g, i)!r}, not the "
                         f"program's {expected}")
        # the messages of the point-to-point calls: (call, kind, peer, bytes, tag, comm)
        want_msgs = {
            "MPI_Send": [(0, 0, right, 20 * (r + 1), 50 + r, 0),
                         (1, 0, right, 8 * (r + 1), 80, 0), (2, 0, right, 24 * (r + 1), 81, 0),
                         (3, 0, left, 12 * (r + 1), 82, 0), (4, 0, right, 16 * (r + 1), 83, 0)],
            "MPI_Recv": [(0, 1, left, 20 * (left + 1), 50 + left, 0),
                         (1, 1, left, 8 * (left + 1), 80, 0), (2, 1, left, 24 * (left + 1), 81, 0)],
            "MPI_Mrecv": [(0, 1, right, 12 * (right + 1), 82, 0)],
            "MPI_Isend": [(0, 0, right, 12 * (r + 1), 70, 0), (1, 0, left, 16 * (r + 1), 71, 0)],
            "MPI_Waitall": [(0, 1, left, 12 * (left + 1), 70, 0),
                            (1, 1, left, 8 * (left + 1), 90, 0),
                            (2, 1, left, 8 * (left + 1), 90, 0)],
            "MPI_Wait": [(0, 1, right, 16 * (right + 1), 71, 0),
                         (2, 1, left, 16 * (left + 1), 83, 0),
                         (4, 1, right, 12 * (right + 1), 91, 0)],
            "MPI_Startall": [(0, 0, right, 8 * (r + 1), 90, 0), (1, 0, right, 8 * (r + 1), 90, 0)],
            "MPI_Start": [(1, 0, left, 12 * (r + 1), 91, 0)],
            "MPI_Sendrecv": [(0, 0, left, 16 * (r + 1), 72, 0),
                             (0, 1, right, 16 * (right + 1), 72, 0)],
        }
        # one-sided: (bytes, target as a world rank) of each call on the
        # reversed communicator (the same id on every rank); the atomics:
        # the operand sent (none for MPI_NO_OP) + the result fetched
        for name, want_calls in {
                "MPI_Put": [(4, N - 1)], "MPI_Get": [(8, 0)], "MPI_Accumulate": [(12, N - 2)],
                "MPI_Get_accumulate": [(8 + 8, 1)],
                "MPI_Fetch_and_op": [(0 + 4, 0), (4 + 4, 0)],
                "MPI_Compare_and_swap": [(3 * 4, N - 1)],
                "MPI_Rget_accumulate": [(0 + 12, 2)]}.items():
            g = f[f"rank{r}/regions/{name}"]
            rows = program_rows(g)
            got = columns(g, rows)
            want_cols = [[c[0] for c in want_calls], [c[1] for c in want_calls],
                         [-1] * len(want_calls), [reversed_comm] * len(want_calls)]
            if got != want_cols or any("onesided" not in caller_of(g, i) for i in rows):
                fail(f"rank {r} {name}: (bytes, peer, tag, comm) {got}, want {want_cols} "
                     f"from onesided")
        # the neighborhood collectives: a message to and from each neighbor
        # on the Cartesian communicator (its id: any but the world's)
        for name, (to_left, to_right, from_left, from_right) in {
                "MPI_Neighbor_allgather": (8, 8, 8, 8),
                "MPI_Neighbor_alltoallv": (4 * (r + 1), 8 * (r + 1), 8 * (left + 1),
                                           4 * (right + 1)),
                "MPI_Ineighbor_alltoall": (12, 12, 12, 12)}.items():
            g = f[f"rank{r}/regions/{name}"]
            got = messages(g, program_rows(g))
            ring = got[0][5] if got else -1
            msgs = [(0, 0, left, to_left, -1, ring), (0, 0, right, to_right, -1, ring),
                    (0, 1, left, from_left, -1, ring), (0, 1, right, from_right, -1, ring)]
            if got != msgs or ring <= 0:
                fail(f"rank {r} {name}: messages {got}, want {msgs} on a new communicator")
            sent += sum(m[3] for m in got if m[1] == 0)
            received += sum(m[3] for m in got if m[1] == 1)
        for name, msgs in want_msgs.items():
            g = f[f"rank{r}/regions/{name}"]
            got = messages(g, program_rows(g))
            if got != msgs:
                fail(f"rank {r} {name}: messages {got}, want {msgs}")
            sent += sum(m[3] for m in got if m[1] == 0)
            received += sum(m[3] for m in got if m[1] == 1)
        # cartesian: the duplicates first (tag 62) and second (tag 61),
        # even ranks sending to r + 1, odd ones receiving from r - 1
        if r % 2 == 0:
            g = f[f"rank{r}/regions/MPI_Send"]
            rows = rows_of(g, "cartesian")
            got = columns(g, rows)
            if got[:3] != [[4, 8], [r + 1] * 2, [61, 62]]:
                fail(f"rank {r} MPI_Send from cartesian: (bytes, peer, tag) {got[:3]}, want "
                     f"(4, {r + 1}, 61), (8, {r + 1}, 62)")
            got = messages(g, rows)
        else:
            g = f[f"rank{r}/regions/MPI_Irecv"]
            got = columns(g, rows_of(g, "cartesian"))
            if got[:3] != [[0, 0], [r - 1] * 2, [62, 61]]:
                fail(f"rank {r} MPI_Irecv from cartesian: (bytes, peer, tag) {got[:3]}, want "
                     f"(0, {r - 1}, 62), (0, {r - 1}, 61)")
            used.setdefault("first", set()).add(got[3][0])
            used.setdefault("second", set()).add(got[3][1])
            g = f[f"rank{r}/regions/MPI_Waitall"]
            got = messages(g, rows_of(g, "cartesian"))
        for tag, role, nbytes in ((61, "second", 4), (62, "first", 8)):
            m = [x for x in got if x[4] == tag]
            kind, peer = (0, r + 1) if r % 2 == 0 else (1, r - 1)
            if len(m) != 1 or m[0][1:5] != (kind, peer, nbytes, tag):
                fail(f"rank {r} cartesian tag {tag}: messages {m}, want one of {nbytes} bytes "
                     f"{'to' if kind == 0 else 'from'} {peer}")
            used.setdefault(role, set()).add(m[0][5])
            sent += nbytes if kind == 0 else 0
            received += nbytes if kind == 1 else 0
        # the halo along the grid's rows: to and from world rank N - 1 - r
        peer = N - 1 - r
        g = f[f"rank{r}/regions/MPI_Sendrecv"]
        got = messages(g, rows_of(g, "cartesian"))[:2]
        grid = got[0][5] if got else -1
        want_halo = [(0, 0, peer, 4 * (r + 1), 63, grid), (0, 1, peer, 4 * (peer + 1), 63, grid)]
        if got != want_halo:
            fail(f"rank {r} MPI_Sendrecv from cartesian: messages {got}, want {want_halo}")
        used.setdefault("grid", set()).add(grid)
        sent += 4 * (r + 1)
        received += 4 * (peer + 1)
        g = f[f"rank{r}/regions/MPI_Allreduce"]
        got = columns(g, rows_of(g, "cartesian"))
        if got[:3] != [[12], [-1], [-1]]:
            fail(f"rank {r} MPI_Allreduce from cartesian: (bytes, peer, tag) {got[:3]}, "
                 f"want (12, -1, -1)")
        used.setdefault(("row", r), set()).add(got[3][0])
        # the rows' intercommunicator: with the same rank of the other row
        partner = (r + 2) % N
        g = f[f"rank{r}/regions/MPI_Sendrecv"]
        got = messages(g, rows_of(g, "cartesian"))[2:]
        inter = got[0][5] if got else -1
        want_inter = [(1, 0, partner, 4 * (r + 1), 65, inter),
                      (1, 1, partner, 4 * (partner + 1), 65, inter)]
        if got != want_inter or inter in (grid, -1):
            fail(f"rank {r} MPI_Sendrecv from cartesian on the intercommunicator: messages "
                 f"{got}, want {want_inter} on a communicator of its own")
        sent += 4 * (r + 1)
        received += 4 * (partner + 1)
        g = f[f"rank{r}/regions/MPI_Barrier"]
        got = columns(g, rows_of(g, "cartesian"))
        if got[:3] != [[0], [-1], [-1]]:
            fail(f"rank {r} MPI_Barrier from cartesian: (bytes, peer, tag) {got[:3]}")
        used.setdefault("merged", set()).add(got[3][0])
        # I/O: (bytes, offset) of each call
        for name, calls in {"MPI_File_write_at": [(4 * (r + 1), 100 * r)],
                            "MPI_File_write": [(12, 100 * r + 40)],
                            "MPI_File_read_at_all": [(8, 0)],
                            "MPI_File_write_at_all_begin": [(8, 100 * r + 60)],
                            "MPI_File_read_all_begin": [(4, 100 * r + 52)]}.items():
            g = f[f"rank{r}/regions/{name}"]
            got = [(g["bytes"][i], g["offset"][i], caller_of(g, i)) for i in range(len(calls))]
            if len(g["bytes"]) != len(calls) or \
                    [(b, o) for b, o, _ in got] != calls or "files" not in got[0][2]:
                fail(f"rank {r} {name}: (bytes, offset, caller) {got}, want {calls} from files")
    # every member used the same id for each communicator made in Fortran,
    # sizes and members from /metadata
    one = {}
    for role, ids in used.items():
        if len(ids) != 1:
            fail(f"cartesian: the ranks used ids {sorted(ids)} for communicator {role}")
        one[role] = next(iter(ids))
    rows = {r: one[("row", r)] for r in range(N)}
    grid_world = [(g + N - 1) % N for g in range(N)]
    want_members = {"first": list(range(N)), "second": list(range(N)), "grid": grid_world,
                    "merged": grid_world}
    for r in range(N):
        want_members[("row", r)] = grid_world[:2] if r in grid_world[:2] else grid_world[2:]
    for role, ids in want_members.items():
        if members(one[role]) != ids:
            fail(f"cartesian: communicator {role} (id {one[role]}) has members "
                 f"{members(one[role])}, want {ids}")
    # (rank 0's communicators are numbered first, in the order it made them)
    if not one["first"] < one["second"] < one["grid"] < rows[0] < one["merged"] or \
            len(set(rows.values())) != 2:
        fail(f"cartesian: ids first {one['first']}, second {one['second']}, grid "
             f"{one['grid']}, rows {rows}, merged {one['merged']}: not in the order of creation")
    # each communicator the program made once: the world, neighbors' ring,
    # onesided's reversed one, and cartesian's first, second, rotated,
    # grid, two rows, the intercommunicator (as each side's group) and the
    # merged one; large_count's MPI_COMM_SELF of each rank and ring
    made = 12 + (N + 1 if LARGE_COUNT else 0)
    if len(comm_rows) != made:
        fail(f"{len(comm_rows)} communicators in the file, want {made}: "
             f"{[members(c) for c in range(1, len(comm_rows))]}")
    # bytes sender s sent receiver t in the v and w collectives (4-byte
    # integers), in each call (MPI_Allgatherv: two, the second in place)
    calls_of = {"MPI_Allgatherv": 2}
    v_forms = {
        "MPI_Gatherv": lambda s, t: 4 * (s + 1) if t == 0 else None,
        "MPI_Scatterv": lambda s, t: 4 * (t + 1) if s == 2 else None,
        "MPI_Allgatherv": lambda s, t: 4 * (s + 1),
        "MPI_Alltoallv": lambda s, t: 4 * (s + t),
        "MPI_Alltoallw": lambda s, t: 4,
    }
    for name, bytes_of in v_forms.items():
        for r in range(N):
            n = calls_of.get(name, 1)
            want = [(p, d, n, n * bytes_of(*pair)) for p in range(N)
                    for d, pair in ((0, (r, p)), (1, (p, r))) if bytes_of(*pair) is not None]
            g = f[f"rank{r}/regions/{name}"]
            got = list(zip(*(g[d][:].tolist() for d in
                             ("peer_ranks", "peer_directions", "peer_messages", "peer_bytes"))))
            if got != want:
                fail(f"rank {r} {name}: (peer, direction, messages, bytes) {got}, want {want}")
    # MPI functions scope has no Fortran wrapper of, recorded by their
    # patch in libmpi, called from the binding: their call site is still
    # the program's line, one frame deep (the binding's frames dropped)
    for name, count in (("MPI_Win_fence", 8), ("MPI_File_open", 1), ("MPI_Win_lock_all", 1)):
        for r in range(N):
            g = f[f"rank{r}/regions/{name}"]
            ids = column(g, "callsite_ids")
            where = [caller_of(g, i) for i in range(len(ids))]
            if len(where) < count or not all(
                    any(s in w for s in SUBROUTINES + ("large_count",)) for w in where):
                fail(f"rank {r} {name}: call sites {where}, want the program's subroutines")
            deep = [list(sites[i]) for i in set(ids) if sum(x >= 0 for x in sites[i]) != 1]
            if deep:
                fail(f"rank {r} {name}: call sites of more than one frame: {deep}")
    if sent != received or sent == 0:
        fail(f"{sent} bytes sent, {received} received")
    print(f"check_fortran: every Fortran call's payload and call site as expected; "
          f"{sent} bytes sent and received")
