#!/usr/bin/env python3
"""file_loops.py BUILD_DIR: the project's files as a graph (a file -> the
files it includes and the files that define the functions it calls, read
from the built objects with nm) and its loops. Exits 1 when two or more
files reach each other (a loop); with --summary, also prints the files per
folder and the longest functions.

The calls are the linker's truth: every undefined symbol of an object is a
call into the object (of this project) that defines it, so an interposer
that libscope's own code binds to (its dlopen, say) is an arrow too."""
import collections
import json
import os
import re
import subprocess
import sys

PRODUCT = ('preload', 'writer', 'tools')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def product_file(source_root, path):
    rel = os.path.relpath(path, source_root)
    return rel if rel.split(os.sep)[0] in PRODUCT else None


def objects(build_dir, source_root):
    """(object path, source file relative to the root) of every product object."""
    with open(os.path.join(build_dir, 'compile_commands.json')) as f:
        commands = json.load(f)
    for c in commands:
        src = os.path.normpath(os.path.join(c['directory'], c['file']))
        rel = product_file(source_root, src)
        if rel:
            yield os.path.join(c['directory'], c['output']), rel


def symbols(objs, defined):
    """{object: its global symbols} (defined, or undefined), one nm run."""
    flag = '--defined-only' if defined else '--undefined-only'
    out = subprocess.run(['nm', '-A', '-g', flag] + objs, capture_output=True, text=True,
                         check=True).stdout
    found = collections.defaultdict(set)
    for line in out.splitlines():
        obj, _, rest = line.partition(':')
        if rest.split():
            found[obj].add(rest.split()[-1])
    return found


def call_edges(build_dir, source_root):
    source_of = dict(objects(build_dir, source_root))
    objs = sorted(source_of)
    defined_by = collections.defaultdict(set)
    for obj, names in symbols(objs, True).items():
        for name in names:
            defined_by[name].add(source_of[obj])
    edges = collections.defaultdict(dict)
    for obj, names in symbols(objs, False).items():
        src = source_of[obj]
        for name in names:
            for dst in defined_by.get(name, ()):
                if dst != src:
                    edges[src].setdefault(dst, set()).add(name)
    return edges


def include_edges(source_root):
    files = []
    for top in PRODUCT:
        for d, _, names in os.walk(os.path.join(source_root, top)):
            files += [os.path.join(d, n) for n in names if n.endswith(('.c', '.h', '.S'))]
    by_suffix = collections.defaultdict(list)
    for f in files:
        by_suffix[os.path.basename(f)].append(f)
    edges = collections.defaultdict(dict)
    for f in files:
        with open(f, errors='replace') as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            near = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            if os.path.exists(near):
                target = near
            else:
                hits = [h for h in by_suffix[os.path.basename(inc)] if h.endswith(inc)]
                if len(hits) != 1:
                    continue  # generated (scope_build_config.h) or system
                target = hits[0]
            src = os.path.relpath(f, source_root)
            edges[src].setdefault(os.path.relpath(target, source_root), set()).add('#include')
    return edges, [os.path.relpath(f, source_root) for f in files]


def loops(nodes, edges):
    """Tarjan's strongly connected components of two or more files."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def longest_functions(source_root, files, count):
    """Lines of each C function: from a line that opens a body at column 0
    to the matching '}' at column 0 (the project's style)."""
    sizes = []
    for f in files:
        if not f.endswith('.c'):
            continue
        with open(os.path.join(source_root, f), errors='replace') as fh:
            lines = fh.read().splitlines()
        start, name = None, None
        for i, line in enumerate(lines):
            m = re.match(r'^[A-Za-z_].*?\b([A-Za-z_]\w*)\s*\(', line)
            if m and start is None and not line.endswith(';'):
                name = m.group(1)
            if line.startswith('{') and name:
                start = i
            elif line.startswith('}') and start is not None:
                sizes.append((i - start + 1, f, name))
                start, name = None, None
    return sorted(sizes, reverse=True)[:count]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    summary = '--summary' in sys.argv
    if len(args) != 1:
        sys.exit('usage: file_loops.py [--summary] BUILD_DIR')
    build_dir = os.path.abspath(args[0])
    source_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    edges, files = include_edges(source_root)
    for src, dsts in call_edges(build_dir, source_root).items():
        for dst, names in dsts.items():
            edges[src].setdefault(dst, set()).update(names)
    found = loops(set(files) | set(edges), edges)
    for n, part in enumerate(found, 1):
        print('loop %d: %d files' % (n, len(part)))
        members = set(part)
        for src in part:
            for dst, names in sorted(edges[src].items()):
                if dst in members:
                    print('  %s -> %s: %s' % (src, dst, ', '.join(sorted(names)[:6])))
    if summary:
        per_folder = collections.Counter(os.path.dirname(f) for f in files)
        print('files per folder:')
        for folder, n in sorted(per_folder.items()):
            print('  %-28s %3d' % (folder + '/', n))
        print('arrows between files: %d' % sum(len(d) for d in edges.values()))
        print('longest functions:')
        for size, f, name in longest_functions(source_root, files, 5):
            print('  %4d lines  %s (%s)' % (size, name, f))
    print('%d loop(s) between files' % len(found))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
