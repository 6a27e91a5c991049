/* make_fixture KIND PATH: write a test file (two-ranks, tutorial,
 * tutorial-no-start, threads, empty, many-regions, callsites,
 * callsites-same-line, suggest) for
 * the CLI test and for trying the CLI by hand. */
#include "fixtures.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: make_fixture two-ranks|tutorial|tutorial-no-start|threads|empty|"
                        "many-regions|callsites|callsites-same-line|suggest PATH\n");
        return 2;
    }
    if (strcmp(argv[1], "two-ranks") == 0)
        fx_two_ranks(argv[2]);
    else if (strcmp(argv[1], "tutorial") == 0)
        fx_tutorial(argv[2], true);
    else if (strcmp(argv[1], "tutorial-no-start") == 0)
        fx_tutorial(argv[2], false);
    else if (strcmp(argv[1], "threads") == 0)
        fx_threads(argv[2]);
    else if (strcmp(argv[1], "empty") == 0)
        fx_empty(argv[2]);
    else if (strcmp(argv[1], "many-regions") == 0)
        fx_many_regions(argv[2]);
    else if (strcmp(argv[1], "callsites") == 0)
        fx_callsites(argv[2], FX_SITE_OK);
    else if (strcmp(argv[1], "callsites-same-line") == 0)
        fx_callsites_same_line(argv[2]);
    else if (strcmp(argv[1], "suggest") == 0)
        fx_suggest(argv[2]);
    else
        return 2;
    return 0;
}
