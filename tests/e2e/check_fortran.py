"""check_fortran.py: the file of tests/programs/payload_fortran.F90 run on
4 ranks must say what its Fortran sends, receives, completions,
collectives, file reads and writes (with their offsets), probes and
matched receives carried (bytes, peers as world ranks, tags, roots, the
messages of the point-to-point calls, MPI_ANY_SOURCE and ignored statuses
resolved), total bytes sent must equal total bytes received, and the call
sites must be the program's own subroutines, not the MPI library's Fortran
bindings; the v and w collectives' bytes to and from each peer (peer_*).
usage: check_fortran.py FILE [DIR (unused)]"""
import sys

import h5py

N = 4
SUBROUTINES = ("exchange", "ring", "collectives", "gathers", "files", "probes",
               "persistent", "neighbors", "onesided")


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
            "MPI_Bcast": ([(48 if r == 1 else 0, 1, -1)], "collectives"),
            "MPI_Reduce": ([(12, 2, -1)], "collectives"),
            "MPI_Allreduce": ([(16, -1, -1)], "collectives"),
            "MPI_Barrier": ([(0, -1, -1)], "collectives"),
            "MPI_Gather": ([(8, 3, -1)], "gathers"),
            "MPI_Gatherv": ([(4 * (r + 1), 0, -1)], "gathers"),
            "MPI_Scatter": ([(48 if r == 1 else 0, 1, -1)], "gathers"),
            "MPI_Scatterv": ([(40 if r == 2 else 0, 2, -1)], "gathers"),
            "MPI_Allgather": ([(8, -1, -1), (4, -1, -1)], "gathers"),
            "MPI_Allgatherv": ([(4 * (r + 1), -1, -1)], "gathers"),
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
        # one-sided: (bytes, target as a world rank, tag) on the reversed communicator
        for name, want_call in {"MPI_Put": (4, N - 1, -1), "MPI_Get": (8, 0, -1),
                                "MPI_Accumulate": (12, N - 2, -1)}.items():
            g = f[f"rank{r}/regions/{name}"]
            rows = program_rows(g)
            got = columns(g, rows)
            if got[:3] != [[v] for v in want_call] or got[3][0] <= 0 or \
                    "onesided" not in caller_of(g, rows[0]):
                fail(f"rank {r} {name}: (bytes, peer, tag, comm) {got}, want {want_call} on "
                     f"a new communicator from onesided")
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
        # I/O: (bytes, offset) of each call
        for name, calls in {"MPI_File_write_at": [(4 * (r + 1), 100 * r)],
                            "MPI_File_write": [(12, 100 * r + 40)],
                            "MPI_File_read_at_all": [(8, 0)]}.items():
            g = f[f"rank{r}/regions/{name}"]
            got = [(g["bytes"][i], g["offset"][i], caller_of(g, i)) for i in range(len(calls))]
            if len(g["bytes"]) != len(calls) or \
                    [(b, o) for b, o, _ in got] != calls or "files" not in got[0][2]:
                fail(f"rank {r} {name}: (bytes, offset, caller) {got}, want {calls} from files")
    # bytes sender s sent receiver t in the v and w collectives (4-byte integers)
    v_forms = {
        "MPI_Gatherv": lambda s, t: 4 * (s + 1) if t == 0 else None,
        "MPI_Scatterv": lambda s, t: 4 * (t + 1) if s == 2 else None,
        "MPI_Allgatherv": lambda s, t: 4 * (s + 1),
        "MPI_Alltoallv": lambda s, t: 4 * (s + t),
        "MPI_Alltoallw": lambda s, t: 4,
    }
    for name, bytes_of in v_forms.items():
        for r in range(N):
            want = [(p, d, 1, bytes_of(*pair)) for p in range(N)
                    for d, pair in ((0, (r, p)), (1, (p, r))) if bytes_of(*pair) is not None]
            g = f[f"rank{r}/regions/{name}"]
            got = list(zip(*(g[d][:].tolist() for d in
                             ("peer_ranks", "peer_directions", "peer_messages", "peer_bytes"))))
            if got != want:
                fail(f"rank {r} {name}: (peer, direction, messages, bytes) {got}, want {want}")
    if sent != received or sent == 0:
        fail(f"{sent} bytes sent, {received} received")
    print(f"check_fortran: every Fortran call's payload and call site as expected; "
          f"{sent} bytes sent and received")
