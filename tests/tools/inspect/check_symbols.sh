#!/bin/sh
# `scope check` and `scope symbols` on tests/tools/inspect's program: the
# verdict for each function and pattern, the summary line, the exit
# statuses (1 for an unhookable function or an unmatched pattern, 0 when
# all is hookable, 2 for a bad config or a missing program), and the three
# output formats.
# usage: check_symbols.sh SCOPE PROGRAM CONFIG
set -u
scope=$(readlink -f "$1")   # absolute: one check runs in the program's directory
program=$2
conf=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -Eq "$2" "$1" || { cat "$1" >&2; fail "$1: no line matching '$2'"; }; }

"$scope" check -c "$conf" "$program" > "$dir/check.out" 2> "$dir/check.err"
rc=$?
cat "$dir/check.out"
[ $rc -eq 1 ] || fail "check: exit $rc, expected 1"
has "$dir/check.out" '^scope_normal +[^ ]*inspect_target +scope_normal +yes'
has "$dir/check.out" \
    '^scope_tiny +[^ ]*inspect_target +scope_tiny +calls +calls through its 1 direct call in its module, not through pointers \(not inline: the function is 3 bytes'
has "$dir/check.out" \
    '^scope_orphan +[^ ]*inspect_target +scope_orphan +no +the function is 3 bytes.*, and no direct call leads to it$'
has "$dir/check.out" '^no_such_function +[^ ]*inspect.conf:6 +0 +0 +matches nothing'
has "$dir/check.out" '^scope_normal +[^ ]*inspect.conf:4 +1 +1 +ok'
has "$dir/check.out" '^scope_padded +[^ ]*inspect_target +scope_padded +yes'
has "$dir/check.out" \
    '^sh_plt +[^ ]*libinspect_short.so +sh_plt +plt +calls through the GOTs of 1 module here, not through pointers \(not inline: the function is 4 bytes'
has "$dir/check.out" \
    '^5 functions selected, 2 hookable inline \(40\.0%\), 2 through the PLT or their calls \(80\.0% in all\), 1 not \(1 too short\)$'
has "$dir/check.out" '^1 pattern matches nothing$'

"$scope" check -f scope_normal "$program" > "$dir/ok.out" 2>&1 || fail "check -f: exit $?"
has "$dir/ok.out" '^1 functions selected, 1 hookable inline \(100\.0%\), 0 through the PLT or their calls \(100\.0% in all\), 0 not$'

# a function GCC split: its .cold part is listed as a fragment, not selected
"$scope" check -f 'scope_split*' "$program" > "$dir/split.out" 2>&1 || fail "check split: exit $?"
has "$dir/split.out" '^scope_split\* +[^ ]*inspect_target +scope_split +yes'
has "$dir/split.out" \
    '^scope_split\* +[^ ]*inspect_target +scope_split\.cold +no +a piece of scope_split the compiler split off'
has "$dir/split.out" '^scope_split\* +-f +1 +1 +ok'
has "$dir/split.out" \
    '^1 functions selected, 1 hookable inline \(100\.0%\), 0 through the PLT or their calls \(100\.0% in all\), 0 not; 1 compiler fragment \(name\.cold\), not functions$'

"$scope" check -c "$conf" --format json "$program" > "$dir/check.json" 2> "$dir/check.err"
[ $? -eq 1 ] || fail "check --format json: exit status"
python3 - "$dir/check.json" <<'PY' || fail "check JSON"
import json, sys
d = json.load(open(sys.argv[1]))
f = {r["function"]: r for r in d["functions"]}
assert f["scope_normal"]["hookable"] == "yes" and f["scope_tiny"]["hookable"] == "calls", f
assert f["scope_orphan"]["hookable"] == "no", f
assert f["scope_padded"]["hookable"] == "yes" and f["sh_plt"]["hookable"] == "plt", f
assert [p["status"] for p in d["patterns"]] == ["ok", "ok", "matches nothing", "ok", "ok",
                                                "not all hookable"], d
assert {p["callsite_depth"] for p in d["patterns"]} == {0}, d
PY
"$scope" check -f "scope_normal depth=3" --format json "$program" > "$dir/depth.json" ||
    fail "check -f with a depth: exit $?"
python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["patterns"]
assert [(x["pattern"], x["callsite_depth"]) for x in p] == [("scope_normal", 3)], p' \
    "$dir/depth.json" || fail "check: the call-site depth of a pattern"
"$scope" check -f "scope_normal args=1,3 retval,scope_padded" --format json "$program" \
    > "$dir/values.json" || fail "check -f with args: exit $?"
python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["patterns"]
assert [(x["pattern"], x["records"]) for x in p] == [("scope_normal", "arg1,arg3,retval"),
                                                     ("scope_padded", "")], p' \
    "$dir/values.json" || fail "check: the values a pattern records"
has "$dir/check.err" '^5 functions selected'

printf '[functions]\nsolve\nre:(\n' > "$dir/bad.conf"
"$scope" check -c "$dir/bad.conf" "$program" > /dev/null 2> "$dir/bad.err"
[ $? -eq 2 ] || fail "bad config: exit status"
has "$dir/bad.err" "^scope: $dir/bad.conf:3: "
"$scope" check -c "$conf" "$dir/no-such-program" > /dev/null 2> "$dir/missing.err"
[ $? -eq 2 ] || fail "missing program: exit status"
has "$dir/missing.err" 'no-such-program: not found'

"$scope" symbols "$program" 'scope_*' > "$dir/symbols.out" || fail "symbols: exit $?"
cat "$dir/symbols.out"
has "$dir/symbols.out" '^[^ ]*inspect_target +scope_normal +0x[0-9a-f]+ +[0-9]+ +yes'
has "$dir/symbols.out" '^[^ ]*inspect_target +scope_tiny +0x[0-9a-f]+ +3 +calls +calls through its 1 direct call'
has "$dir/symbols.out" '^[^ ]*inspect_target +scope_orphan +0x[0-9a-f]+ +3 +no +the function is 3'
"$scope" symbols --format csv "$program" > "$dir/all.csv" || fail "symbols csv: exit $?"
has "$dir/all.csv" '^module,function,address,size,hookable,reason$'
has "$dir/all.csv" 'libc\.so\.6,'      # the libraries the program loads are listed too
"$scope" symbols --format json "$program" 'libc.so.6:write' > "$dir/write.json" ||
    fail "symbols json: exit $?"
python3 - "$dir/write.json" <<'PY' || fail "symbols JSON"
import json, sys
rows = json.load(open(sys.argv[1]))["symbols"]
assert [r["function"] for r in rows] == ["write"], rows
assert rows[0]["module"].endswith("libc.so.6")
PY
"$scope" symbols --summary "$program" > "$dir/summary.out" || fail "symbols --summary"
has "$dir/summary.out" \
    '^[0-9]+ functions, [0-9]+ hookable inline \([0-9.]+%\), [0-9]+ through the PLT or their calls \([0-9.]+% in all\)'

# Exported functions of a library that cannot be patched inline: through
# the GOT of the one module that calls them; also with the library found
# along a relative LD_LIBRARY_PATH.
"$scope" check -f sh_plt,sh_branch "$program" > "$dir/plt.out" 2>&1 || fail "check plt: exit $?"
cat "$dir/plt.out"
has "$dir/plt.out" '^sh_plt +[^ ]*libinspect_short\.so +sh_plt +plt +calls through the GOTs of 1 module here, not through pointers \(not inline: the function is 4 bytes'
has "$dir/plt.out" '^sh_branch +[^ ]*libinspect_short\.so +sh_branch +plt +calls through the GOTs of 1 module here, not through pointers \(not inline: the instruction at \+0x[0-9a-f]+ branches into the patched bytes'
has "$dir/plt.out" '^2 functions selected, 0 hookable inline \(0\.0%\), 2 through the PLT or their calls \(100\.0% in all\), 0 not$'
(cd "$(dirname "$program")" && LD_LIBRARY_PATH=. "$scope" symbols "./$(basename "$program")" 'sh_*') \
    > "$dir/relative.out" 2>&1 || fail "symbols with a relative LD_LIBRARY_PATH: exit $?"
has "$dir/relative.out" '^\./libinspect_short\.so +sh_plt +0x[0-9a-f]+ +4 +plt'
echo "ok"
