# cli_expect.sh: sourced by the CLI tests, whose arguments are SCOPE
# MAKE_FIXTURE: sets $scope, $make_fixture and $dir (a temporary directory,
# removed at exit). fail MESSAGE; expect_error PATTERN ARGS...: `$scope
# ARGS` exits 2, prints nothing on stdout and exactly one line on stderr,
# matching PATTERN.
scope=$1
make_fixture=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

expect_error() {
    pattern=$1
    shift
    set +e
    "$scope" "$@" > "$dir/out" 2> "$dir/err"
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || fail "$*: exit $rc, expected 2"
    [ ! -s "$dir/out" ] || fail "$*: wrote to stdout"
    [ "$(wc -l < "$dir/err")" -eq 1 ] || fail "$*: not one line: $(cat "$dir/err")"
    grep -q -- "$pattern" "$dir/err" || fail "$*: '$(cat "$dir/err")' lacks '$pattern'"
}
