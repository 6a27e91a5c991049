#!/bin/bash
# example.sh: the main job on a fresh machine: install the packages, build
# scope, profile the bundled example (an ordinary MPI program) under mpirun
# with 4 ranks (solve with its call sites, 2 frames deep), and show what
# `scope` makes of it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
"$top/tests/install-deps.sh"
[ -f "$build/build.ninja" ] || meson setup "$build" "$top"
ninja -C "$build"

work=$(mktemp -d "${TMPDIR:-/tmp}/scope-example-XXXXXX")
cd "$work"
echo "== mpirun -n 4 scope run -c tutorial.conf -f 'solve depth=2' -- tutorial   (in $work)"
mpirun.openmpi --allow-run-as-root --oversubscribe -n 4 \
    "$build/tools/scope" run -c "$top/tests/programs/tutorial.conf" -f 'solve depth=2' \
    -- "$build/tests/e2e/tutorial-openmpi"
echo
echo "== scope summary profiling_data.h5"
"$build/tools/scope" summary profiling_data.h5
echo
echo "== scope tree profiling_data.h5 --rank 0 --top 8"
"$build/tools/scope" tree profiling_data.h5 --rank 0 --top 8
echo
echo "== scope callsites profiling_data.h5   (where solve was called from: depth=2)"
"$build/tools/scope" callsites profiling_data.h5
echo
echo "The file is $work/profiling_data.h5"
