"""stored_stats.py: checks that the statistics scope's writer stores with
each region (count, total, min, max, variance, self time) say what the calls
themselves say: `scope summary` (from the statistics) against `scope summary
--recompute` (from the calls, the reader's own nesting), every table.
Imported by the e2e and corpus checkers."""
import json
import math
import subprocess


def summary(cli, path, *extra):
    p = subprocess.run([cli, "summary", path, "--format", "json", *extra],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError("scope summary %s failed (%d): %s"
                             % (" ".join(extra), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def same(a, b, exact):
    if a is None or b is None or isinstance(a, str):
        return a == b
    if exact:   # sums of integer ns: printed to the ns
        return abs(a - b) < 0.5e-9
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12)


def ambiguous_self(path):
    """Regions (per rank) with a call whose start and end equal those of a
    call of another region on the same thread, mapped to the summed length
    of such calls. The file cannot say which of the two contains the other
    (the writer knew, from the order they ended); the reader, from the
    times alone, takes region order: their self times may differ by up to
    that much. Happens where the clock ticks coarsely (10 ns here without
    an invariant TSC) and calls nest within one tick of each other."""
    import h5py
    out = {}
    with h5py.File(path, "r") as f:
        for rank in f:
            if not rank.startswith("rank"):
                continue
            seen = {}
            regions = f[rank]["regions"]
            for name in regions:
                g = regions[name]
                starts, ends = g["start_times"][:], g["end_times"][:]
                threads = g["thread_ids"][:] if "thread_ids" in g else [0] * len(starts)
                for a, b, t in zip(starts.tolist(), ends.tolist(), list(threads)):
                    seen.setdefault((int(t), a, b), set()).add(name)
            for (t, a, b), names in seen.items():
                if len(names) > 1:
                    for name in names:
                        out[name] = out.get(name, 0) + (b - a) * 1e-9
    return out


def check(cli, path, nesting=True):
    """Raises AssertionError naming the first difference. With nesting
    False (a program that switches stacks: its calls overlap without
    nesting) self times are not compared: the writer takes a call's
    children from the open calls at its entry, the reader from the times,
    and for overlapping calls neither is the one right answer."""
    stored, derived = summary(cli, path), summary(cli, path, "--recompute")
    slack = ambiguous_self(path)
    if stored.keys() != derived.keys():
        raise AssertionError("summary tables differ: %s vs %s" % (list(stored), list(derived)))
    for table, rows in stored.items():
        if len(rows) != len(derived[table]):
            raise AssertionError("%s: %d rows stored, %d derived"
                                 % (table, len(rows), len(derived[table])))
        for got, want in zip(rows, derived[table]):
            for key, value in want.items():
                if not nesting and "self" in key:
                    continue
                exact = key not in ("std", "mean", "share") and not key.startswith("max_over")
                tie = slack.get(got.get("region"), 0) if "self" in key else 0
                if tie and isinstance(value, float) and got.get(key) is not None and \
                        abs(got.get(key) - value) <= tie:
                    continue
                if not same(got.get(key), value, exact):
                    raise AssertionError("%s %s: %s stored %r, derived from the calls %r"
                                         % (table, got.get("region"), key, got.get(key), value))
