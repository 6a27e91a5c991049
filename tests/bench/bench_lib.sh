# bench_lib.sh: what the benchmark scripts share, sourced by them.

# The median of the numbers on stdin, one per line (the mean of the middle
# two for an even count; nan for none).
median() {
    sort -g | awk '{v[NR] = $1} END {
        if (NR == 0) print "nan";
        else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
