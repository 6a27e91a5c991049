"""check_neighbors.py: the file of tests/programs/payload_neighbors.c run
on 4 ranks must hold every neighborhood collective as the point-to-point
messages it exchanged along its topology (family p2p): one sent to each
out-neighbor and one received from each in-neighbor, with world ranks
and the bytes of that neighbor's count (none for MPI_PROC_NULL), the
per-call bytes their sum; and total bytes sent must equal total received;
with LARGE_COUNT=1 (the MPI library has the MPI-4 large-count forms) also
MPI_Neighbor_alltoallv_c and MPI_Neighbor_alltoall_c.
usage: check_neighbors.py FILE [DIR (unused)]  (env: LARGE_COUNT)"""
import os
import sys

import h5py


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


with h5py.File(sys.argv[1]) as f:
    sent = received = 0
    for r in range(4):
        other_row = 2 * (1 - r // 2) + r % 2
        column = r + 1 if r % 2 == 0 else r - 1
        left, right = (r + 3) % 4, (r + 1) % 4
        grid = [other_row, other_row, column]   # the Cartesian neighbors that exist
        # (kind, peer, bytes) of each message, in order: sent then received
        want = {
            "MPI_Neighbor_alltoall": [(0, p, 12) for p in grid] + [(1, p, 12) for p in grid],
            "MPI_Neighbor_allgather": [(0, p, 16) for p in grid] + [(1, p, 16) for p in grid],
            "MPI_Neighbor_alltoallv": [(0, right, 4 * (r + 1)), (1, left, 4 * (left + 1))],
            "MPI_Ineighbor_allgatherv": [(0, right, 4 * (r + 1)), (1, left, 4 * (left + 1))],
        }
        large = {
            "MPI_Neighbor_alltoallv_c": [(0, right, 8 * (r + 1)), (1, left, 8 * (left + 1))],
            "MPI_Neighbor_alltoall_c": [(0, p, 20) for p in grid] + [(1, p, 20) for p in grid],
        }
        if sorted(n for n in f[f"rank{r}/regions"] if n.endswith("_c")) != \
                (sorted(large) if os.environ.get("LARGE_COUNT") == "1" else []):
            fail(f"rank {r}: large-count regions {list(f[f'rank{r}/regions'])}")
        if os.environ.get("LARGE_COUNT") == "1":
            want.update(large)
        for name, msgs in want.items():
            g = f[f"rank{r}/regions/{name}"]
            family = g.attrs.get("mpi_payload")
            family = family.decode() if isinstance(family, bytes) else family
            got = list(zip(g["msg_kind"][:].tolist(), g["msg_peer"][:].tolist(),
                           g["msg_bytes"][:].tolist()))
            if family != "p2p" or got != msgs or g["msg_call"][:].tolist() != [0] * len(msgs):
                fail(f"rank {r} {name}: family {family}, messages {got}, want {msgs}")
            if g["bytes"][:].tolist() != [sum(m[2] for m in msgs)]:
                fail(f"rank {r} {name}: bytes {g['bytes'][:].tolist()}")
            sent += sum(m[2] for m in got if m[0] == 0)
            received += sum(m[2] for m in got if m[0] == 1)
    if sent != received or sent == 0:
        fail(f"{sent} bytes sent, {received} received")
    print(f"check_neighbors: every neighborhood collective's messages as expected; "
          f"{sent} bytes sent and received")
