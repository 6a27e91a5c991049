"""check_rma_io.py: the file of tests/programs/payload_rma_io.c run on 4
ranks must say what every one-sided and I/O call carried: MPI_Put,
MPI_Get and MPI_Accumulate with the origin's bytes, the atomics
MPI_Get_accumulate (also with MPI_NO_OP), MPI_Fetch_and_op and
MPI_Compare_and_swap with the bytes to the target and back, each with the
target as a world rank through the window's communicator (ranks reversed), that
communicator's members; MPI_File_write_at and MPI_File_read_at_all with
the bytes written and read and the file offsets, in the file and in
`scope events` ($SCOPE_CLI); the split collectives (MPI_File_*_begin, and
MPI_File_write_at_all_begin_c where the MPI library has the large-count
forms) theirs at their beginning.
usage: check_rma_io.py FILE [DIR (unused)]"""
import csv
import os
import subprocess
import sys

import h5py

LARGE_COUNT = os.environ.get("LARGE_COUNT") == "1"


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


with h5py.File(sys.argv[1]) as f:
    comms = f["metadata/communicators"][:].tolist()
    members = f["metadata/communicator_members"][:].tolist()
    window_comms = set()
    for r in range(4):
        # I/O: (bytes, offset) per call
        io = {"MPI_File_write_at": [(10 * (r + 1), 100 * r)],
              "MPI_File_read_at_all": [(20, 0)], "MPI_File_write": [(4, 100 * r + 50)],
              "MPI_File_iwrite_at": [(12, 100 * r + 60)], "MPI_File_iread": [(8, 100 * r + 54)],
              "MPI_File_write_shared": [(2, -1)], "MPI_File_write_ordered": [(r + 1, -1)],
              "MPI_File_read_at": [(4, 1008)],
              # split collectives: at their beginning
              "MPI_File_write_all_begin": [(3, 100 * r + 74)],
              "MPI_File_read_at_all_begin": [(8, 100 * r)],
              "MPI_File_read_ordered_begin": [(2 * (r + 1), -1)]}
        for name, calls in io.items():
            g = f[f"rank{r}/regions/{name}"]
            got = (list(zip(g["bytes"][:].tolist(), g["offset"][:].tolist())),
                   g["peer"][:].tolist(), g["tag"][:].tolist(), g["comm"][:].tolist())
            if got != (calls, [-1] * len(calls), [-1] * len(calls), [-1] * len(calls)):
                fail(f"rank {r} {name}: ((bytes, offset), peer, tag, comm) {got}, want {calls}")
            if g.attrs.get("mpi_payload") not in ("io", b"io"):
                fail(f"rank {r} {name}: family {g.attrs.get('mpi_payload')}")
        want = {"MPI_Put": ("rma", 12 * (r + 1), 3), "MPI_Get": ("rma", 16, 2),
                "MPI_Accumulate": ("rma", 16, 1), "MPI_File_write_at": ("io", 10 * (r + 1), -1),
                "MPI_File_read_at_all": ("io", 20, -1),
                "MPI_Get_accumulate": ("rma", [8 + 8, 12], [0, 0]),
                "MPI_Fetch_and_op": ("rma", 16, (r + 3) % 4),
                "MPI_Compare_and_swap": ("rma", 24, (r + 2) % 4)}
        # the large-count forms, on a window made by MPI_Win_create_c
        large = {"MPI_Put_c": ("rma", 20, 2), "MPI_Accumulate_c": ("rma", 8, 0),
                 "MPI_File_write_at_c": ("io", 6, -1), "MPI_File_read_at_c": ("io", 4, -1),
                 "MPI_File_write_at_all_begin_c": ("io", 5, -1)}
        # (the window constructor is timed, selected by the config)
        if sorted(n for n in f[f"rank{r}/regions"] if n.endswith("_c")) != \
                (sorted(list(large) + ["MPI_Win_create_c"]) if LARGE_COUNT else []):
            fail(f"rank {r}: large-count regions {list(f[f'rank{r}/regions'])}")
        if LARGE_COUNT:
            want.update(large)
            for name, offset in (("MPI_File_write_at_c", 100 * r + 80),
                                 ("MPI_File_read_at_c", 100 * r + 80),
                                 ("MPI_File_write_at_all_begin_c", 100 * r + 90)):
                if f[f"rank{r}/regions/{name}/offset"][:].tolist() != [offset]:
                    fail(f"rank {r} {name}: offset {f[f'rank{r}/regions/{name}/offset'][:]}")
        for name, (family, nbytes, peer) in want.items():
            g = f[f"rank{r}/regions/{name}"]
            got_family = g.attrs.get("mpi_payload")
            got_family = got_family.decode() if isinstance(got_family, bytes) else got_family
            got = (got_family, g["bytes"][:].tolist(), g["peer"][:].tolist())
            want_calls = (family, nbytes if isinstance(nbytes, list) else [nbytes],
                          peer if isinstance(peer, list) else [peer])
            if got != want_calls:
                fail(f"rank {r} {name}: {got}, want {want_calls}")
            if any(k.startswith("msg_") for k in g):
                fail(f"rank {r} {name}: message datasets in a {family} region")
            if family == "rma" and "offset" in g:
                fail(f"rank {r} {name}: an offset in a one-sided region")
            if family == "rma":
                window_comms |= set(g["comm"][:].tolist())
            elif g["comm"][:].tolist() != [-1]:
                fail(f"rank {r} {name}: comm {g['comm'][:].tolist()}")
    if len(window_comms) != 1:
        fail(f"the window's communicator ids {window_comms}")
    size, first = comms[window_comms.pop()]
    if members[first:first + size] != [3, 2, 1, 0]:
        fail(f"the window's communicator is {members[first:first + size]}")

# scope events: the offset column of I/O calls, blank for the others
rows = list(csv.DictReader(subprocess.run(
    [os.environ["SCOPE_CLI"], "events", sys.argv[1], "--format", "csv", "--include",
     "^MPI_(File_write_at|File_iread|File_write_shared|Put)$"],
    capture_output=True, text=True, check=True).stdout.split("\n\n")[0].splitlines()))
got = sorted((r["name"], int(r["rank"]), r["offset"]) for r in rows)
want = sorted([("MPI_File_write_at", r, str(100 * r)) for r in range(4)] +
              [("MPI_File_iread", r, str(100 * r + 54)) for r in range(4)] +
              [("MPI_File_write_shared", r, "-1") for r in range(4)] +
              [("MPI_Put", r, "") for r in range(4)])
if got != want:
    fail(f"scope events offsets {got}, want {want}")
print("check_rma_io: every one-sided and I/O call's payload as expected, offsets in scope events")
