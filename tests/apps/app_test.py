#!/usr/bin/env python3
"""app_test.py: runs one program under `mpirun -n 2 scope run` with a shipped
config (configs/*.conf, by `include =`) and checks the profile it leaves:
region names and exact call counts per rank, nesting, and that nothing of
libscope's own (its finalize traffic, its spills, its HDF5 writer) was
recorded; for the real MPI applications (hpcc, LAMMPS), that `scope comm`
finds every message sent also received. One table, CASES, says for every
case what runs and what must be seen; the small programs of this directory
make a known number of calls.

usage: app_test.py CASE
env:   SCOPE_CLI (scope), MPIRUN (launcher with its options), PROGRAM (the
       program; empty or missing: the optional package is not installed,
       exit 77 = skipped), CONFIG_DIR (the configs/ directory, for messages)
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
NRANKS = 2

# ---- what the small programs call, per phase (see their header comments)

COLLECTIVES = {
    "MPI_Allreduce": 10, "MPI_Bcast": 5, "MPI_Barrier": 3, "MPI_Reduce": 2,
    "MPI_Allgather": 2, "MPI_Allgatherv": 1, "MPI_Alltoall": 2, "MPI_Alltoallv": 1,
    "MPI_Gather": 1, "MPI_Scatter": 1, "MPI_Reduce_scatter_block": 1, "MPI_Scan": 1,
    "MPI_Exscan": 1, "MPI_Iallreduce": 2, "MPI_Ibcast": 1,
}
COLLECTIVES_COMPLETION = {"MPI_Waitall": 1}          # in mpi-p2p.conf
P2P = {
    "MPI_Send": 2, "MPI_Recv": 3, "MPI_Isend": 4, "MPI_Irecv": 4, "MPI_Waitall": 1,
    "MPI_Waitany": 1, "MPI_Wait": 1, "MPI_Test": 1, "MPI_Sendrecv": 2,
    "MPI_Sendrecv_replace": 1, "MPI_Ssend": 1, "MPI_Probe": 1, "MPI_Iprobe": 1,
}
ONESIDED_IO = {
    "MPI_Win_create": 1, "MPI_Win_fence": 3, "MPI_Put": 2, "MPI_Get": 1,
    "MPI_Accumulate": 1, "MPI_Win_lock": 1, "MPI_Win_unlock": 1, "MPI_Win_free": 1,
    "MPI_File_open": 1, "MPI_File_write_at": 2, "MPI_File_write_at_all": 1,
    "MPI_File_sync": 1, "MPI_File_read_at": 1, "MPI_File_close": 1,
}
MPI_PHASES = ["collectives", "point_to_point", "onesided_io"]


def mpi_case(conf, collectives=None, p2p=None, onesided=None):
    """mpi_calls under one MPI config: the phases' children are exactly the
    calls of the families the config selects, and no MPI call is recorded
    anywhere else (MPI_Init/MPI_Finalize, libscope's merge at finalize)."""
    return {
        "program_args": ["{work}/mpi_calls.dat"],
        "config": [f"include = {conf}"] + MPI_PHASES,
        "stdout": r"mpi_calls: 2 rank\(s\) ok",
        "children": {"collectives": collectives or {}, "point_to_point": p2p or {},
                     "onesided_io": onesided or {}},
        "exact_totals": True,
    }


BLAS_LEVEL = re.compile(r"^(cblas_)?i?[sdcz]\w*_?$")

HPCC_INPUT = """HPLinpack benchmark input file (tests/apps: a tiny run on 1 x 2 ranks)
Innovative Computing Laboratory, University of Tennessee
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
200          Ns
1            # of NBs
16           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
1            Ps
2            Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0                      		Number of additional problem sizes for PTRANS
1200 10000 30000        	values of N
0                       	number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64       	values of NB
"""


def check_blas(ranks, _work, _out):
    """LAPACK routines contain the BLAS calls they make."""
    for r, calls in ranks.items():
        for routine in ("dgetrf_", "dpotrf_"):
            (call,) = [c for c in calls if c["name"] == routine]
            inner = [d["name"] for d in descendants(calls, call)]
            if not inner or not all(BLAS_LEVEL.match(n) for n in inner):
                fail(f"rank {r}: {routine} contains {sorted(set(inner))}, expected BLAS calls")


def check_hdf5(_ranks, work, _out):
    """Each rank's own file is valid HDF5 with what the program wrote."""
    for r in range(NRANKS):
        dump = run(["h5dump", "-d", "/fields/temperature", "-a", "/fields/temperature/rank",
                    os.path.join(work, f"hdf5_calls-{r}.h5")])
        if f"{r * 1000 + 127}.5" not in dump or not re.search(rf"\(0\): {r}\b", dump):
            fail(f"h5dump of rank {r}'s file lacks its data:\n{dump[:2000]}")


def check_posix(ranks, _work, _out):
    """fflush makes the one write of the buffered lines; after the two
    phases the only write on the main thread is rank 0's printf: none of
    libscope's (its spill files, its messages, its profile) is recorded."""
    for r, calls in ranks.items():
        (flush,) = [c for c in calls if c["name"] == "fflush"]
        inner = [c["name"] for c in children(calls, flush)]
        if inner != ["write"]:
            fail(f"rank {r}: fflush contains {inner}, expected one write")
        (stdio,) = [c for c in calls if c["name"] == "stdio_work"]
        late = [c for c in calls if c["thread_id"] == 0 and c["start"] > stdio["end"]
                and c["name"] == "write"]
        if len(late) != (1 if r == 0 else 0):
            fail(f"rank {r}: {len(late)} write calls after the program's last I/O")


def check_matrix(scope_cli, path):
    """scope comm of an MPI config's run: every message a rank sent was
    received, byte for byte."""
    totals = json.loads(run([scope_cli, "comm", path, "--format", "json"]))["totals"]
    if totals["sent_equals_received"] != "yes" or not totals["messages_sent"] or \
            not totals["bytes_sent"]:
        fail(f"scope comm: totals {totals}")
    print(f"ok: scope comm: {totals['messages_sent']} messages of {totals['bytes_sent']} "
          f"bytes in all, each sent and received")


def check_hpcc(ranks, work, out):
    """hpcc really communicates and multiplies on both ranks, and rank 0's
    report is whole."""
    report = open(os.path.join(work, "hpccoutf.txt"), errors="replace").read()
    for needle in ("End of HPC Challenge tests", "Success=1", "PASSED"):
        if needle not in report:
            fail(f"hpccoutf.txt lacks '{needle}'")
    if "FAILED" in report:
        fail("hpcc reports a FAILED check")
    reference_blas = "/blas/libblas.so" in run(["ldd", PROGRAM])
    for r, calls in ranks.items():
        count = collections.Counter(c["name"] for c in calls)
        for name in ("MPI_Allreduce", "MPI_Bcast", "MPI_Barrier", "MPI_Send", "MPI_Recv",
                     "MPI_Sendrecv", "MPI_Alltoall", "MPI_Waitall", "cblas_dgemm",
                     "cblas_dtrsm", "cblas_daxpy"):
            if count[name] == 0:
                fail(f"rank {r}: no {name} call recorded")
        for c in calls:
            if c["name"].startswith("MPI_") and c["parent"] is not None:
                fail(f"rank {r}: {c['name']} nested in {c['parent']['name']}")
        if reference_blas:   # the reference CBLAS calls the Fortran BLAS
            for c in calls:
                if c["name"] == "cblas_dgemm" and \
                        [d["name"] for d in children(calls, c)] != ["dgemm_"]:
                    fail(f"rank {r}: a cblas_dgemm call does not contain one dgemm_")


def check_petsc(ranks, _work, out):
    """Each KSPSolve contains at least one MatMult and one PCApply per CG
    iteration (and the residual's), VecScatter inside MatMult."""
    its = int(re.search(r"(\d+) iterations", out).group(1))
    for r, calls in ranks.items():
        solves = [c for c in calls if c["name"] == "KSPSolve"]
        if len(solves) != 2:
            fail(f"rank {r}: {len(solves)} KSPSolve calls, expected 2")
        for solve in solves:
            inner = collections.Counter(d["name"] for d in descendants(calls, solve))
            for name in ("MatMult", "PCApply", "VecTDot", "VecAXPY"):
                if inner[name] < its:
                    fail(f"rank {r}: KSPSolve contains {inner[name]} {name}, "
                         f"expected at least {its}")
        for mult in (c for c in calls if c["name"] == "MatMult"):
            if "VecScatterBegin" not in [d["name"] for d in children(calls, mult)]:
                fail(f"rank {r}: a MatMult without a VecScatterBegin inside")


LAMMPS_STEPS, LAMMPS_REBUILD, LAMMPS_THERMO = 200, 20, 50
LAMMPS_INPUT = f"""# tests/apps: a small Lennard-Jones melt, neighbor lists rebuilt on a fixed schedule
units           lj
atom_style      atomic
lattice         fcc 0.8442
region          box block 0 8 0 8 0 8
create_box      1 box
create_atoms    1 box
mass            1 1.0
velocity        all create 3.0 4928459 loop geom
pair_style      lj/cut 2.5
pair_coeff      1 1 1.0 1.0 2.5
neighbor        0.3 bin
neigh_modify    every {LAMMPS_REBUILD} delay 0 check no
fix             1 all nve
thermo          {LAMMPS_THERMO}
run             {LAMMPS_STEPS}
"""
LMP = "LAMMPS_NS::"


def thermo_rows(text):
    return re.findall(r"^\s+\d+\s+-?[\d.]+\s+-?[\d.].*$", text, re.M)


def check_lammps(ranks, work, out):
    """A C++ application: the timestep loop (Verlet::run) contains one force
    computation, one pair of integration halves per step and the neighbor
    rebuilds of the input's fixed schedule; setup's own computation lies
    outside it. The physics printed is the same as without scope."""
    plain = run(os.environ["MPIRUN"].split() + ["-n", str(NRANKS), PROGRAM, "-in", "lammps.in",
                                                "-log", "none"], cwd=work)
    rows = thermo_rows(out)
    if len(rows) != LAMMPS_STEPS // LAMMPS_THERMO + 1 or rows != thermo_rows(plain):
        fail(f"thermo output differs from the unprofiled run:\n{rows}\n{thermo_rows(plain)}")
    steps, rebuilds = LAMMPS_STEPS, LAMMPS_STEPS // LAMMPS_REBUILD
    in_run = {f"{LMP}PairLJCut::compute(int, int)": steps,
              f"{LMP}FixNVE::initial_integrate(int)": steps,
              f"{LMP}FixNVE::final_integrate()": steps,
              f"{LMP}Neighbor::build(int)": rebuilds,
              f"{LMP}CommBrick::exchange()": rebuilds,
              f"{LMP}CommBrick::forward_comm(int)": steps - rebuilds}
    in_setup = {f"{LMP}PairLJCut::compute(int, int)": 1, f"{LMP}Neighbor::build(int)": 1,
                f"{LMP}CommBrick::exchange()": 1}
    for r, calls in ranks.items():
        (loop,) = [c for c in calls if c["name"] == f"{LMP}Verlet::run(int)"]
        inside = collections.Counter(c["name"] for c in children(calls, loop))
        roots = collections.Counter(c["name"] for c in calls if c["parent"] is None)
        for name, n in in_run.items():
            if inside[name] != n:
                fail(f"rank {r}: {inside[name]} {name} inside Verlet::run, expected {n}")
        for name, n in in_setup.items():
            if roots[name] != n:
                fail(f"rank {r}: {roots[name]} {name} outside Verlet::run, expected {n}")
        for comm in (c for c in calls if c["name"] == f"{LMP}CommBrick::forward_comm(int)"):
            inner = collections.Counter(d["name"] for d in children(calls, comm))
            if not inner["MPI_Send"] or inner["MPI_Irecv"] != inner["MPI_Wait"]:
                fail(f"rank {r}: a forward_comm contains {dict(inner)}")


CASES = {
    "mpi-collectives": mpi_case("mpi-collectives.conf", collectives=COLLECTIVES),
    "mpi-p2p": mpi_case("mpi-p2p.conf", collectives=COLLECTIVES_COMPLETION, p2p=P2P),
    "mpi-onesided-io": mpi_case("mpi-onesided-io.conf", onesided=ONESIDED_IO),
    "mpi-all": mpi_case("mpi-all.conf", collectives={**COLLECTIVES, **COLLECTIVES_COMPLETION},
                        p2p=P2P, onesided=ONESIDED_IO),
    "blas-lapack": {
        "config": ["include = blas-lapack.conf", "blas_work", "lapack_work"],
        "stdout": r"blas_calls: 2 rank\(s\) ok",
        "children": {
            "blas_work": {"cblas_dgemm": 3, "dgemm_": 2, "ddot_": 4, "daxpy_": 2, "dgemv_": 1},
            "lapack_work": {"dgetrf_": 1, "dgetrs_": 1, "dpotrf_": 1},
        },
        "check": check_blas,
    },
    "hdf5-io": {
        "program_args": ["{work}/hdf5_calls"],
        "config": ["include = hdf5-io.conf", "hdf5_work"],
        "stdout": r"hdf5_calls: 2 rank\(s\) ok",
        "children": {"hdf5_work": {
            "H5Fcreate": 1, "H5Gcreate2": 1, "H5Dcreate2": 2, "H5Sselect_hyperslab": 4,
            "H5Dwrite": 4, "H5Acreate2": 1, "H5Awrite": 1, "H5Aclose": 1, "H5Dclose": 3,
            "H5Gclose": 1, "H5Fclose": 2, "H5Fopen": 1, "H5Dopen2": 1, "H5Dread": 2}},
        "exact_totals": True,     # libscope's own HDF5 (rank 0 writes the profile) unseen
        "check": check_hdf5,
    },
    "posix-io": {
        "program_args": ["{work}/posix_calls", "2000"],
        # 4 KiB buffers (256 records): libscope spills to disk while recording
        "config": ["[output]", "buffer = 4K", "[functions]", "include = posix-io.conf",
                   "posix_work", "stdio_work", "malloc", "free"],
        "stdout": r"posix_calls: 2 rank\(s\) ok",
        "children": {
            "posix_work": {"open": 1, "write": 2000, "fsync": 2, "pwrite": 2, "lseek": 1,
                           "read": 3, "pread": 1, "close": 1, "malloc": 3, "free": 3},
            "stdio_work": {"fopen": 1, "fwrite": 5, "fflush": 1, "fclose": 1},
        },
        "check": check_posix,
    },
    "hpcc": {
        "files": {"hpccinf.txt": HPCC_INPUT},
        "config": ["include = mpi-collectives.conf", "include = mpi-p2p.conf",
                   "include = blas-lapack.conf"],
        # hpcc links BLAS only: the LAPACK line of blas-lapack.conf matches nothing
        "warnings": [r"blas-lapack\.conf:\d+: .* matches no function"],
        "check": check_hpcc,
        "matrix": True,
        "timeout": 200,   # 20 s of CPU: 80 s of wall time on 2 busy cores
    },
    "lammps": {
        "files": {"lammps.in": LAMMPS_INPUT},
        "program_args": ["-in", "{work}/lammps.in", "-log", "none"],
        "config": ["include = mpi-collectives.conf", "include = mpi-p2p.conf", "[functions]",
                   f"{LMP}Verlet::run", f"{LMP}PairLJCut::compute", f"{LMP}FixNVE::*",
                   f"{LMP}Neighbor::build", f"{LMP}Comm*::forward_comm", f"{LMP}Comm*::exchange"],
        "stdout": r"Total wall time",
        "check": check_lammps,
        "matrix": True,
    },
    "petsc": {
        "config": ["include = petsc.conf"],
        "stdout": r"petsc_laplace: 2 rank\(s\), \d+ iterations, error small",
        "check": check_petsc,
    },
}

# ---- helpers


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def children(calls, call):
    return [c for c in calls if c["parent"] is call]


def descendants(calls, call):
    out = []
    for c in children(calls, call):
        out.append(c)
        out.extend(descendants(calls, c))
    return out


def load_calls(scope_cli, path):
    """Every rank's calls from `scope events --format json`, each with a
    link to its parent call."""
    events = json.loads(run([scope_cli, "events", path, "--format", "json"]))["events"]
    ranks = collections.defaultdict(list)
    for e in events:
        ranks[e["rank"]].append(e)
    for calls in ranks.values():
        by_id = {c["call_id"]: c for c in calls}
        for c in calls:
            c["parent"] = by_id.get(c["parent_id"]) if c["parent_id"] >= 0 else None
    return dict(ranks)


def check_callsites(scope_cli, path, ranks):
    """The shipped MPI configs record each MPI call's caller (depth=1): every
    MPI call has one, outside libscope, and `scope callsites` lists them."""
    mpi = [c for calls in ranks.values() for c in calls if c["name"].startswith("MPI_")]
    if not mpi:
        return
    for c in mpi:
        if c.get("callsite_id", -1) < 0 or not c.get("callsite"):
            fail(f"rank {c['rank']}: {c['name']} call {c['call_index']} has no call site")
        if "libscope" in c["callsite"]:
            fail(f"rank {c['rank']}: {c['name']} called from scope itself: {c['callsite']}")
    table = run([scope_cli, "callsites", path, "--include", "^MPI_", "--format", "json"])
    rows = json.loads(table)["callsites"]
    if {r["region"] for r in rows} != {c["name"] for c in mpi}:
        fail("scope callsites does not list every MPI region")
    if sum(r["calls"] for r in rows) != len(mpi):
        fail("scope callsites does not count every MPI call")
    print(f"ok: {len(mpi)} MPI calls from {len({r['id'] for r in rows})} call sites, e.g. "
          f"{rows[0]['region']} from {rows[0]['callsite']}")


def check_children(ranks, expected):
    """The hooked calls directly inside each phase are exactly `expected`."""
    for r, calls in ranks.items():
        for phase, want in expected.items():
            mine = [c for c in calls if c["name"] == phase]
            if len(mine) != 1:
                fail(f"rank {r}: {len(mine)} calls of {phase}, expected 1")
            got = collections.Counter(c["name"] for c in children(calls, mine[0]))
            if got != collections.Counter(want):
                fail(f"rank {r}: inside {phase}: {dict(sorted(got.items()))}\n"
                     f"        expected {dict(sorted(want.items()))}")


def check_totals(ranks, expected):
    """Nothing but the phases' calls, on any thread: exact counts per rank."""
    want = collections.Counter({phase: 1 for phase in expected})
    for calls in expected.values():
        want.update(calls)
    for r, calls in ranks.items():
        got = collections.Counter(c["name"] for c in calls)
        if got != want:
            extra = {k: got[k] - want[k] for k in got | want if got[k] != want[k]}
            fail(f"rank {r}: calls outside the program's own (recorded - made): {extra}")


def main():
    case_name = sys.argv[1]
    case = CASES[case_name]
    global PROGRAM
    PROGRAM = os.environ.get("PROGRAM", "")
    if not PROGRAM or not os.path.exists(PROGRAM):
        print(f"SKIP: {case_name}: program not built or not installed ({PROGRAM or 'none'})")
        sys.exit(SKIP)
    if case_name == "hdf5-io" and not shutil.which("h5dump"):
        print("SKIP: h5dump (hdf5-tools) not installed")
        sys.exit(SKIP)
    scope_cli = os.environ["SCOPE_CLI"]
    mpirun = os.environ["MPIRUN"].split()
    work = tempfile.mkdtemp(prefix=f"scope-apps-{case_name}-")
    try:
        for name, text in case.get("files", {}).items():
            with open(os.path.join(work, name), "w") as f:
                f.write(text)
        conf = os.path.join(work, "app.conf")
        with open(conf, "w") as f:
            f.write(f"# tests/apps case {case_name}: shipped configs found by include\n")
            f.write("\n".join(case["config"]) + "\n")
        cmd = mpirun + ["-n", str(NRANKS), scope_cli, "run", "-c", conf, "--", PROGRAM] + \
            [a.format(work=work) for a in case.get("program_args", [])]
        proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True,
                              timeout=case.get("timeout", 50))
        print("$", " ".join(cmd))
        print(proc.stdout, proc.stderr, sep="")
        if proc.returncode != 0:
            fail(f"exit status {proc.returncode}")
        if "stdout" in case and not re.search(case["stdout"], proc.stdout):
            fail(f"program output lacks /{case['stdout']}/")
        scope_lines = [l for l in proc.stderr.splitlines() if l.startswith("scope:")]
        wrote = [l for l in scope_lines if l.startswith("scope: wrote profiling_data.h5 (")]
        others = [l for l in scope_lines if l not in wrote and
                  not any(re.search(w, l) for w in case.get("warnings", []))]
        if len(wrote) != 1 or others:
            fail(f"scope said {scope_lines}")
        if not re.search(rf", {NRANKS} ranks\): [0-9.]+ [KMGT]?i?B in [0-9.]+ s$", wrote[0]):
            fail(wrote[0])
        ranks = load_calls(scope_cli, os.path.join(work, "profiling_data.h5"))
        if sorted(ranks) != list(range(NRANKS)):
            fail(f"ranks {sorted(ranks)} in the file")
        check_callsites(scope_cli, os.path.join(work, "profiling_data.h5"), ranks)
        if "children" in case:
            check_children(ranks, case["children"])
        if case.get("exact_totals"):
            check_totals(ranks, case["children"])
        if "check" in case:
            case["check"](ranks, work, proc.stdout)
        if case.get("matrix"):
            check_matrix(scope_cli, os.path.join(work, "profiling_data.h5"))
        counts = collections.Counter(c["name"] for c in ranks[0])
        print(f"ok: {case_name}: {sum(counts.values())} calls on rank 0 in "
              f"{len(counts)} regions, e.g. " +
              ", ".join(f"{n} {k}" for k, n in counts.most_common(6)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


PROGRAM = ""
if __name__ == "__main__":
    main()
