"""check_collectives.py: the file of tests/programs/payload_collectives.c
run on 4 ranks must say what every collective carried, exactly: bytes
(derived type included, v forms summed, receive-only ranks 0), the root as
a world rank, the communicator (world, or the one split by parity); a
call that failed (an invalid datatype) recorded without payload.
usage: check_collectives.py FILE [DIR (unused)]"""
import sys

import h5py

RANKS = 4


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


with h5py.File(sys.argv[1]) as f:
    comms = f["metadata/communicators"][:].tolist()
    members = f["metadata/communicator_members"][:].tolist()
    halves = {}
    for r in range(RANKS):
        # (bytes, peer, comm) of each call, comm None: world (0)
        want = {
            "MPI_Alltoallv": [(4 * (r + 1) * (2 + 3 + 4 + 5), -1, 0)],
            "MPI_Bcast": [(5 * 48 if r == 2 else 0, 2, 0), (4 if r // 2 == 1 else 0, 2 + r % 2, None),
                          (0, -1, -1)],   # failed: recorded, without payload
            "MPI_Reduce": [(80, 1, 0)],
            "MPI_Gather": [(28, 3, 0)],
            "MPI_Scatterv": [(40 if r == 0 else 0, 0, 0)],
            "MPI_Allreduce": [(12, -1, 0), (8, -1, None)],
            "MPI_Iallreduce": [(32, -1, 0)],
            "MPI_Barrier": [(0, -1, 0)],
        }
        for name, calls in want.items():
            g = f[f"rank{r}/regions/{name}"]
            if g.attrs.get("mpi_payload") not in ("collective", b"collective"):
                fail(f"rank {r} {name}: mpi_payload {g.attrs.get('mpi_payload')!r}")
            got = list(zip(g["bytes"][:].tolist(), g["peer"][:].tolist(), g["comm"][:].tolist()))
            if len(got) != len(calls):
                fail(f"rank {r} {name}: {len(got)} calls, want {len(calls)}")
            for (b, p, c), (wb, wp, wc) in zip(got, calls):
                if (b, p) != (wb, wp) or (wc is not None and c != wc):
                    fail(f"rank {r} {name}: (bytes, peer, comm) {got}, want {calls}")
                if wc is None:
                    halves.setdefault(r % 2, set()).add(c)
            if any(k.startswith("msg_") for k in g) or set(g["tag"][:].tolist()) != {-1}:
                fail(f"rank {r} {name}: a collective with message datasets or tags")
    for parity, ids in halves.items():
        size, first = comms[next(iter(ids))]
        if len(ids) != 1 or members[first:first + size] != [parity, parity + 2]:
            fail(f"the communicator of parity {parity}: ids {ids}")
    if halves[0] == halves[1]:
        fail("both halves share a communicator id")
    print("check_collectives: every collective's payload as expected")
