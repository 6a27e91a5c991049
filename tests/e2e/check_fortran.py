"""check_fortran.py: the file of tests/programs/payload_fortran.F90 run on
4 ranks must say what its Fortran sends and collectives carried (bytes,
peers as world ranks, tags, roots) and name the program's own subroutines
as their call sites, not the MPI library's Fortran bindings.
usage: check_fortran.py FILE [DIR (unused)]"""
import sys

import h5py


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


with h5py.File(sys.argv[1]) as f:
    frames, sites = f["metadata/callsite_frames"][:], f["metadata/callsites"][:]
    for r in range(4):
        want = {"MPI_Send": (20 * (r + 1), (r + 1) % 4, 50 + r, "exchange"),
                "MPI_Bcast": (48 if r == 1 else 0, 1, -1, "collectives"),
                "MPI_Reduce": (12, 2, -1, "collectives"),
                "MPI_Allreduce": (16, -1, -1, "collectives"),
                "MPI_Barrier": (0, -1, -1, "collectives")}
        for name, (nbytes, peer, tag, caller) in want.items():
            g = f[f"rank{r}/regions/{name}"]
            got = (g["bytes"][:].tolist(), g["peer"][:].tolist(), g["tag"][:].tolist(),
                   g["comm"][:].tolist())
            if got != ([nbytes], [peer], [tag], [0]):
                fail(f"rank {r} {name}: (bytes, peer, tag, comm) {got}")
            fn = frames[sites[g["callsite_ids"][0]][0]]["function"]
            fn = fn.decode() if isinstance(fn, bytes) else fn
            if caller not in fn:
                fail(f"rank {r} {name}: called from {fn!r}, not the program's {caller}")
        if len(f[f"rank{r}/regions/MPI_Recv/start_times"]) != 1:
            fail(f"rank {r}: MPI_Recv not recorded once")
    print("check_fortran: every Fortran call's payload and call site as expected")
