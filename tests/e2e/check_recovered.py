#!/usr/bin/env python3
"""check_recovered.py: a file written by `scope recover` after a 2-rank
busy_loop job holds, on each rank, at least 99 % of the calls the program
counted (and no more than it counted, plus the one in flight), and the
hook cost its processes measured at start (hook_cost_ns: > 0, < 10 us).

usage: check_recovered.py FILE CALLS_RANK0 CALLS_RANK1
"""
import sys

import h5py

path, counts = sys.argv[1], [int(c) for c in sys.argv[2:4]]
with h5py.File(path) as f:
    assert sorted(k for k in f if k != "metadata") == ["rank0", "rank1"], list(f)
    cost = int(f["metadata"].attrs["hook_cost_ns"])
    assert 0 < cost < 10000, f"hook_cost_ns {cost}"
    for rank, made in enumerate(counts):
        got = len(f[f"rank{rank}/regions/work/start_times"])
        print(f"rank {rank}: {got} of {made} calls recovered ({100 * got / made:.2f} %)")
        assert 0.99 * made <= got <= made + 1, (rank, got, made)
