"""make_h5py_profile.py: writes, with h5py, a profile in the seed's layout
as a Python tool would (no statistics attributes, no thread ids;
start_times and end_times int64, shuffle + gzip, h5py's own chunks): 4
ranks of nested calls, about 2.5 M per rank by default. Each timestep
holds an assemble (64 element calls), a solve (64 matvec calls, each
around a dot) and an exchange around an MPI_Waitall. With RANKS, that
many ranks share the EVENTS (at least one timestep each).
usage: make_h5py_profile.py OUTPUT.h5 [EVENTS [RANKS]]"""
import sys

import h5py
import numpy as np

K = 64          # element and matvec calls per timestep
GAP = 50        # ns between a call and the next thing


def chained(starts, durations):
    """The starts of calls of the given durations, one after another from
    each row's start with GAP before each."""
    return starts[:, None] + np.cumsum(durations + GAP, axis=1) - durations


def rank_calls(rank, steps):
    """{region: (start_times, end_times)} of one rank."""
    rng = np.random.default_rng(1234 + rank)
    element = rng.integers(200, 2000, (steps, K))
    dot = rng.integers(100, 800, (steps, K))
    matvec_own = rng.integers(200, 1500, (steps, K))
    waitall = rng.integers(1000, 50000 * (rank + 1), steps)
    # durations of the levels above, from their children
    assemble = (element + GAP).sum(axis=1) + GAP
    matvec = matvec_own + dot + GAP
    solve = (matvec + GAP).sum(axis=1) + GAP
    exchange = waitall + 2 * GAP
    step = assemble + solve + exchange + 4 * GAP
    step_start = 1_000_000_000 + np.cumsum(step + 500) - step
    calls = {"timestep": (step_start, step_start + step)}
    a_start = step_start + GAP
    calls["assemble"] = (a_start, a_start + assemble)
    e_start = chained(a_start, element)
    calls["element"] = (e_start, e_start + element)
    s_start = a_start + assemble + GAP
    calls["solve"] = (s_start, s_start + solve)
    mv_start = chained(s_start, matvec)
    calls["matvec"] = (mv_start, mv_start + matvec)
    dot_start = mv_start + matvec_own
    calls["dot"] = (dot_start, dot_start + dot)
    x_start = s_start + solve + GAP
    calls["exchange"] = (x_start, x_start + exchange)
    calls["MPI_Waitall"] = (x_start + GAP, x_start + GAP + waitall)
    return {name: (s.ravel(), e.ravel()) for name, (s, e) in calls.items()}


def main():
    path = sys.argv[1]
    events = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
    ranks = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    steps = max(1, events // (ranks * (3 * K + 5)))
    with h5py.File(path, "w") as f:
        f.create_group("metadata").attrs["run_start_time"] = np.int64(999_000_000)
        for rank in range(ranks):
            regions = f.create_group(f"rank{rank}").create_group("regions")
            for name, (start, end) in rank_calls(rank, steps).items():
                g = regions.create_group(name)
                g.create_dataset("start_times", data=start, shuffle=True, compression="gzip")
                g.create_dataset("end_times", data=end, shuffle=True, compression="gzip")


main()
