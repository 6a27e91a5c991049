#!/usr/bin/env python3
"""check_profile.py: the one checker of the control-flow/ABI corpus.

Runs a corpus program under LD_PRELOAD=libscope with SCOPE_FUNCTIONS, in a
fresh directory with SCOPE_OUTPUT pointing into it, then checks the HDF5
file it wrote (read with h5py, independently of scope's reader) and
cross-checks the call counts with `scope summary --format json`.

Always checked: the program's exit status (it verifies its own results),
exactly one file left in the output directory (no temporary, no file from a
forked child) besides the --children files, the seed layout, sorted start_times, end >= start, times
after run_start_time, and that the calls of each thread nest properly (a
call that starts inside another ends inside it).

usage: check_profile.py --lib LIB --cli SCOPE --functions F1,F2 [expectations]
                        -- PROGRAM [ARGS]
expectations (repeatable):
  --count R=N       region R has exactly N calls (0: absent or empty);
                    R '*' stands for every hooked function not named otherwise
                    (also for --parent)
  --parent R=P1|P2  every call of R sits directly inside a call of P1 or P2
                    ('-' stands for "no parent": a root call); where the
                    clock's granularity makes the parent ambiguous (equal
                    timestamps), any of the possible parents will do
  --depth R=N       at most N, and at some point exactly N, calls of R are
                    open at once on one thread
  --threads R=KxN   R ran on exactly K distinct threads, N calls on each
  --dropped N       rank0's dropped_events is N (calls past a full shadow
                    stack); 0 unless given
  --buffer SIZE     per-thread buffer size (a config file), to force spills
  --children N      the program starts N profiled programs (exec, spawn):
                    each writes a file of its own, profile.PID.h5
  --child-count R=N region R has exactly N calls in every child's file
  --no-nesting      the program switches stacks (swapcontext): the calls of
                    one thread need not nest, and stored self times are not
                    compared with the reader's (they differ for overlapping calls)
  --stack R=F1>F2   with a call-site depth, every call of R has a stack that
                    starts with functions F1 (its caller), F2, ...
Exit status: 0 pass, 1 fail, 77 skip (the program skipped itself, or no h5py).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def keyval(text):
    key, sep, val = text.rpartition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError("expected NAME=VALUE, got %r" % text)
    return key, val


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--functions", required=True)
    ap.add_argument("--count", type=keyval, action="append", default=[])
    ap.add_argument("--parent", type=keyval, action="append", default=[])
    ap.add_argument("--depth", type=keyval, action="append", default=[])
    ap.add_argument("--threads", type=keyval, action="append", default=[])
    ap.add_argument("--unfinished", type=keyval, action="append", default=[])
    ap.add_argument("--buffer")
    ap.add_argument("--dropped", type=int, default=0)
    ap.add_argument("--callsite-depth", type=int, default=0)
    ap.add_argument("--children", type=int, default=0)
    ap.add_argument("--no-nesting", action="store_true")
    ap.add_argument("--stack", type=keyval, action="append", default=[])
    ap.add_argument("--child-count", type=keyval, action="append", default=[])
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("program", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.program[:1] == ["--"]:
        a.program = a.program[1:]
    if not a.program:
        ap.error("no program given")
    # The program runs in a directory of its own: paths must not be relative.
    a.lib, a.cli = os.path.abspath(a.lib), os.path.abspath(a.cli)
    if os.sep in a.program[0]:
        a.program[0] = os.path.abspath(a.program[0])
    return a


def run_program(a, outdir):
    out = os.path.join(outdir, "profile.h5")
    env = dict(os.environ)
    env.pop("SCOPE_CONFIG", None)
    env.update(LD_PRELOAD=a.lib, SCOPE_FUNCTIONS=a.functions,
               SCOPE_OUTPUT=out)
    if a.buffer or a.callsite_depth:
        conf = os.path.join(outdir, "..", "scope.conf")
        with open(conf, "w") as f:
            if a.buffer:
                f.write("[output]\nbuffer = %s\n" % a.buffer)
            if a.callsite_depth:
                f.write("[callsites]\ndepth = %d\n" % a.callsite_depth)
        env["SCOPE_CONFIG"] = conf
    try:
        p = subprocess.run(a.program, env=env, capture_output=True, text=True,
                           timeout=a.timeout, cwd=outdir)
    except subprocess.TimeoutExpired:
        fail("%s did not finish within %g s" % (a.program[0], a.timeout))
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    if p.returncode == SKIP:
        print("SKIP: the program skipped itself")
        sys.exit(SKIP)
    if p.returncode != 0:
        fail("%s exited with status %d under libscope" % (a.program[0], p.returncode))
    left = sorted(os.listdir(outdir))
    children = [f for f in left if f.startswith("profile.") and f[8:-3].isdigit()
                and f.endswith(".h5")]
    if [f for f in left if f not in children] != ["profile.h5"] or len(children) != a.children:
        fail("expected profile.h5 and %d child files profile.PID.h5 in the output directory, "
             "found %s" % (a.children, left))
    return out, [os.path.join(outdir, f) for f in children]


def read_regions(path, want_dropped=0):
    import h5py
    regions = {}
    with h5py.File(path, "r") as f:
        tops = sorted(f.keys())
        if "metadata" not in tops or "rank0" not in tops:
            fail("top-level groups %s: want metadata and rank0" % tops)
        extra = [t for t in tops if t != "metadata" and not t.startswith("rank")]
        if extra:
            fail("unexpected top-level groups %s" % extra)
        rank = f["rank0"]
        run_start = int(rank.attrs.get("run_start_time", f["metadata"].attrs.get("run_start_time", 0)))
        dropped = int(rank.attrs.get("dropped_events", -1))
        if dropped != want_dropped:
            fail("rank0 dropped_events = %d, want %d" % (dropped, want_dropped))
        for name, g in rank["regions"].items():
            for ds in ("start_times", "end_times"):
                if ds not in g:
                    fail("region %s has no %s" % (name, ds))
            st = [int(x) for x in g["start_times"][()]]
            en = [int(x) for x in g["end_times"][()]]
            tid = [int(x) for x in g["thread_ids"][()]] if "thread_ids" in g else [0] * len(st)
            if not (len(st) == len(en) == len(tid)):
                fail("region %s: %d starts, %d ends, %d thread ids"
                     % (name, len(st), len(en), len(tid)))
            regions[name] = (st, en, tid)
    return run_start, regions


def check_callsites(path, depth, stacks):
    """With a call-site depth, every call has a stack of 1 to depth frames,
    its caller in the program or one of its libraries (a signal handler's is
    libc's signal trampoline), never in libscope; and the calls of the
    regions in stacks (name -> [function, ...]) have stacks that start with
    those functions."""
    import h5py
    with h5py.File(path, "r") as f:
        if "callsites" not in f["metadata"]:
            fail("no /metadata/callsites with a call-site depth of %d" % depth)
        sites = f["metadata/callsites"][()]
        frames = f["metadata/callsite_frames"][()]
        if not 1 <= sites.shape[1] <= depth:
            fail("stacks of %d frames, asked %d" % (sites.shape[1], depth))
        for name, g in f["rank0/regions"].items():
            ids = g["callsite_ids"][()] if "callsite_ids" in g else []
            if len(ids) != len(g["start_times"]) or min(ids, default=0) < 0:
                fail("region %s: %d of %d calls have a call site"
                     % (name, sum(1 for i in ids if i >= 0), len(g["start_times"])))
            for i in set(int(i) for i in ids):
                caller = frames[sites[i][0]]
                if not caller["module"] or b"libscope" in caller["module"]:
                    fail("region %s: call site %d: caller %s" % (name, i, caller))
        for name, want in stacks:
            g = f["rank0/regions"][name]
            for i in set(int(i) for i in g["callsite_ids"][()]):
                got = [frames[k]["function"].decode() for k in sites[i] if k >= 0]
                if got[:len(want)] != want:
                    fail("region %s: call site %d: stack %s, want it to start with %s"
                         % (name, i, " > ".join(got), " > ".join(want)))


def check_basics(run_start, regions):
    for name, (st, en, _) in regions.items():
        for i, (s, e) in enumerate(zip(st, en)):
            if e < s:
                fail("%s call %d: ends before it starts (%d < %d)" % (name, i, e, s))
            if s < run_start:
                fail("%s call %d: starts at %d, before run_start_time %d" % (name, i, s, run_start))
            if i and s < st[i - 1]:
                fail("%s: start_times not sorted at call %d" % (name, i))


def nest(regions):
    """Per thread, the parent (region name or None) of every call, and for
    each region the largest number of its calls open at once.

    The clock has a granularity (10 ns on some machines): a call and its
    child can share both timestamps, and then the file cannot say which is
    the parent. A call then gets as parent the tuple of all candidates: the
    other members of its tie group, and the calls of the tie group that
    encloses it; for a call of zero length also the calls it may touch."""
    events = []
    for name, (st, en, tid) in regions.items():
        events.extend(zip(tid, st, en, [name] * len(st)))
    # Per thread by start; at equal starts the longer call is the parent,
    # and a call of zero length comes first (see below).
    events.sort(key=lambda e: (e[0], e[1], e[2] != e[1], -e[2]))
    parents = {name: {} for name in regions}   # name -> {parent: count}
    depth = {name: 0 for name in regions}
    stack, open_count, thread = [], {}, None
    i = 0
    while i < len(events):
        tid, s, e, name = events[i]
        j = i + 1
        while j < len(events) and events[j][:3] == (tid, s, e):
            j += 1
        group = [ev[3] for ev in events[i:j]]
        i = j
        if tid != thread:
            stack, open_count, thread = [], {}, tid
        touching = None     # the innermost call that ended at s
        while stack and stack[-1][1] <= s:
            c = stack.pop()
            open_count[c[2]] -= 1
            if c[1] == s and touching is None:
                touching = c[2]
        if stack and e > stack[-1][1]:
            top = stack[-1]
            fail("thread %d: %s [%d, %d] starts inside %s [%d, %d] but ends after it"
                 % (tid, name, s, e, top[2], top[0], top[1]))
        # The enclosing call: the top of the stack, or any call of the tie
        # group at the top.
        outer = {None}
        if stack:
            outer, k = set(), len(stack)
            while k and stack[k - 1][:2] == stack[-1][:2]:
                k -= 1
                outer.add(stack[k][2])
        if e == s:
            # Zero length: it may also be the last child of a call that ended
            # at s, or the first child of the innermost longer call at s.
            if touching is not None:
                outer = outer | {touching}
            k = i
            while k < len(events) and events[k][:2] == (tid, s):
                k += 1
            if k > i:
                outer = outer | {events[k - 1][3]}
        for k, member in enumerate(group):
            cands = outer | set(group[:k] + group[k + 1:])
            key = tuple(sorted(cands, key=str)) if len(cands) > 1 else cands.pop()
            parents[member][key] = parents[member].get(key, 0) + 1
        for member in group:
            stack.append((s, e, member))
            open_count[member] = open_count.get(member, 0) + 1
            depth[member] = max(depth[member], open_count[member])
    return parents, depth


def expand_star(pairs, functions):
    """'*=V' stands for every hooked function without an entry of its own."""
    named = {k for k, _ in pairs if k != "*"}
    out = []
    for k, v in pairs:
        out.extend([(f, v) for f in functions if f not in named] if k == "*" else [(k, v)])
    return out


def show(parent):
    """A parent for messages: '-' for none, 'a|b' for a tie group."""
    if isinstance(parent, tuple):
        return "|".join(show(p) for p in parent)
    return "-" if parent is None else parent


def check_expectations(a, regions):
    counts = {name: len(v[0]) for name, v in regions.items()}
    functions = [f for f in a.functions.split(",") if f]
    a.count = expand_star(a.count, functions)
    a.parent = expand_star(a.parent, functions)
    for name, want in a.count:
        got = counts.get(name, 0)
        if got != int(want):
            fail("region %s: %d calls, want %s (regions: %s)" % (name, got, want, counts))
    if a.parent or a.depth:
        parents, depth = nest(regions)
    elif not a.no_nesting:
        nest(regions)   # still checks proper nesting
    for name, want in a.parent:
        allowed = {None if p == "-" else p for p in want.split("|")}
        got = {show(p): n for p, n in parents.get(name, {}).items()}
        bad = [p for p in parents.get(name, {}) if not allowed & set(p if isinstance(p, tuple) else [p])]
        if not got or bad:
            fail("region %s: parents %s, want only %s" % (name, got, want))
    for name, want in a.depth:
        if depth.get(name, 0) != int(want):
            fail("region %s: nesting depth %d, want %s" % (name, depth.get(name, 0), want))
    for name, want in a.threads:
        k, _, n = want.partition("x")
        per = {}
        for t in regions.get(name, ([], [], []))[2]:
            per[t] = per.get(t, 0) + 1
        if len(per) != int(k) or (n and any(c != int(n) for c in per.values())):
            fail("region %s: calls per thread id %s, want %s threads x %s calls"
                 % (name, per, k, n or "any"))
    return counts


CLONE_TAG = re.compile(r"(?:\.(?:isra|constprop|lto_priv)\.\d+)+$")


def check_unfinished(path, want):
    """Each region's unfinished_calls attribute (calls still open when
    recording stopped) is as wanted, 0 for regions not named."""
    import h5py
    want = {k: int(v) for k, v in want}
    with h5py.File(path, "r") as f:
        got = {name: int(g.attrs.get("unfinished_calls", 0))
               for name, g in f["rank0/regions"].items()}
    for name in set(got) | set(want):
        if got.get(name, 0) != want.get(name, 0):
            fail("region %s: %d unfinished calls, want %d"
                 % (name, got.get(name, 0), want.get(name, 0)))


def check_clones(program, path):
    """Each region of the program's own functions names in its "clones"
    attribute exactly the clone tags (isra.0, constprop.1, ...) that the
    program's symbols of that function carry."""
    import h5py
    nm = subprocess.run(["nm", "-C", program], capture_output=True, text=True)
    if nm.returncode != 0:
        return
    want = {}
    for line in nm.stdout.splitlines():
        name = line.split(" ", 2)[-1]
        tags = []
        while True:
            m = re.search(r" \[clone (\.(?:isra|constprop|lto_priv)\.\d+)\]$", name)
            m = m or CLONE_TAG.search(name)
            if not m:
                break
            tags.insert(0, m.group(1) if m.lastindex else m.group(0))
            name = name[:m.start()]
        want.setdefault(name, set())
        if tags:
            want[name].add("".join(tags)[1:])
    with h5py.File(path, "r") as f:
        for name, g in f["rank0/regions"].items():
            if name not in want:
                continue
            got = g.attrs.get("clones", b"")
            got = set((got.decode() if isinstance(got, bytes) else got).split())
            if got != want[name]:
                fail("region %s: clones attribute %s, want the program's clones %s"
                     % (name, sorted(got), sorted(want[name])))


def check_cli(cli, path, counts, nesting, dropped, unfinished):
    p = subprocess.run([cli, "summary", path, "--format", "json"], capture_output=True, text=True)
    if p.returncode != 0:
        fail("scope summary failed (%d): %s" % (p.returncode, p.stderr.strip()))
    try:
        rows = json.loads(p.stdout)["regions"]
    except (ValueError, KeyError) as e:
        fail("scope summary --format json: unreadable output (%s): %.200s" % (e, p.stdout))
    said = "rank 0: %d calls were not recorded" % dropped
    if dropped and said not in p.stderr:
        fail("scope summary does not say '%s': %r" % (said, p.stderr))
    said = "rank 0: %d call%s had not returned when recording stopped" % (
        unfinished, "" if unfinished == 1 else "s")
    if unfinished and said not in p.stderr:
        fail("scope summary does not say '%s': %r" % (said, p.stderr))
    if not unfinished and "had not returned" in p.stderr:
        fail("scope summary speaks of unfinished calls: %r" % p.stderr)
    if not dropped and "not recorded" in p.stderr:
        fail("scope summary speaks of unrecorded calls: %r" % p.stderr)
    cli_counts = {r["region"]: r["calls"] for r in rows}
    want = {k: v for k, v in counts.items() if v}
    if cli_counts != want:
        fail("scope summary counts %s differ from the file's %s" % (cli_counts, want))
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
    import stored_stats
    try:
        stored_stats.check(cli, path, nesting)
    except AssertionError as e:
        fail(str(e))


def main():
    a = parse_args()
    try:
        import h5py  # noqa: F401
    except ImportError:
        print("SKIP: python3 has no h5py (install python3-h5py)")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="scope-corpus-") as tmp:
        outdir = os.path.join(tmp, "out")
        os.mkdir(outdir)
        path, children = run_program(a, outdir)
        run_start, regions = read_regions(path, a.dropped)
        check_basics(run_start, regions)
        counts = check_expectations(a, regions)
        if a.callsite_depth:
            check_callsites(path, a.callsite_depth,
                            [(name, want.split(">")) for name, want in a.stack])
        check_cli(a.cli, path, counts, not a.no_nesting, a.dropped,
                  sum(int(v) for _, v in a.unfinished))
        check_clones(a.program[0], path)
        check_unfinished(path, a.unfinished)
        for child in children:
            run_start, regions = read_regions(child)
            check_basics(run_start, regions)
            nest(regions)
            for name, want in a.child_count:
                got = len(regions.get(name, ([],))[0])
                if got != int(want):
                    fail("%s: region %s has %d calls, want %s"
                         % (os.path.basename(child), name, got, want))
    print("ok: %s" % ", ".join("%s=%d" % kv for kv in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
