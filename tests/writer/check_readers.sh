#!/bin/sh
# check_readers.sh WRITE_SAMPLE: the writer's sample file must be readable by
# h5dump (hdf5-tools) and by h5py, with string attributes coming back as str.
# Each reader that is not installed is skipped; exit 77 if none is.
set -eu
write_sample=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
file=$dir/sample.h5
"$write_sample" "$file"
checked=0

if command -v h5dump >/dev/null 2>&1; then
    h5dump -H "$file" >"$dir/dump.txt"
    for want in 'GROUP "metadata"' 'GROUP "rank1"' 'GROUP "ns%2Ffunc"' \
                'DATASET "thread_ids"' 'H5T_STD_I64LE' 'H5T_CSET_UTF8'; do
        grep -qF "$want" "$dir/dump.txt" || { echo "h5dump output lacks $want"; exit 1; }
    done
    echo "h5dump: ok"
    checked=1
else
    echo "h5dump not installed: skipped"
fi

python=
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import h5py' 2>/dev/null; then
        python=$p
        break
    fi
done
if [ -n "$python" ]; then
    "$python" - "$file" <<'PY'
import sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    assert sorted(f.keys()) == ["metadata", "rank0", "rank1"], list(f.keys())
    meta = f["metadata"].attrs
    for key in ("version", "hostname", "platform", "user", "working_directory",
                "timestamp", "command", "config", "clock"):
        assert isinstance(meta[key], str), (key, type(meta[key]))
    assert meta["version"] == "test-1.0" and meta["config"] == ""
    assert int(meta["mpi_size"]) == 2 and int(meta["run_start_time"]) == 123456789
    rank = f["rank1"]
    assert rank.attrs["hostname"] == "node1" and int(rank.attrs["pid"]) == 1001
    regions = rank["regions"]
    assert sorted(regions.keys()) == sorted(
        ["solve", "ns%2Ffunc", "empty", "big", "medium", "100%25", "%2E",
         "one_window", "window_and_one"])
    big = regions["big"]
    assert big.attrs["library"] == "/work/app" and int(big.attrs["address"]) == 0xdead0
    assert big["start_times"].dtype == "int64" and big["thread_ids"].dtype == "int32"
    assert big["start_times"].shape == (200000,)
    assert int(big["start_times"][199999]) == 1000000000 + 1000 * 199999 + 21
    assert regions["empty"]["end_times"].shape == (0,)
print("h5py: ok")
PY
    checked=1
else
    echo "h5py not installed: skipped"
fi

[ "$checked" = 1 ] || exit 77
