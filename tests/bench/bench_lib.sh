# bench_lib.sh: what the benchmark scripts share, sourced by them.

# The median of the numbers on stdin, one per line (the mean of the middle
# two for an even count; nan for none).
median() {
    sort -g | awk '{v[NR] = $1} END {
        if (NR == 0) print "nan";
        else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The least of the numbers on stdin (nan for none): on a shared machine the
# other jobs only ever add to a run's time, so the least of a few rounds is
# the one they disturbed least.
least() {
    sort -g | awk 'NR == 1 {v = $1} END {print NR ? v : "nan"}'
}
